package kmsstate

import (
	"context"
	"errors"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

// TestControllerVerdictFreshness: the Reader methods answer from an evaluation no older than MaxStateAge; an
// older one, e.g. after the controller's observe started failing, is not healthy (StateStale), has no settled
// KEK id and no Current state.
func TestControllerVerdictFreshness(t *testing.T) {
	const maxAge = 4 * interval
	healthy := []operatorv1.KMSPluginHealthReport{{NodeName: "master-0", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "kek-a"}}
	scenarios := []struct {
		name string
		keys staticKeys
		// sync says whether a sync with healthy reports runs first; after it the clock moves on by elapsed and,
		// with failingSync, a sync whose reports cannot be read runs.
		sync        bool
		elapsed     time.Duration
		failingSync bool
		want        Reason // "" for healthy
	}{
		{name: "fresh", keys: staticKeys{IDs: []string{"1"}}, sync: true, elapsed: interval},
		{name: "exactly at the bound", keys: staticKeys{IDs: []string{"1"}}, sync: true, elapsed: maxAge},
		{name: "no sync since, beyond the bound", keys: staticKeys{IDs: []string{"1"}}, sync: true, elapsed: maxAge + time.Second, want: ReasonStateStale},
		{name: "observe fails beyond the bound", keys: staticKeys{IDs: []string{"1"}}, sync: true, elapsed: maxAge + time.Second, failingSync: true, want: ReasonStateStale},
		{name: "observe fails within the bound", keys: staticKeys{IDs: []string{"1"}}, sync: true, elapsed: interval, failingSync: true},
		{name: "never evaluated", keys: staticKeys{IDs: []string{"1"}}, want: ReasonStateNotEvaluated},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			clock := clocktesting.NewFakeClock(t0)
			statusProvider := &fakeStatusProvider{}
			recorder := events.NewInMemoryRecorder("test", clock)
			c := newTestController(t, Options{
				OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
				StatusProvider: statusProvider, Nodes: staticNodes{"master-0"}, Keys: s.keys,
				Recorder: recorder, Clock: clock, MaxStateAge: maxAge,
			})
			if s.sync {
				statusProvider.reports = withCheckedTime(healthy, clock.Now())
				if err := c.sync(context.Background(), factory.NewSyncContext("test", recorder)); err != nil {
					t.Fatal(err)
				}
			}
			clock.Step(s.elapsed)
			if s.failingSync {
				statusProvider.getErr = errors.New("the operator resource cannot be read")
				if err := c.sync(context.Background(), factory.NewSyncContext("test", recorder)); err == nil {
					t.Fatal("a sync whose reports cannot be read succeeded")
				}
			}

			healthErr := c.Healthy([]string{"master-0"}, []string{"1"})
			_, currentErr := c.Current()
			kek, kekErr := c.SettledKEKID("1")
			if s.want == "" {
				if healthErr != nil || currentErr != nil || kekErr != nil || kek != "kek-a" {
					t.Fatalf("want a fresh healthy verdict, got Healthy %v, Current %v, SettledKEKID %q %v", healthErr, currentErr, kek, kekErr)
				}
				return
			}
			for what, err := range map[string]error{"Healthy": healthErr, "Current": currentErr, "SettledKEKID": kekErr} {
				var unhealthy *UnhealthyError
				if !errors.As(err, &unhealthy) || unhealthy.Reason() != s.want {
					t.Errorf("%s: got %v, want an UnhealthyError with reason %s", what, err, s.want)
				}
			}
			if kek != "" {
				t.Errorf("SettledKEKID answered %q from a verdict that is not fresh", kek)
			}
		})
	}
}

// TestControllerWithoutKMSKeysStaysFresh: a config without KMS keys is a verdict too; asking about no keys is
// answered, and it goes stale like any other.
func TestControllerWithoutKMSKeysStaysFresh(t *testing.T) {
	clock := clocktesting.NewFakeClock(t0)
	recorder := events.NewInMemoryRecorder("test", clock)
	c := newTestController(t, Options{
		OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
		StatusProvider: &fakeStatusProvider{}, Nodes: staticNodes{"master-0"}, Keys: staticKeys{},
		Recorder: recorder, Clock: clock,
	})
	if err := c.sync(context.Background(), factory.NewSyncContext("test", recorder)); err != nil {
		t.Fatal(err)
	}
	if err := c.Healthy([]string{"master-0"}, nil); err != nil {
		t.Errorf("no keys asked, fresh evaluation: %v", err)
	}
	var unhealthy *UnhealthyError
	if err := c.Healthy([]string{"master-0"}, []string{"1"}); !errors.As(err, &unhealthy) || unhealthy.Reason() != ReasonHealthReportMissing {
		t.Errorf("a key kmsstate does not watch: got %v, want HealthReportMissing", err)
	}
	clock.Step(DefaultReportInterval*staleAfterIntervals + time.Second)
	if err := c.Healthy([]string{"master-0"}, nil); !errors.As(err, &unhealthy) || unhealthy.Reason() != ReasonStateStale {
		t.Errorf("after the bound: got %v, want StateStale", err)
	}
}

