package kmsprecondition

import (
	"context"
	"strings"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	clocktesting "k8s.io/utils/clock/testing"

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
	complete := func() Options {
		return Options{
			Configs:        revisions.ConfigSourceFunc(func(context.Context) (revisions.Configs, error) { return revisions.Configs{}, nil }),
			Nodes:          kmsstate.NodeListerFunc(func(context.Context) ([]string, error) { return nil, nil }),
			Health:         allHealthy("1"),
			OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
			Recorder:       events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0)),
		}
	}
	scenarios := []struct {
		name    string
		clear   func(*Options)
		wantErr string
	}{
		{name: "complete", clear: func(*Options) {}},
		{name: "no Configs", clear: func(o *Options) { o.Configs = nil }, wantErr: "Configs"},
		{name: "no Nodes", clear: func(o *Options) { o.Nodes = nil }, wantErr: "Nodes"},
		{name: "no Health", clear: func(o *Options) { o.Health = nil }, wantErr: "Health"},
		{name: "no OperatorClient", clear: func(o *Options) { o.OperatorClient = nil }, wantErr: "OperatorClient"},
		{name: "no Recorder", clear: func(o *Options) { o.Recorder = nil }, wantErr: "Recorder"},
		{name: "none", clear: func(o *Options) { *o = Options{} }, wantErr: "Configs, Health, Nodes, OperatorClient, Recorder"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			opts := complete()
			s.clear(&opts)
			g, err := NewGate("kube-apiserver", opts)
			switch {
			case s.wantErr == "" && (err != nil || g == nil):
				t.Errorf("NewGate: %v", err)
			case s.wantErr != "" && (err == nil || !strings.HasSuffix(err.Error(), "missing required options: "+s.wantErr)):
				t.Errorf("error %v, want one naming exactly %s", err, s.wantErr)
			case s.wantErr != "" && g != nil:
				t.Errorf("a gate was built without %s", s.wantErr)
			}
		})
	}
}
