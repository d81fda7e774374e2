package evidence_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	clientv3 "go.etcd.io/etcd/client/v3"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/conventionstest"
	"github.com/kmsguard/kmsguard/internal/etcdtest"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
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

// TestCensusWaitsForKMSStateAfterAStart: right after the operator starts, kmsstate has not evaluated yet and no KMS
// v2 write key's KEK id is known. The census waits for it, as a wait and not a failure: the previous process's
// KMSEncryptionVerified stays, nothing is Degraded, no event, and the census is tried again shortly. Anything more
// than that (a stale verdict, a failure besides it) is a failed census as before.
func TestCensusWaitsForKMSStateAfterAStart(t *testing.T) {
	defer evidence.SetNotEvaluatedRetry(time.Millisecond)()
	notEvaluated := kmsstate.Failure{Reason: kmsstate.ReasonStateNotEvaluated, Detail: "kmsstate has not evaluated any report yet"}
	stale := kmsstate.Failure{Reason: kmsstate.ReasonStateStale, Detail: "kmsstate's latest evaluation is from ..."}
	for _, s := range []struct {
		name     string
		failures []kmsstate.Failure
		wait     bool
	}{
		{name: "not evaluated yet", failures: []kmsstate.Failure{notEvaluated}, wait: true},
		{name: "a stale verdict", failures: []kmsstate.Failure{stale}},
		{name: "not evaluated, and another failure", failures: []kmsstate.Failure{notEvaluated, stale}},
	} {
		t.Run(s.name, func(t *testing.T) {
			proven := operatorv1.OperatorCondition{Type: evidence.ConditionVerified, Status: operatorv1.ConditionTrue, Reason: evidence.ReasonVerified,
				Message: "secrets: 2/2 under kms-v2:1_secrets:kek-b"}
			operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{Conditions: []operatorv1.OperatorCondition{proven}}, nil)
			recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
			targetsErr := fmt.Errorf("the write key of secrets: KMS key 1 (provider 1_secrets): %w", &kmsstate.UnhealthyError{Failures: s.failures})
			c := newTestCensusController(t, "test", evidence.CensusControllerOptions{
				Census:         evidence.NewCensus(etcdtest.NewKV(), evidence.CensusOptions{}),
				Targets:        func(context.Context) ([]evidence.Target, error) { return nil, targetsErr },
				OperatorClient: operatorClient,
				Recorder:       recorder,
			})
			syncCtx := factory.NewSyncContext("test", recorder)
			err := c.Sync(context.Background(), syncCtx)
			_, status, _, _ := operatorClient.GetOperatorState()
			verified := v1helpers.FindOperatorCondition(status.Conditions, evidence.ConditionVerified)
			degraded := v1helpers.FindOperatorCondition(status.Conditions, evidence.ConditionCensusControllerDegraded)
			if !s.wait {
				if err == nil || verified == nil || verified.Status != operatorv1.ConditionUnknown || degraded == nil || degraded.Status != operatorv1.ConditionTrue {
					t.Fatalf("sync error %v, %+v, %+v: want a failed census (Unknown, Degraded)", err, verified, degraded)
				}
				return
			}
			if err != nil {
				t.Fatalf("sync error %v, want a wait", err)
			}
			if verified == nil || *verified != proven {
				t.Errorf("%s %+v, want the previous process's %+v", evidence.ConditionVerified, verified, proven)
			}
			if degraded != nil && degraded.Status == operatorv1.ConditionTrue {
				t.Errorf("%s %+v while kmsstate had not evaluated yet", evidence.ConditionCensusControllerDegraded, degraded)
			}
			if events := recorder.Events(); len(events) != 0 {
				t.Errorf("events %v, want none", events)
			}
			deadline := time.Now().Add(10 * time.Second)
			for syncCtx.Queue().Len() == 0 {
				if time.Now().After(deadline) {
					t.Fatal("the census was not queued again")
				}
				time.Sleep(5 * time.Millisecond)
			}
		})
	}
}

// TestCensusWaitsForTheOperatorResourcesCache: the census reads the latest available revision from the operator
// resource's informer, so it does not run before that cache has synced; a restarted operator would otherwise read
// the resource as not found and report the census Degraded.
func TestCensusWaitsForTheOperatorResourcesCache(t *testing.T) {
	synced := make(chan struct{})
	operatorClient := operatorClientWithInformer{
		OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
		informer:       unsyncedInformer{SharedIndexInformer: v1helpers.NewFakeSharedIndexInformer(), synced: synced},
	}
	censuses := make(chan struct{}, 10)
	c := newTestCensusController(t, "test", evidence.CensusControllerOptions{
		Census: evidence.NewCensus(etcdtest.NewKV(), evidence.CensusOptions{}),
		Targets: func(context.Context) ([]evidence.Target, error) {
			censuses <- struct{}{}
			return nil, nil
		},
		OperatorClient: operatorClient,
		Recorder:       events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0)),
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx, 1)
	select {
	case <-censuses:
		t.Fatal("a census ran before the operator resource's cache synced")
	case <-time.After(500 * time.Millisecond):
	}
	close(synced)
	select {
	case <-censuses:
	case <-time.After(30 * time.Second):
		t.Fatal("no census after the operator resource's cache synced")
	}
}

// operatorClientWithInformer is an operator client with the informer given.
type operatorClientWithInformer struct {
	v1helpers.OperatorClient
	informer cache.SharedIndexInformer
}

func (c operatorClientWithInformer) Informer() cache.SharedIndexInformer { return c.informer }

// unsyncedInformer is an informer whose cache syncs once synced is closed.
type unsyncedInformer struct {
	cache.SharedIndexInformer
	synced chan struct{}
}

func (i unsyncedInformer) HasSynced() bool {
	select {
	case <-i.synced:
		return true
	default:
		return false
	}
}
