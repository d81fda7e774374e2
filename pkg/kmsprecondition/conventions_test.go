package kmsprecondition

import (
	"context"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/conventionstest"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// newTestGate is NewGate for options a test knows to be complete.
func newTestGate(t testing.TB, opts Options) *Gate {
	t.Helper()
	g, err := NewGate("kube-apiserver", opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestNewGateRequiredOptions: each missing required option is named, instead of a panic on the revision
// controller's first sync.
func TestNewGateRequiredOptions(t *testing.T) {
	complete := Options{
		Configs:        revisions.ConfigSourceFunc(func(context.Context) (revisions.Configs, error) { return revisions.Configs{}, nil }),
		Nodes:          kmsstate.NodeListerFunc(func(context.Context) ([]string, error) { return nil, nil }),
		Health:         allHealthy("1"),
		OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
		Recorder:       events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0)),
	}
	scenarios := []conventionstest.MissingOptions[Options]{
		{Name: "no Configs", Clear: func(o *Options) { o.Configs = nil }, Missing: "Configs"},
		{Name: "no Nodes", Clear: func(o *Options) { o.Nodes = nil }, Missing: "Nodes"},
		{Name: "no Health", Clear: func(o *Options) { o.Health = nil }, Missing: "Health"},
		{Name: "no OperatorClient", Clear: func(o *Options) { o.OperatorClient = nil }, Missing: "OperatorClient"},
		{Name: "no Recorder", Clear: func(o *Options) { o.Recorder = nil }, Missing: "Recorder"},
		{Name: "none", Clear: func(o *Options) { *o = Options{} }, Missing: "Configs, Health, Nodes, OperatorClient, Recorder"},
	}
	newGate := func(o Options) (*Gate, error) { return NewGate("kube-apiserver", o) }
	conventionstest.RequiredOptions(t, complete, newGate, scenarios)
}
