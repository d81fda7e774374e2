package evidence_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	clientv3 "go.etcd.io/etcd/client/v3"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/conventionstest"
	"github.com/kmsguard/kmsguard/internal/etcdtest"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
)

func TestCensusController(t *testing.T) {
	writeKey := evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: "1_secrets", KEKID: "kek-b"}
	secrets := evidence.Target{Resources: []evidence.Resource{evidence.BuiltInResource(evidence.DefaultEtcdPrefix, secretsGR)}, WriteKey: writeKey}
	scenarios := []struct {
		name       string
		values     map[string][]byte
		targets    []evidence.Target
		targetsErr error
		// getErr fails every etcd read; hang makes every etcd read wait for the census's deadline.
		getErr     error
		hang       bool
		want       operatorv1.ConditionStatus
		wantReason string
		wantEvent  string
		// wantErr is what the sync's error wraps; nil for a sync that succeeds.
		wantErr error
		// wantCounts are the report's counts of the one target, nil when no report is kept.
		wantCounts *resourceCounts
	}{
		{
			name: "every secret under the write key",
			values: map[string][]byte{
				"/registry/secrets/a/one": etcdtest.KMSv2Value("1_secrets", "kek-b"),
				"/registry/secrets/b/two": etcdtest.KMSv2Value("1_secrets", "kek-b"),
			},
			targets: []evidence.Target{secrets},
			want:    operatorv1.ConditionTrue, wantReason: evidence.ReasonVerified, wantEvent: "KMSEncryptionVerified",
			wantCounts: &resourceCounts{Total: 2, UnderWriteKey: 2},
		},
		{
			name: "one secret under the old key_id, one still aescbc",
			values: map[string][]byte{
				"/registry/secrets/a/one":   etcdtest.KMSv2Value("1_secrets", "kek-b"),
				"/registry/secrets/a/old":   etcdtest.KMSv2Value("1_secrets", "kek-a"),
				"/registry/secrets/b/older": etcdtest.AESCBCValue("key1"),
			},
			targets: []evidence.Target{secrets},
			want:    operatorv1.ConditionFalse, wantReason: evidence.ReasonNotVerified, wantEvent: "KMSEncryptionNotVerified",
			wantCounts: &resourceCounts{Total: 3, UnderWriteKey: 1, NotUnderWriteKey: 2, Listed: []string{"/registry/secrets/a/old", "/registry/secrets/b/older"}},
		},
		{
			name:    "nothing encrypted",
			targets: nil,
			want:    operatorv1.ConditionFalse, wantReason: evidence.ReasonNothingToVerify, wantEvent: "KMSEncryptionNotVerified",
		},
		{
			name:       "write keys unreadable",
			targetsErr: errKEKIDNotObserved,
			want:       operatorv1.ConditionUnknown, wantReason: evidence.ReasonCensusFailed, wantEvent: "KMSEncryptionNotVerified", wantErr: errKEKIDNotObserved,
		},
		{
			name:    "etcd unreadable",
			values:  map[string][]byte{"/registry/secrets/a/one": etcdtest.KMSv2Value("1_secrets", "kek-b")},
			targets: []evidence.Target{secrets},
			getErr:  errEtcdRefused,
			want:    operatorv1.ConditionUnknown, wantReason: evidence.ReasonCensusFailed, wantEvent: "KMSEncryptionNotVerified", wantErr: errEtcdRefused,
		},
		{
			name:    "etcd hangs past the census's deadline",
			values:  map[string][]byte{"/registry/secrets/a/one": etcdtest.KMSv2Value("1_secrets", "kek-b")},
			targets: []evidence.Target{secrets},
			hang:    true,
			want:    operatorv1.ConditionUnknown, wantReason: evidence.ReasonCensusDeadlineExceeded, wantEvent: "KMSEncryptionNotVerified", wantErr: context.DeadlineExceeded,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kv := etcdtest.NewKV()
			for key, value := range s.values {
				kv.Store(key, value)
			}
			kv.BeforeGet = func(int, clientv3.Op) error { return s.getErr }
			var etcd clientv3.KV = kv
			if s.hang {
				etcd = hangingKV{kv}
			}
			operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)
			recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
			c := newTestCensusController(t, "test", evidence.CensusControllerOptions{
				Census:         evidence.NewCensus(etcd, evidence.CensusOptions{Counter: newStoreCounter(kv)}),
				Targets:        func(context.Context) ([]evidence.Target, error) { return s.targets, s.targetsErr },
				OperatorClient: operatorClient,
				Recorder:       recorder,
				// A deadline that only a hanging etcd reaches: every other read answers at once.
				Timeout: map[bool]time.Duration{true: time.Millisecond, false: time.Hour}[s.hang],
			})
			err := c.Sync(context.Background(), factory.NewSyncContext("test", recorder))
			if (err != nil) != (s.wantErr != nil) || (s.wantErr != nil && !errors.Is(err, s.wantErr)) {
				t.Fatalf("sync error %v, want %v", err, s.wantErr)
			}
			_, status, _, _ := operatorClient.GetOperatorState()
			conventionstest.ExpectRegisteredReasons(t, evidence.ConditionReasons(), status.Conditions...)
			cond := v1helpers.FindOperatorCondition(status.Conditions, evidence.ConditionVerified)
			if cond == nil || cond.Status != s.want || cond.Reason != s.wantReason {
				t.Fatalf("condition %+v, want %s/%s", cond, s.want, s.wantReason)
			}
			if events := recorder.Events(); len(events) != 1 || events[0].Reason != s.wantEvent {
				t.Errorf("events %v, want one %s", events, s.wantEvent)
			}
			var got *resourceCounts
			if reports := c.Reports(); len(reports) == 1 && len(reports[0].Resources) == 1 {
				r := reports[0].Resources[0]
				got = &resourceCounts{Total: r.Total, UnderWriteKey: r.UnderWriteKey, NotUnderWriteKey: r.NotUnderWriteKey, Listed: r.NotUnderWriteKeyListed}
			} else if len(reports) != 0 {
				t.Fatalf("%d reports kept, want at most one of one resource", len(reports))
			}
			if diff := cmp.Diff(s.wantCounts, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("kept report (-want +got):\n%s", diff)
			}
			// A second sync with the same result emits nothing new.
			_ = c.Sync(context.Background(), factory.NewSyncContext("test", recorder))
			if n := len(recorder.Events()); n != 1 {
				t.Errorf("%d events after an unchanged sync", n)
			}
		})
	}
}

// resourceCounts are the counts of a census report of one resource that the condition's message is made of.
type resourceCounts struct {
	Total, UnderWriteKey, NotUnderWriteKey int64
	Listed                                 []string
}

var (
	errKEKIDNotObserved = errors.New("plugin key_id not observed yet")
	errEtcdRefused      = errors.New("dial tcp 10.0.0.1:2379: connect: connection refused")
)

// hangingKV is an etcd that never answers: each read waits for the caller's context.
type hangingKV struct{ clientv3.KV }

func (hangingKV) Get(ctx context.Context, _ string, _ ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}
