package conventionstest

import (
	"slices"
	"strings"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/v1helpers"

	"github.com/kmsguard/kmsguard/internal/conditions"
)

// ExpectRegisteredReasons checks that each of conds carries a reason its package registers: for a
// "<Name>ControllerDegraded" condition one of internal/conditions' ControllerDegradedReasons, for any other one of
// registered, the ConditionReasons of the package whose test calls it. docs/runbooks_test.go demands a runbook for
// every registered reason, so a reason a controller sets that its registry misses would reach an admin without
// one: the scenario tests call this on the conditions they read, and so check every reason they make the
// controller set, however the code computed it.
func ExpectRegisteredReasons(t testing.TB, registered []string, conds ...operatorv1.OperatorCondition) {
	t.Helper()
	for _, c := range conds {
		want, registry := registered, "the package's ConditionReasons"
		if strings.HasSuffix(c.Type, "ControllerDegraded") {
			want, registry = conditions.ControllerDegradedReasons(), "conditions.ControllerDegradedReasons"
		}
		if !slices.Contains(want, c.Reason) {
			t.Errorf("%s has reason %q, which %s (%s) does not register: register it, and write docs/runbooks/%s.md",
				c.Type, c.Reason, registry, strings.Join(want, ", "), c.Reason)
		}
	}
}

// ExpectRegisteredReasonsAtEnd checks, once the test and its subtests have ended, the conditions client then holds
// (ExpectRegisteredReasons): for a fixture whose tests read the conditions in many ways, one call where it is built.
func ExpectRegisteredReasonsAtEnd(t testing.TB, client v1helpers.OperatorClient, registered []string) {
	t.Helper()
	t.Cleanup(func() {
		_, status, _, err := client.GetOperatorState()
		if err != nil {
			t.Errorf("reading the conditions to check their reasons: %v", err)
			return
		}
		ExpectRegisteredReasons(t, registered, status.Conditions...)
	})
}