// TestControllerPublishes: each evaluation is published with the verdict its conditions come from; an unchanged
// one again only after half the freshness bound, so that a reader can hold it to the same bound.
func TestControllerPublishes(t *testing.T) {
	clock := clocktesting.NewFakeClock(t0)
	statusProvider := &fakeStatusProvider{}
	recorder := events.NewInMemoryRecorder("test", clock)
	store := ConfigMapPublisher{Client: fake.NewClientset().CoreV1(), Namespace: "operator", Name: DefaultConfigMapName}
	c := newTestController(t, Options{
		OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
		StatusProvider: statusProvider, Nodes: staticNodes{"master-0"}, Keys: staticKeys{IDs: []string{"1"}},
		Recorder: recorder, Clock: clock, Memory: NewAnnotationMemory(operatorstate.NewFakeResource()), Publisher: store,
	})
	maxAge := Config{}.StaleAfter()
	report := func(status operatorv1.KMSPluginHealthStatus) {
		statusProvider.reports = []operatorv1.KMSPluginHealthReport{{NodeName: "master-0", KeyID: "1", Status: status, RemoteKeyID: "kek-a", LastCheckedTime: metav1.NewTime(clock.Now())}}
	}
	scenarios := []struct {
		name          string
		step          time.Duration
		status        operatorv1.KMSPluginHealthStatus
		wantPublished time.Time // EvaluatedAt of the published state
		wantDegraded  bool
	}{
		{name: "first evaluation", status: operatorv1.KMSPluginHealthStatusHealthy, wantPublished: t0},
		{name: "unchanged, soon after", step: interval, status: operatorv1.KMSPluginHealthStatusHealthy, wantPublished: t0},
		{name: "changed", step: interval, status: operatorv1.KMSPluginHealthStatusError, wantPublished: t0.Add(2 * interval), wantDegraded: true},
		{name: "unchanged, half the bound later", step: maxAge / 2, status: operatorv1.KMSPluginHealthStatusError, wantPublished: t0.Add(2*interval + maxAge/2), wantDegraded: true},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			clock.Step(s.step)
			report(s.status)
			if err := c.sync(context.Background(), factory.NewSyncContext("test", recorder)); err != nil {
				t.Fatal(err)
			}
			published, ok, err := store.ReadPublished(context.Background())
			if err != nil || !ok {
				t.Fatalf("nothing published: %v", err)
			}
			if !published.EvaluatedAt.Equal(s.wantPublished) {
				t.Errorf("published the evaluation of %s, want %s", published.EvaluatedAt, s.wantPublished)
			}
			if degraded, _, _ := published.Degraded(); degraded != s.wantDegraded {
				t.Errorf("published degraded=%v, want %v", degraded, s.wantDegraded)
			}
			current, _ := c.State()
			if d1, r1, _ := published.Degraded(); func() bool { d2, r2, _ := current.Degraded(); return d1 != d2 || r1 != r2 }() {
				t.Errorf("the published verdict %v/%s differs from the controller's", d1, r1)
			}
			if err := published.Fresh(clock.Now(), maxAge); err != nil {
				t.Errorf("the published state is not fresh right after a sync: %v", err)
			}
		})
	}
	if _, ok, err := (ConfigMapPublisher{Client: fake.NewClientset().CoreV1(), Namespace: "operator", Name: DefaultConfigMapName}).ReadPublished(context.Background()); ok || err != nil {
		t.Errorf("an empty cluster has a published state: %v %v", ok, err)
	}
}

func withCheckedTime(reports []operatorv1.KMSPluginHealthReport, at time.Time) []operatorv1.KMSPluginHealthReport {
	out := append([]operatorv1.KMSPluginHealthReport(nil), reports...)
	for i := range out {
		out[i].LastCheckedTime = metav1.NewTime(at)
	}
	return out
}

// TestReadFresh: a reader of the published State gets it only while it is as fresh as the Reader methods require;
// nothing published is StateNotEvaluated, an old one StateStale, and a ConfigMap that cannot be decoded is an error
// of its own, not a verdict on KMS.
func TestReadFresh(t *testing.T) {
	evaluated := time.Date(2026, 12, 8, 9, 0, 0, 0, time.UTC)
	const maxAge = 2 * time.Minute
	for _, s := range []struct {
		name       string
		data       map[string]string
		now        time.Time
		wantReason Reason
		wantOther  bool
	}{
		{name: "fresh", data: map[string]string{StateDataKey: `{"evaluatedAt":"2026-12-08T09:00:00Z"}`}, now: evaluated.Add(maxAge)},
		{name: "stale", data: map[string]string{StateDataKey: `{"evaluatedAt":"2026-12-08T09:00:00Z"}`}, now: evaluated.Add(maxAge + time.Second), wantReason: ReasonStateStale},
		{name: "nothing published", now: evaluated, wantReason: ReasonStateNotEvaluated},
		{name: "a ConfigMap without the key", data: map[string]string{"other": "x"}, now: evaluated, wantReason: ReasonStateNotEvaluated},
		{name: "undecodable", data: map[string]string{StateDataKey: "{"}, now: evaluated, wantOther: true},
	} {
		t.Run(s.name, func(t *testing.T) {
			client := fake.NewClientset()
			if s.data != nil {
				if _, err := client.CoreV1().ConfigMaps("operator").Create(context.Background(), &corev1.ConfigMap{
					ObjectMeta: metav1.ObjectMeta{Name: DefaultConfigMapName}, Data: s.data}, metav1.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			store := ConfigMapPublisher{Client: client.CoreV1(), Namespace: "operator", Name: DefaultConfigMapName}
			state, err := store.ReadFresh(context.Background(), maxAge, s.now)
			var unhealthy *UnhealthyError
			switch {
			case s.wantOther:
				if err == nil || errors.As(err, &unhealthy) {
					t.Fatalf("ReadFresh = %v, want an error that is no UnhealthyError", err)
				}
			case s.wantReason != "":
				if !errors.As(err, &unhealthy) || len(unhealthy.Failures) != 1 || unhealthy.Failures[0].Reason != s.wantReason {
					t.Fatalf("ReadFresh = %v, want an UnhealthyError %s", err, s.wantReason)
				}
			default:
				if err != nil || !state.EvaluatedAt.Equal(evaluated) {
					t.Fatalf("ReadFresh = %+v, %v, want the state evaluated at %s", state, err, evaluated)
				}
			}
		})
	}
}
