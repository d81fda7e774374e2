package kmsstate

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

var errServerDown = apierrors.NewServiceUnavailable("etcd is down")

// operatorProcess is one run of the operator: a Controller with its own in-process state, on a shared store.
type operatorProcess struct {
	t          *testing.T
	controller *Controller
	reports    *fakeStatusProvider
	recorder   events.InMemoryRecorder
	clock      *clocktesting.FakeClock
}

func startOperator(t *testing.T, store MemoryStore, now time.Time) *operatorProcess {
	clock := clocktesting.NewFakeClock(now)
	p := &operatorProcess{t: t, reports: &fakeStatusProvider{}, recorder: events.NewInMemoryRecorder("test", clock), clock: clock}
	p.controller = newTestController(t, Options{
		OperatorClient: &recordingOperatorClient{OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)},
		StatusProvider: p.reports, Nodes: staticNodes{"master-0", "master-1"}, Keys: staticKeys{IDs: []string{"1"}},
		Recorder: p.recorder, Clock: clock, Memory: store,
	})
	return p
}

// sync evaluates reports as of the process clock; the reports are 10 s old then.
func (p *operatorProcess) sync(keks ...string) error {
	p.t.Helper()
	p.reports.reports = nil
	for i, kek := range keks {
		r := healthy([]string{"master-0", "master-1"}[i], "1", kek)
		r.LastCheckedTime = metav1.NewTime(p.clock.Now().Add(-10 * time.Second))
		p.reports.reports = append(p.reports.reports, r)
	}
	return p.controller.sync(context.Background(), factory.NewSyncContext("test", p.recorder))
}

func (p *operatorProcess) mustSync(keks ...string) {
	p.t.Helper()
	if err := p.sync(keks...); err != nil {
		p.t.Fatal(err)
	}
}

func (p *operatorProcess) events(reason string) []string {
	var messages []string
	for _, e := range p.recorder.Events() {
		if e.Reason == reason {
			messages = append(messages, e.Message)
		}
	}
	return messages
}

func TestMemorySurvivesRestart(t *testing.T) {
	scenarios := []struct {
		name string
		// before is what the plugins of master-0 and master-1 report to the first process, after to the second.
		before, after [2]string
		persist       bool
		// wantCompleted is the rotation the second process reports as completed; nil means none.
		wantCompleted *Rotation
		// wantInProgress is the rotation the second process reports in progress; nil means none.
		wantInProgress *Rotation
	}{
		{
			name:          "a rotation completed while no operator ran",
			before:        [2]string{"kek-a", "kek-a"},
			after:         [2]string{"kek-b", "kek-b"},
			persist:       true,
			wantCompleted: &Rotation{KeyID: "1", From: "kek-a", To: "kek-b", Started: t0.Add(time.Hour), Completed: t0.Add(time.Hour)},
		},
		{
			// Without a store the second process settles on kek-b and the rotation is never seen: what the
			// store is for.
			name:    "without a store the rotation is missed",
			before:  [2]string{"kek-a", "kek-a"},
			after:   [2]string{"kek-b", "kek-b"},
			persist: false,
		},
		{
			name:           "a rotation in progress keeps its start and origin",
			before:         [2]string{"kek-b", "kek-a"},
			after:          [2]string{"kek-b", "kek-a"},
			persist:        true,
			wantInProgress: &Rotation{KeyID: "1", From: "kek-a", To: "kek-b", Started: t0, Pending: []string{"master-1"}},
		},
		{
			name:          "a rotation in progress completes after the restart",
			before:        [2]string{"kek-b", "kek-a"},
			after:         [2]string{"kek-b", "kek-b"},
			persist:       true,
			wantCompleted: &Rotation{KeyID: "1", From: "kek-a", To: "kek-b", Started: t0, Completed: t0.Add(time.Hour)},
		},
		{
			name:    "no change, no rotation",
			before:  [2]string{"kek-a", "kek-a"},
			after:   [2]string{"kek-a", "kek-a"},
			persist: true,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			var store MemoryStore
			if s.persist {
				store = NewAnnotationMemory(operatorstate.NewFakeResource())
			}
			first := startOperator(t, store, t0)
			// The first sync settles on kek-a with nothing to compare it with; the rotation scenarios then see
			// one node move to kek-b.
			first.mustSync("kek-a", "kek-a")
			first.mustSync(s.before[0], s.before[1])

			second := startOperator(t, store, t0.Add(time.Hour))
			second.mustSync(s.after[0], s.after[1])
			state, _ := second.controller.State()

			completed, ok := state.LatestRotation("1")
			switch {
			case s.wantCompleted == nil && ok:
				t.Errorf("completed rotation %+v, want none", completed)
			case s.wantCompleted != nil && (!ok || !sameRotation(completed, *s.wantCompleted)):
				t.Errorf("completed rotation %+v (found %v), want %+v", completed, ok, *s.wantCompleted)
			}
			if rotated := second.events(EventKeyRotated); (s.wantCompleted != nil) != (len(rotated) == 1) || len(rotated) > 1 {
				t.Errorf("%s events %q", EventKeyRotated, rotated)
			}
			switch {
			case s.wantInProgress == nil && len(state.Rotations) > 0:
				t.Errorf("rotations in progress %+v, want none", state.Rotations)
			case s.wantInProgress != nil && (len(state.Rotations) != 1 || !sameRotation(state.Rotations[0], *s.wantInProgress)):
				t.Errorf("rotations in progress %+v, want %+v", state.Rotations, *s.wantInProgress)
			}
		})
	}
}

