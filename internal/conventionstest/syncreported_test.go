package conventionstest

import (
	"errors"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/v1helpers"

	"github.com/kmsguard/kmsguard/internal/tbrecorder"
)

func TestExpectSyncReported(t *testing.T) {
	const conditionType = "FooControllerDegraded"
	syncErr := errors.New("reading foo: etcdserver: request timed out")
	failed := operatorv1.OperatorCondition{Type: conditionType, Status: operatorv1.ConditionTrue, Reason: "Error", Message: syncErr.Error()}
	succeeded := operatorv1.OperatorCondition{Type: conditionType, Status: operatorv1.ConditionFalse, Reason: "AsExpected"}
	with := func(c operatorv1.OperatorCondition, change func(*operatorv1.OperatorCondition)) operatorv1.OperatorCondition {
		change(&c)
		return c
	}
	scenarios := []struct {
		name          string
		conditionType string
		conditions    []operatorv1.OperatorCondition
		syncErr       error
		wantMessage   string
		wantFail      bool
	}{
		{name: "failure reported", conditions: []operatorv1.OperatorCondition{failed}, syncErr: syncErr, wantMessage: syncErr.Error()},
		{name: "success reported", conditions: []operatorv1.OperatorCondition{succeeded}},
		{name: "failure not returned", conditions: []operatorv1.OperatorCondition{failed}, wantMessage: syncErr.Error(), wantFail: true},
		{name: "failure not reported", conditions: []operatorv1.OperatorCondition{succeeded}, syncErr: syncErr, wantMessage: syncErr.Error(), wantFail: true},
		{name: "failure with another message", conditions: []operatorv1.OperatorCondition{failed}, syncErr: syncErr, wantMessage: "reading bar: " + syncErr.Error(), wantFail: true},
		{name: "failure with a message that only contains the wanted one", conditions: []operatorv1.OperatorCondition{failed}, syncErr: syncErr, wantMessage: "etcdserver: request timed out", wantFail: true},
		{name: "failure with another reason", conditions: []operatorv1.OperatorCondition{with(failed, func(c *operatorv1.OperatorCondition) { c.Reason = "Panic" })}, syncErr: syncErr, wantMessage: syncErr.Error(), wantFail: true},
		{name: "success returning an error", conditions: []operatorv1.OperatorCondition{succeeded}, syncErr: syncErr, wantFail: true},
		{name: "success leaving the failure", conditions: []operatorv1.OperatorCondition{failed}, wantFail: true},
		{name: "success leaving the message", conditions: []operatorv1.OperatorCondition{with(succeeded, func(c *operatorv1.OperatorCondition) { c.Message = syncErr.Error() })}, wantFail: true},
		{name: "success with another reason", conditions: []operatorv1.OperatorCondition{with(succeeded, func(c *operatorv1.OperatorCondition) { c.Reason = "Fine" })}, wantFail: true},
		{name: "no condition", wantFail: true},
		{name: "another controller's condition", conditions: []operatorv1.OperatorCondition{with(succeeded, func(c *operatorv1.OperatorCondition) { c.Type = "BarControllerDegraded" })}, wantFail: true},
		{name: "a type library-go does not roll into Degraded", conditionType: "FooDegraded",
			conditions: []operatorv1.OperatorCondition{with(succeeded, func(c *operatorv1.OperatorCondition) { c.Type = "FooDegraded" })}, wantFail: true},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			client := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{Conditions: s.conditions}, nil)
			conditionType := conditionType
			if s.conditionType != "" {
				conditionType = s.conditionType
			}
			got := tbrecorder.Failures(func(t testing.TB) { ExpectSyncReported(t, client, conditionType, s.syncErr, s.wantMessage) })
			if (len(got) > 0) != s.wantFail {
				t.Errorf("failures %q, want a failure: %v", got, s.wantFail)
			}
		})
	}
}
