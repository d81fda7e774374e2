package kmsrecovery_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/openshift/library-go/pkg/controller/factory"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/component-base/metrics/testutil"

	"github.com/kmsguard/kmsguard/internal/metricstest"
	"github.com/kmsguard/kmsguard/internal/recoverytest"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
)

// TestUndecryptableObjectsMetric syncs one controller through a lost key's life and reads
// kmsguard_undecryptable_objects back after each sync: every scanned resource has its count, 0 included; a
// failed scan changes nothing, as it changes no condition; after a consented deletion the count is what is
// left.
func TestUndecryptableObjectsMetric(t *testing.T) {
	cluster := recoverytest.NewCluster()
	addSecrets(cluster, "app", "lost", 3, lostKey, false)
	addSecrets(cluster, "app", "ok", 2, liveKey, true)
	cluster.Add(recoverytest.ConfigMaps, "app", "other", "key-other", false)
	failing := false
	cluster.Fake.PrependReactor("list", "*", func(clienttesting.Action) (bool, runtimeObject, error) {
		return failing, nil, apierrors.NewServiceUnavailable("apiserver restarting")
	})
	env := newControllerEnv(t, cluster, "")

	scenarios := []struct {
		name                        string
		change                      func()
		wantSecrets, wantConfigMaps int
	}{
		{
			name:        "three secrets under a lost key, one configmap under another",
			change:      func() {},
			wantSecrets: 3, wantConfigMaps: 1,
		},
		{
			name: "the next scan fails",
			change: func() {
				failing = true
				env.clock.SetTime(t0.Add(kmsrecovery.DefaultInterval))
			},
			wantSecrets: 3, wantConfigMaps: 1,
		},
		{
			name: "the admin consents to the lost key",
			change: func() {
				failing = false
				_, _, rv, err := env.operator.GetOperatorState()
				if err != nil {
					t.Fatal(err)
				}
				if _, _, err := env.operator.UpdateOperatorSpec(context.Background(), rv, consentSpec(lostKey)); err != nil {
					t.Fatal(err)
				}
			},
			wantSecrets: 0, wantConfigMaps: 1,
		},
	}
	for _, s := range scenarios {
		s.change()
		// The failed scan's error is the factory's business; the metric is what this test reads.
		_ = env.ctrl.Sync(context.Background(), factory.NewSyncContext("test", env.recorder))
		want := fmt.Sprintf(`# HELP kmsguard_undecryptable_objects [ALPHA] Objects of an encrypted resource that kube-apiserver could not read in the latest scan.
# TYPE kmsguard_undecryptable_objects gauge
kmsguard_undecryptable_objects{component="kube-apiserver",resource="configmaps"} %d
kmsguard_undecryptable_objects{component="kube-apiserver",resource="secrets"} %d
`, s.wantConfigMaps, s.wantSecrets)
		if err := testutil.GatherAndCompare(metricstest.Gatherer("kube-apiserver"), strings.NewReader(want), "kmsguard_undecryptable_objects"); err != nil {
			t.Errorf("%s:\n%v", s.name, err)
		}
	}
	if got := len(cluster.UnsafeDeleted()); got != 3 {
		t.Errorf("%d objects deleted, want the 3 secrets", got)
	}
}