func TestMemoryWrittenOnChangeOnly(t *testing.T) {
	resource := operatorstate.NewFakeResource()
	p := startOperator(t, NewAnnotationMemory(resource), t0)
	writes := resource.Writes
	p.mustSync("kek-a", "kek-a")
	if got := writes(); got != 1 {
		t.Fatalf("%d writes after the first sync, want 1", got)
	}
	for range 3 {
		p.clock.Step(time.Minute)
		p.mustSync("kek-a", "kek-a")
	}
	if got := writes(); got != 1 {
		t.Errorf("%d writes after syncs that learned nothing, want 1", got)
	}
	p.mustSync("kek-b", "kek-a")
	if got := writes(); got != 2 {
		t.Errorf("%d writes after a rotation started, want 2", got)
	}
}

func TestMemoryStoreFailures(t *testing.T) {
	t.Run("undecodable memory is replaced, with a warning", func(t *testing.T) {
		resource := operatorstate.NewFakeResource()
		store := NewAnnotationMemory(resource)
		if err := resource.ApplyAnnotations(context.Background(), "an admin", map[string]string{
			operatorstate.AnnotationPrefix + MemoryStoreName: `{"settledKEK": ["not", "a", "map"]`,
		}); err != nil {
			t.Fatal(err)
		}
		// What the operator finds: a corrupt Memory, located at its annotation.
		_, loadErr := store.Load(context.Background())
		var corrupt *CorruptMemoryError
		if !errors.As(loadErr, &corrupt) || corrupt.Where != "annotation kmsguard.openshift.io/kek-memory of the fake operator resource" {
			t.Fatalf("Load = %v, want a CorruptMemoryError located at the annotation", loadErr)
		}
		p := startOperator(t, store, t0)
		p.mustSync("kek-a", "kek-a")
		if warnings, want := p.events(EventMemoryDiscarded), []string{memoryDiscardedMessage(loadErr)}; !reflect.DeepEqual(warnings, want) {
			t.Errorf("%s events %q, want %q", EventMemoryDiscarded, warnings, want)
		}
		m, err := store.Load(context.Background())
		if err != nil || m.settledKEK["1"] != "kek-a" {
			t.Errorf("stored memory %+v (%v), want kek-a settled for key 1", m, err)
		}
	})

	t.Run("an unreadable store does not hold the verdict, and is read once it can be", func(t *testing.T) {
		resource := operatorstate.NewFakeResource()
		first := startOperator(t, NewAnnotationMemory(resource), t0)
		first.mustSync("kek-a", "kek-a")

		// The next operator starts in the middle of a rotation from kek-a to kek-b while its memory cannot be
		// read (the apiserver it asks is overloaded by the KMS outage).
		store := &unreadableMemory{MemoryStore: NewAnnotationMemory(resource),
			loadErr: apierrors.NewServiceUnavailable("the server is currently unable to handle the request")}
		second := startOperator(t, store, t0.Add(time.Hour))
		for _, keks := range [][]string{{"kek-b", "kek-a"}, {"kek-b", "kek-b"}} {
			second.clock.Step(time.Minute)
			if err := second.sync(keks...); err == nil || !strings.Contains(err.Error(), "unable to handle the request") {
				t.Errorf("sync error %v, want the store's", err)
			}
		}
		if _, ok := second.controller.State(); !ok {
			t.Fatalf("no evaluation while the memory could not be read")
		}
		if applied := second.controller.options.OperatorClient.(*recordingOperatorClient).applied; len(applied) != 2 {
			t.Errorf("%d condition applies while the memory could not be read, want one a sync", len(applied))
		}
		// Plugin health does not wait for the memory: after a destroyed KEK took it, kmsrecovery needs this
		// verdict to delete it.
		if err := second.controller.Healthy([]string{"master-0", "master-1"}, []string{"1"}); err != nil {
			t.Errorf("Healthy() = %v without the memory, want the plugins' health", err)
		}
		if r, ok := second.controller.LatestRotation("1"); ok {
			t.Errorf("LatestRotation = %+v without the memory", r)
		}
		if store.saves != 0 {
			t.Errorf("the unread memory was written over %d times", store.saves)
		}
		if rotated := second.events(EventKeyRotated); len(rotated) != 0 {
			t.Errorf("%s events %q without the memory, want none until it is read", EventKeyRotated, rotated)
		}

		// The KMS is back: the stored memory replaces what the process learnt meanwhile, and the rotation from
		// kek-a, which completed while it could not be read, is reported once.
		store.loadErr = nil
		second.clock.Step(time.Minute)
		second.mustSync("kek-b", "kek-b")
		if r, ok := second.controller.LatestRotation("1"); !ok || r.From != "kek-a" || r.To != "kek-b" {
			t.Errorf("LatestRotation = %+v (found %v), want kek-a to kek-b", r, ok)
		}
		if rotated := second.events(EventKeyRotated); len(rotated) != 1 {
			t.Errorf("%s events %q, want one", EventKeyRotated, rotated)
		}
		if store.saves != 1 {
			t.Errorf("%d saves once the memory was read, want 1", store.saves)
		}
	})

	t.Run("a failed save is retried on the next sync", func(t *testing.T) {
		resource := operatorstate.NewFakeResource()
		resource.FailWrites(errServerDown)
		store := NewAnnotationMemory(resource)
		p := startOperator(t, store, t0)
		if err := p.sync("kek-a", "kek-a"); err == nil {
			t.Errorf("a failed save was not reported")
		}
		resource.FailWrites(nil)
		p.mustSync("kek-a", "kek-a")
		m, err := store.Load(context.Background())
		if err != nil || m.settledKEK["1"] != "kek-a" {
			t.Errorf("stored memory %+v (%v) after the retry, want kek-a settled", m, err)
		}
	})
}

