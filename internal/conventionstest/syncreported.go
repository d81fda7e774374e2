package conventionstest

import (
	"strings"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
)

// ExpectSyncReported checks that a sync's result and its "<Name>ControllerDegraded" condition agree, as in
// library-go's encryption controllers: a sync that failed with wantMessage returned an error and left the
// condition True, reason Error, with exactly wantMessage; a sync that succeeded (wantMessage "") returned none and
// left it False, AsExpected, with no message. syncErr is what the last sync returned.
//
// The reasons are spelled out rather than taken from the product's constants: they are library-go's, which the
// ClusterOperator's Degraded and the admins' alerts read.
func ExpectSyncReported(t testing.TB, client v1helpers.OperatorClient, conditionType string, syncErr error, wantMessage string) {
	t.Helper()
	if !strings.HasSuffix(conditionType, "ControllerDegraded") {
		t.Errorf("condition type %q does not end in ControllerDegraded: library-go's status controllers would not roll it into Degraded", conditionType)
	}
	wantFailure := wantMessage != ""
	if (syncErr != nil) != wantFailure {
		t.Errorf("sync error %v, want one: %v", syncErr, wantFailure)
	}
	want := operatorv1.OperatorCondition{Type: conditionType, Status: operatorv1.ConditionFalse, Reason: "AsExpected"}
	if wantFailure {
		want = operatorv1.OperatorCondition{Type: conditionType, Status: operatorv1.ConditionTrue, Reason: "Error", Message: wantMessage}
	}
	_, status, _, err := client.GetOperatorState()
	if err != nil {
		t.Fatal(err)
	}
	got := v1helpers.FindOperatorCondition(status.Conditions, conditionType)
	if got == nil {
		t.Errorf("no %s, want %s %s %q", conditionType, want.Status, want.Reason, want.Message)
		return
	}
	if got.Status != want.Status || got.Reason != want.Reason || got.Message != want.Message {
		t.Errorf("%s = %s %s %q, want %s %s %q", conditionType, got.Status, got.Reason, got.Message, want.Status, want.Reason, want.Message)
	}
}
