package conventionstest

import (
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/v1helpers"

	"github.com/kmsguard/kmsguard/internal/tbrecorder"
)

func TestExpectRegisteredReasons(t *testing.T) {
	registered := []string{"AsExpected", "Broken"}
	cond := func(conditionType, reason string) operatorv1.OperatorCondition {
		return operatorv1.OperatorCondition{Type: conditionType, Status: operatorv1.ConditionTrue, Reason: reason}
	}
	scenarios := []struct {
		name     string
		conds    []operatorv1.OperatorCondition
		wantFail int
	}{
		{name: "registered reasons", conds: []operatorv1.OperatorCondition{cond("FooDegraded", "Broken"), cond("FooProgressing", "AsExpected")}},
		{name: "a reason the registry misses", conds: []operatorv1.OperatorCondition{cond("FooDegraded", "Broken"), cond("FooDegraded", "Unlisted")}, wantFail: 1},
		{name: "no reason", conds: []operatorv1.OperatorCondition{cond("FooDegraded", "")}, wantFail: 1},
		{name: "a ControllerDegraded with internal/conditions' reasons", conds: []operatorv1.OperatorCondition{cond("FooControllerDegraded", "Error"), cond("FooControllerDegraded", "Panic")}},
		{name: "a ControllerDegraded with a reason of the package", conds: []operatorv1.OperatorCondition{cond("FooControllerDegraded", "Broken")}, wantFail: 1},
		{name: "a reason of internal/conditions on another condition", conds: []operatorv1.OperatorCondition{cond("FooDegraded", "Error")}, wantFail: 1},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			got := tbrecorder.Failures(func(t testing.TB) { ExpectRegisteredReasons(t, registered, s.conds...) })
			if len(got) != s.wantFail {
				t.Errorf("failures %q, want %d", got, s.wantFail)
			}
		})
	}
}

func TestExpectRegisteredReasonsAtEnd(t *testing.T) {
	for _, s := range []struct {
		reason   string
		wantFail bool
	}{{reason: "Broken"}, {reason: "Unlisted", wantFail: true}} {
		t.Run(s.reason, func(t *testing.T) {
			client := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)
			r := &cleanupTB{}
			ExpectRegisteredReasonsAtEnd(r, client, []string{"Broken"})
			// Set after the call, as a sync would: the check reads the conditions when the test ends.
			_, _, rv, _ := client.GetOperatorState()
			if _, err := client.UpdateOperatorStatus(t.Context(), rv, &operatorv1.OperatorStatus{Conditions: []operatorv1.OperatorCondition{
				{Type: "FooDegraded", Status: operatorv1.ConditionTrue, Reason: s.reason}}}); err != nil {
				t.Fatal(err)
			}
			if len(r.Failures) > 0 {
				t.Fatalf("checked before the test ended: %q", r.Failures)
			}
			r.cleanup()
			if (len(r.Failures) > 0) != s.wantFail {
				t.Errorf("failures %q, want a failure: %v", r.Failures, s.wantFail)
			}
		})
	}
}

// cleanupTB is a tbrecorder.TB that keeps its cleanups until cleanup runs them.
type cleanupTB struct {
	tbrecorder.TB
	cleanups []func()
}

func (c *cleanupTB) Cleanup(f func()) { c.cleanups = append(c.cleanups, f) }

func (c *cleanupTB) cleanup() {
	for i := len(c.cleanups) - 1; i >= 0; i-- {
		c.cleanups[i]()
	}
}