// unreadableMemory is a MemoryStore that cannot be read while loadErr is set, as an encrypted ConfigMap while
// the KMS is down, and counts its saves.
type unreadableMemory struct {
	MemoryStore
	loadErr error
	saves   int
}

func (m *unreadableMemory) Load(ctx context.Context) (Memory, error) {
	if m.loadErr != nil {
		return Memory{}, m.loadErr
	}
	return m.MemoryStore.Load(ctx)
}

func (m *unreadableMemory) Save(ctx context.Context, memory Memory) error {
	m.saves++
	return m.MemoryStore.Save(ctx, memory)
}

// TestMemoryFitsItsStore: a Memory of a cluster that rotated through many keys, each with three nodes pending,
// stays within what a store keeps; the oldest completed rotations are forgotten.
func TestMemoryFitsItsStore(t *testing.T) {
	prev := Memory{settledKEK: map[string]string{}, rotations: map[string]Rotation{}, disagreeSince: map[string]time.Time{}, lastCompleted: map[string]Rotation{}}
	kek := strings.Repeat("k", 200)
	for i := range 100 {
		key := strconv.Itoa(i)
		prev.settledKEK[key] = kek
		prev.lastCompleted[key] = Rotation{KeyID: key, From: kek, To: kek, Started: t0, Completed: t0.Add(time.Duration(i) * time.Hour)}
	}
	obs := Observation{Now: t0.Add(200 * time.Hour), Nodes: []string{"master-0"}, KeyIDs: []string{"99"}}
	_, next := Evaluate(Config{}, prev, obs)
	if n := len(next.lastCompleted); n != maxCompletedRotations {
		t.Fatalf("%d completed rotations kept, want %d", n, maxCompletedRotations)
	}
	if _, ok := next.lastCompleted["99"]; !ok {
		t.Errorf("the newest completed rotation was forgotten")
	}
	if _, ok := next.lastCompleted["0"]; ok {
		t.Errorf("the oldest completed rotation was kept")
	}
	if err := NewAnnotationMemory(operatorstate.NewFakeResource()).Save(t.Context(), next); err != nil {
		t.Errorf("saving the bounded memory: %v", err)
	}
}

