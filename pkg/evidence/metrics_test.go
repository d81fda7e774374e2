package evidence_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	clientv3 "go.etcd.io/etcd/client/v3"
	"k8s.io/component-base/metrics/testutil"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/etcdtest"
	"github.com/kmsguard/kmsguard/internal/metricstest"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
)

// verificationExposition is what the verification metrics read after a sync that set reason, with the given
// resource verdicts (resource -> 0 or 1).
func verificationExposition(component, reason string, resources map[string]int) string {
	var b strings.Builder
	if len(resources) > 0 {
		b.WriteString("# HELP kmsguard_encryption_resource_verified [ALPHA] 1 when the last successful census of etcd found every value of an encrypted resource under its write key, 0 otherwise.\n# TYPE kmsguard_encryption_resource_verified gauge\n")
		for resource, v := range resources {
			b.WriteString("kmsguard_encryption_resource_verified{component=\"" + component + "\",resource=\"" + resource + "\"} " + map[int]string{0: "0", 1: "1"}[v] + "\n")
		}
	}
	b.WriteString("# HELP kmsguard_encryption_verification_state [ALPHA] 1 for the reason of the KMSEncryptionVerified condition after the latest census of etcd, 0 for the other reasons.\n# TYPE kmsguard_encryption_verification_state gauge\n")
	for _, r := range []string{evidence.ReasonVerified, evidence.ReasonNothingToVerify, evidence.ReasonNotVerified, evidence.ReasonCensusDeadlineExceeded, evidence.ReasonCensusFailed} {
		v := "0"
		if r == reason {
			v = "1"
		}
		b.WriteString("kmsguard_encryption_verification_state{component=\"" + component + "\",reason=\"" + r + "\"} " + v + "\n")
	}
	return b.String()
}

// TestCensusMetrics syncs one CensusController through the states of KMSEncryptionVerified and reads
// the metrics back after each sync: the condition's reason, and each resource's verdict from the last scan that
// succeeded; a failed scan keeps the verdicts it could not renew, and nothing to verify leaves none.
func TestCensusMetrics(t *testing.T) {
	writeKey := evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: "1_secrets", KEKID: "kek-b"}
	secrets := evidence.Target{Resources: []evidence.Resource{evidence.BuiltInResource(evidence.DefaultEtcdPrefix, secretsGR)}, WriteKey: writeKey}
	kv := etcdtest.NewKV()
	var getErr error
	kv.BeforeGet = func(int, clientv3.Op) error { return getErr }
	targets := []evidence.Target{secrets}
	recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
	// An instance name of its own: the package's tests share the legacy registry.
	c := newTestCensusController(t, t.Name(), evidence.CensusControllerOptions{
		Census:         evidence.NewCensus(kv, evidence.CensusOptions{Counter: newStoreCounter(kv)}),
		Targets:        func(context.Context) ([]evidence.Target, error) { return targets, nil },
		OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
		Recorder:       recorder,
	})

	scenarios := []struct {
		name          string
		change        func()
		wantReason    string
		wantResources map[string]int
	}{
		{
			name:          "every secret under the write key",
			change:        func() { kv.Store("/registry/secrets/a/one", etcdtest.KMSv2Value("1_secrets", "kek-b")) },
			wantReason:    evidence.ReasonVerified,
			wantResources: map[string]int{"secrets": 1},
		},
		{
			name:          "a secret under the old KEK id",
			change:        func() { kv.Store("/registry/secrets/a/old", etcdtest.KMSv2Value("1_secrets", "kek-a")) },
			wantReason:    evidence.ReasonNotVerified,
			wantResources: map[string]int{"secrets": 0},
		},
		{
			name:          "etcd unreadable: the last verdict stays",
			change:        func() { getErr = errors.New("connection refused") },
			wantReason:    evidence.ReasonCensusFailed,
			wantResources: map[string]int{"secrets": 0},
		},
		{
			name:       "nothing encrypted any more",
			change:     func() { getErr, targets = nil, nil },
			wantReason: evidence.ReasonNothingToVerify,
		},
	}
	for _, s := range scenarios {
		s.change()
		_ = c.Sync(context.Background(), factory.NewSyncContext("test", recorder))
		if err := testutil.GatherAndCompare(metricstest.Gatherer(t.Name()), strings.NewReader(verificationExposition(t.Name(), s.wantReason, s.wantResources)),
			"kmsguard_encryption_verification_state", "kmsguard_encryption_resource_verified"); err != nil {
			t.Errorf("%s:\n%v", s.name, err)
		}
	}
}
