package kmsrollback

import (
	"fmt"
	"strings"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	"k8s.io/apimachinery/pkg/runtime"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/component-base/metrics/testutil"

	"github.com/kmsguard/kmsguard/internal/conventionstest"
	"github.com/kmsguard/kmsguard/internal/metricstest"
)

// stateExposition is kmsguard_kms_rollback_state of the fixture's controller (kube-apiserver) with a 1 on reason.
func stateExposition(reason Reason) string {
	var b strings.Builder
	b.WriteString("# HELP kmsguard_kms_rollback_state [ALPHA] 1 for the reason of the KMSRollbackDegraded condition after the latest sync, 0 for the other reasons.\n# TYPE kmsguard_kms_rollback_state gauge\n")
	for _, r := range []Reason{ReasonAsExpected, ReasonCannotRevertKMSConfig, ReasonFailureNotAttributedToKMS, ReasonNotReverted, ReasonRevertedFailingKMSConfig} {
		v := 0
		if r == reason {
			v = 1
		}
		fmt.Fprintf(&b, "kmsguard_kms_rollback_state{component=\"kube-apiserver\",reason=%q} %d\n", r, v)
	}
	return b.String()
}

// TestRollbackMetrics: after each sync kmsguard_kms_rollback_state has its 1 on the condition's reason, and
// kmsguard_kms_config_reverts_total counts the reverts written: one per failed revision however often it is
// synced, none when nothing is reverted. A restarted operator still shows the revert, read back from the store.
func TestRollbackMetrics(t *testing.T) {
	scenarios := []struct {
		name        string
		status      *operatorv1.StaticPodOperatorStatus
		revision    map[int32]*apiserverv1.EncryptionConfiguration
		health      *health
		unmanaged   bool
		restart     bool
		wantReason  Reason
		wantReverts float64
	}{
		{
			name:       "converged, nothing failed",
			status:     convergedStatus(4),
			revision:   map[int32]*apiserverv1.EncryptionConfiguration{4: goodConfig},
			health:     newHealth([]string{"1"}, healthy("master-0", "1"), healthy("master-1", "1")),
			wantReason: ReasonAsExpected,
		},
		{
			name:       "failure not attributed to KMS",
			status:     failedStatus(5, 4),
			revision:   map[int32]*apiserverv1.EncryptionConfiguration{4: goodConfig, 5: failedConfig},
			health:     newHealth([]string{"1", "2"}, healthy("master-0", "1"), healthy("master-1", "1"), healthy("master-0", "2"), healthy("master-1", "2")),
			wantReason: ReasonFailureNotAttributedToKMS,
		},
		{
			name:        "new KMS key unreachable: reverted once",
			status:      failedStatus(5, 4),
			revision:    map[int32]*apiserverv1.EncryptionConfiguration{4: goodConfig, 5: failedConfig},
			health:      newHealth([]string{"1", "2"}, unreachable("master-0", "2")),
			wantReason:  ReasonRevertedFailingKMSConfig,
			wantReverts: 1,
		},
		{
			name:        "reverted, then the operator restarts",
			status:      failedStatus(5, 4),
			revision:    map[int32]*apiserverv1.EncryptionConfiguration{4: goodConfig, 5: failedConfig},
			health:      newHealth([]string{"1", "2"}, unreachable("master-0", "2")),
			restart:     true,
			wantReason:  ReasonRevertedFailingKMSConfig,
			wantReverts: 1,
		},
		{
			name:       "nothing to go back to",
			status:     failedStatus(1, 0),
			revision:   map[int32]*apiserverv1.EncryptionConfiguration{1: failedConfig},
			health:     newHealth([]string{"1", "2"}, unreachable("master-0", "2")),
			wantReason: ReasonCannotRevertKMSConfig,
		},
		{
			name:       "KMS failure while Unmanaged: not reverted",
			status:     failedStatus(5, 4),
			revision:   map[int32]*apiserverv1.EncryptionConfiguration{4: goodConfig, 5: failedConfig},
			health:     newHealth([]string{"1", "2"}, unreachable("master-0", "2")),
			unmanaged:  true,
			wantReason: ReasonNotReverted,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			var objects []runtime.Object
			for rev, config := range s.revision {
				objects = append(objects, revisionSecret(t, rev, config))
			}
			f := newFixture(t, s.status, s.health, objects...)
			if s.unmanaged {
				conventionstest.SetStaticPodManagementState(t, f.operator, operatorv1.Unmanaged)
			}
			reverts := func() float64 {
				t.Helper()
				v, err := testutil.GetCounterMetricValue(registeredMetrics().reverts.WithLabelValues("kube-apiserver"))
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			before := reverts()
			f.sync()
			if s.restart {
				f.controller = f.newController()
			}
			f.sync()
			if err := testutil.GatherAndCompare(metricstest.Gatherer("kube-apiserver"), strings.NewReader(stateExposition(s.wantReason)), "kmsguard_kms_rollback_state"); err != nil {
				t.Error(err)
			}
			if got := reverts() - before; got != s.wantReverts {
				t.Errorf("kmsguard_kms_config_reverts_total rose by %v over two syncs, want %v", got, s.wantReverts)
			}
		})
	}
}