// TestPublishedStateCannotBeWritten: the published verdict is a ConfigMap the failing KMS encrypts. While it can be
// neither read nor written, the conditions are applied from the evaluation all the same (before the publish is
// tried), the memory on the operator resource is saved, and the sync returns the publish's error, which is tried
// again on the next sync.
func TestPublishedStateCannotBeWritten(t *testing.T) {
	kube := fake.NewClientset()
	apiservertest.FailEncrypted(kube, "configmaps")
	resource := operatorstate.NewFakeResource()
	clock := clocktesting.NewFakeClock(t0)
	reports := &fakeStatusProvider{reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "kek-a"), healthy("master-1", "1", "kek-a")}}
	operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}, &operatorv1.OperatorStatus{}, nil)
	recorder := events.NewInMemoryRecorder("test", clock)
	c := newTestController(t, Options{
		OperatorClient: operatorClient, StatusProvider: reports, Nodes: staticNodes{"master-0", "master-1"}, Keys: staticKeys{IDs: []string{"1"}},
		Recorder: recorder, Clock: clock, Memory: NewAnnotationMemory(resource),
		Publisher: ConfigMapPublisher{Client: kube.CoreV1(), Namespace: "operator", Name: DefaultConfigMapName, Recorder: recorder},
	})
	err := c.sync(t.Context(), factory.NewSyncContext("test", recorder))
	if !apierrors.IsInternalError(err) {
		t.Fatalf("sync = %v, want the publish's encrypt error", err)
	}
	_, status, _, _ := operatorClient.GetOperatorState()
	if cond := v1helpers.FindOperatorCondition(status.Conditions, ConditionKMSPluginsDegraded); cond == nil || cond.Status != operatorv1.ConditionFalse || cond.Reason != ReasonAsExpected {
		t.Errorf("%s = %+v, want False %s from the evaluation", ConditionKMSPluginsDegraded, cond, ReasonAsExpected)
	}
	if kek, err := c.SettledKEKID("1"); err != nil || kek != "kek-a" {
		t.Errorf("SettledKEKID = %q, %v; want kek-a", kek, err)
	}
	if resource.Writes() != 1 {
		t.Errorf("%d memory writes, want the memory saved once", resource.Writes())
	}
}
