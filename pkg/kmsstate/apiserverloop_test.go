package kmsstate

import (
	"context"
	"slices"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/clock"
)

// hungAPIServers is an APIServerProber whose first Probe hangs, as a kube-apiserver's /healthz/kms-providers
// does while the KMS is slow, until release is closed; then it answers views.
type hungAPIServers struct {
	entered chan struct{}
	release chan struct{}
	views   []APIServerView
}

func (a *hungAPIServers) Probe(ctx context.Context) []APIServerView {
	select {
	case a.entered <- struct{}{}:
	default:
	}
	select {
	case <-a.release:
	case <-ctx.Done():
	}
	return a.views
}

// TestAHungAPIServerProbeDoesNotHoldTheVerdict runs the controller with an apiserver probe that hangs. The health
// reports' verdict must come while it hangs, and the apiservers' answer, once it comes, must be evaluated at
// once: the report interval is an hour, so no resync can do it.
func TestAHungAPIServerProbeDoesNotHoldTheVerdict(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	apiservers := &hungAPIServers{
		entered: make(chan struct{}, 1),
		release: make(chan struct{}),
		views:   []APIServerView{{NodeName: "master-0", KMSHealthz: &HealthzResult{Detail: "[-]kms-provider-0 failed: context deadline exceeded"}}},
	}
	c := newTestController(t, Options{
		Config:         Config{ReportInterval: time.Hour},
		OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}, &operatorv1.OperatorStatus{}, nil),
		StatusProvider: &fakeStatusProvider{reports: []operatorv1.KMSPluginHealthReport{{
			NodeName: "master-0", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusError, RemoteKeyID: "a",
			Detail: "connection refused", LastCheckedTime: metav1.Now(),
		}}},
		Nodes:      staticNodes{"master-0"},
		Keys:       staticKeys{IDs: []string{"1"}},
		APIServers: apiservers,
		Recorder:   events.NewInMemoryRecorder("test", clock.RealClock{}),
	})
	// The controller must have stopped before the test's cleanups read the operator client (newTestController
	// checks the conditions' reasons at the end): library-go's fake client is not safe for concurrent use.
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		c.Run(ctx, 1)
	}()
	t.Cleanup(func() {
		cancel()
		<-stopped
	})

	// waitForReasons waits until the controller's verdict has exactly these failure reasons. A minute is a
	// deadlock's bound, not a timing: each verdict here takes milliseconds.
	waitForReasons := func(want ...Reason) {
		t.Helper()
		var got []Reason
		err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, time.Minute, true, func(context.Context) (bool, error) {
			state, ok := c.State()
			if !ok {
				return false, nil
			}
			got = got[:0]
			for _, f := range state.Failures {
				got = append(got, f.Reason)
			}
			slices.Sort(got)
			return slices.Equal(got, want), nil
		})
		if err != nil {
			t.Fatalf("failure reasons %v, want %v", got, want)
		}
	}

	<-apiservers.entered
	waitForReasons(ReasonPluginUnreachable)

	close(apiservers.release)
	want := []Reason{ReasonPluginUnreachable, ReasonAPIServerKMSCheckFailing}
	slices.Sort(want)
	waitForReasons(want...)
}
