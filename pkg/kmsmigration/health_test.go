package kmsmigration

import (
	"context"
	"errors"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// kmsReaderFunc is a KMSHealthReader of a function.
type kmsReaderFunc func() (kmsstate.State, error)

func (f kmsReaderFunc) Current() (kmsstate.State, error) { return f() }

// kmsVerdict is a kmsstate evaluation of the plugins of keyIDs on master-0 and master-1, every report with
// status, except those of master-1 key unhealthyKey, which are Error.
func kmsVerdict(status operatorv1.KMSPluginHealthStatus, unhealthyKey string, keyIDs ...string) kmsstate.State {
	now := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	var reports []operatorv1.KMSPluginHealthReport
	for _, node := range []string{"master-0", "master-1"} {
		for _, id := range keyIDs {
			s := status
			if node == "master-1" && id == unhealthyKey {
				s = operatorv1.KMSPluginHealthStatusError
			}
			reports = append(reports, operatorv1.KMSPluginHealthReport{NodeName: node, KeyID: id, Status: s, RemoteKeyID: "kek-" + id, LastCheckedTime: metav1.NewTime(now)})
		}
	}
	state, _ := kmsstate.Evaluate(kmsstate.Config{}, kmsstate.Memory{}, kmsstate.Observation{Now: now, Nodes: []string{"master-0", "master-1"}, KeyIDs: keyIDs, Reports: reports})
	return state
}

// TestWriteKeyHealth: a migration pauses unless kmsstate knows the plugin of its write key healthy on every node,
// in a fresh evaluation; a write key kmsstate does not watch has no plugin to wait for.
func TestWriteKeyHealth(t *testing.T) {
	stale := &kmsstate.UnhealthyError{Failures: []kmsstate.Failure{{Reason: kmsstate.ReasonStateStale, Detail: "old"}}}
	notEvaluated := &kmsstate.UnhealthyError{Failures: []kmsstate.Failure{{Reason: kmsstate.ReasonStateNotEvaluated}}}
	scenarios := []struct {
		name     string
		state    kmsstate.State
		err      error
		writeKey string
		want     kmsstate.Reason // "" for healthy
	}{
		{name: "healthy everywhere", state: kmsVerdict(operatorv1.KMSPluginHealthStatusHealthy, "", "1", "2"), writeKey: "2"},
		{name: "the write key's plugin down on one node", state: kmsVerdict(operatorv1.KMSPluginHealthStatusHealthy, "2", "1", "2"), writeKey: "2", want: kmsstate.ReasonPluginUnreachable},
		{name: "another key's plugin down", state: kmsVerdict(operatorv1.KMSPluginHealthStatusHealthy, "1", "1", "2"), writeKey: "2"},
		{name: "a write key kmsstate does not watch (aescbc)", state: kmsVerdict(operatorv1.KMSPluginHealthStatusError, "", "1"), writeKey: "7"},
		{name: "stale verdict", err: stale, writeKey: "2", want: kmsstate.ReasonStateStale},
		{name: "not evaluated yet", err: notEvaluated, writeKey: "2", want: kmsstate.ReasonStateNotEvaluated},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			health := writeKeyHealth(kmsReaderFunc(func() (kmsstate.State, error) { return s.state, s.err }), s.writeKey)
			err := health(context.Background())
			if s.want == "" {
				if err != nil {
					t.Fatalf("want healthy, got %v", err)
				}
				return
			}
			var unhealthy *kmsstate.UnhealthyError
			if !errors.As(err, &unhealthy) || unhealthy.Reason() != s.want {
				t.Fatalf("got %v, want an UnhealthyError with reason %s", err, s.want)
			}
		})
	}
	if writeKeyHealth(nil, "2") != nil {
		t.Error("without a KMS reader the migration has a health to pause on")
	}
}
