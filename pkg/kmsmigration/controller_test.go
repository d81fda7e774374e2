package kmsmigration

import (
	"context"
	"errors"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	"github.com/kmsguard/kmsguard/internal/conventionstest"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

var t0 = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

// TestConditionsFor renders the Migrator's progress, typed data, into both conditions, whole: their status,
// reason and the message an admin reads.
func TestConditionsFor(t *testing.T) {
	running := Progress{Resource: secretsGR, Target: target, Total: 50000, Counts: Counts{Listed: 41300, Rewritten: 41000, Unchanged: 200}, Started: t0}
	withPause := func(p Progress, reason PauseReason, detail string) Progress {
		p.Paused, p.PauseDetail = reason, detail
		return p
	}
	finished := func(p Progress, result error) Progress {
		p.Finished, p.Result = t0.Add(time.Hour), result
		return p
	}
	const (
		runningLine      = "secrets 41200/50000 migrated (41000 rewritten, 200 already current, 0 written concurrently, 0 deleted)"
		configMapsPaused = "configmaps 0/? migrated (0 rewritten, 0 already current, 0 written concurrently, 0 deleted), paused (ErrorThresholdExceeded: 20 errors) to write key 2"
	)
	scenarios := []struct {
		name            string
		progress        []Progress
		wantProgressing operatorv1.ConditionStatus
		wantDegraded    operatorv1.ConditionStatus
		wantReason      string
		// wantProgressingReason is Progressing's reason when True; ReasonMigrating when empty.
		wantProgressingReason string
		// wantProgressingMessage and wantDegradedMessage are the whole messages.
		wantProgressingMessage, wantDegradedMessage string
	}{
		{
			name:            "nothing migrated yet",
			wantProgressing: operatorv1.ConditionFalse, wantDegraded: operatorv1.ConditionFalse, wantReason: ReasonAsExpected,
		},
		{
			name:            "running",
			progress:        []Progress{running},
			wantProgressing: operatorv1.ConditionTrue, wantDegraded: operatorv1.ConditionFalse, wantReason: ReasonAsExpected,
			wantProgressingMessage: runningLine + " to write key 2",
		},
		{
			name:            "paused for the KMS is Progressing, not Degraded",
			progress:        []Progress{withPause(running, PausedKMSUnhealthy, "plugin for key 2 unreachable on node master-0")},
			wantProgressing: operatorv1.ConditionTrue, wantProgressingReason: "PausedKMSUnhealthy", wantDegraded: operatorv1.ConditionFalse, wantReason: ReasonAsExpected,
			wantProgressingMessage: runningLine + ", paused (PausedKMSUnhealthy: plugin for key 2 unreachable on node master-0) to write key 2",
		},
		{
			name:            "paused for errors is Progressing, not Degraded",
			progress:        []Progress{withPause(running, PausedErrorThreshold, "20 errors within 1m0s")},
			wantProgressing: operatorv1.ConditionTrue, wantProgressingReason: "ErrorThresholdExceeded", wantDegraded: operatorv1.ConditionFalse, wantReason: ReasonAsExpected,
			wantProgressingMessage: runningLine + ", paused (ErrorThresholdExceeded: 20 errors within 1m0s) to write key 2",
		},
		{
			name: "the KMS pause names Progressing before the errors' pause",
			progress: []Progress{
				withPause(Progress{Resource: schema.GroupResource{Resource: "configmaps"}, Target: target}, PausedErrorThreshold, "20 errors"),
				withPause(running, PausedKMSUnhealthy, "plugin for key 2 unreachable on node master-0"),
			},
			wantProgressing: operatorv1.ConditionTrue, wantProgressingReason: "PausedKMSUnhealthy", wantDegraded: operatorv1.ConditionFalse, wantReason: ReasonAsExpected,
			wantProgressingMessage: configMapsPaused + "\n" + runningLine + ", paused (PausedKMSUnhealthy: plugin for key 2 unreachable on node master-0) to write key 2",
		},
		{
			name:            "finished clean",
			progress:        []Progress{finished(running, nil)},
			wantProgressing: operatorv1.ConditionFalse, wantDegraded: operatorv1.ConditionFalse, wantReason: ReasonAsExpected,
			wantProgressingMessage: runningLine + " to write key 2 finished 2026-12-02T13:00:00Z",
		},
		{
			name: "finished with undecryptable objects outranks a paused one",
			progress: []Progress{
				finished(Progress{Resource: secretsGR, Target: target, Counts: Counts{Undecryptable: 3}}, &UndecryptableError{Resource: secretsGR, Count: 3, Keys: []string{"/registry/secrets/a/b"}}),
				withPause(Progress{Resource: schema.GroupResource{Resource: "configmaps"}, Target: target}, PausedErrorThreshold, "20 errors"),
			},
			wantProgressing: operatorv1.ConditionTrue, wantProgressingReason: "ErrorThresholdExceeded", wantDegraded: operatorv1.ConditionTrue, wantReason: ReasonUndecryptable,
			wantProgressingMessage: configMapsPaused,
			wantDegradedMessage: "3 secrets cannot be decrypted or decoded by the apiserver and were not rewritten (first: /registry/secrets/a/b); " +
				"restore the key they were written under, or delete them with kmsguard recover",
		},
		{
			name:            "finished with failed objects",
			progress:        []Progress{finished(running, &FailedError{Resource: secretsGR, Count: 1, Keys: []string{"a/b"}})},
			wantProgressing: operatorv1.ConditionFalse, wantDegraded: operatorv1.ConditionTrue, wantReason: ReasonFailed,
			wantProgressingMessage: runningLine + " to write key 2 finished 2026-12-02T13:00:00Z",
			wantDegradedMessage:    "1 secrets could not be rewritten (first: a/b); library-go retries the migration",
		},
		{
			name:            "finished with any other error, a recovered panic for one",
			progress:        []Progress{finished(running, errors.New("panic: list bug"))},
			wantProgressing: operatorv1.ConditionFalse, wantDegraded: operatorv1.ConditionTrue, wantReason: ReasonFailed,
			wantProgressingMessage: runningLine + " to write key 2 finished 2026-12-02T13:00:00Z",
			wantDegradedMessage:    "secrets: panic: list bug",
		},
		{
			name:            "stopped by a prune is not a failure",
			progress:        []Progress{finished(running, context.Canceled)},
			wantProgressing: operatorv1.ConditionFalse, wantDegraded: operatorv1.ConditionFalse, wantReason: ReasonAsExpected,
			wantProgressingMessage: runningLine + " to write key 2 finished 2026-12-02T13:00:00Z",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			c := conditionsFor(s.progress)
			conventionstest.ExpectRegisteredReasons(t, ConditionReasons(), c.progressing, c.degraded)
			if c.progressing.Status != s.wantProgressing {
				t.Errorf("Progressing %s (%s), want %s", c.progressing.Status, c.progressing.Message, s.wantProgressing)
			}
			if want := s.wantProgressingReason; c.progressing.Status == operatorv1.ConditionTrue {
				if want == "" {
					want = ReasonMigrating
				}
				if c.progressing.Reason != want {
					t.Errorf("Progressing reason %s, want %s", c.progressing.Reason, want)
				}
			}
			if c.degraded.Status != s.wantDegraded || c.degraded.Reason != s.wantReason {
				t.Errorf("Degraded %s/%s (%s), want %s/%s", c.degraded.Status, c.degraded.Reason, c.degraded.Message, s.wantDegraded, s.wantReason)
			}
			if c.progressing.Message != s.wantProgressingMessage {
				t.Errorf("Progressing message\n%q\nwant\n%q", c.progressing.Message, s.wantProgressingMessage)
			}
			if c.degraded.Message != s.wantDegradedMessage {
				t.Errorf("Degraded message\n%q\nwant\n%q", c.degraded.Message, s.wantDegradedMessage)
			}
		})
	}
}

func TestControllerRotationMigration(t *testing.T) {
	c := apiservertest.NewStaleSecrets(2, 20)
	m := newTestMigrator(t, testOptions(t, c))
	// library-go's migration to write key 2 ran before the rotation.
	if _, err := m.Migrate(context.Background(), secretsGR, target); err != nil {
		t.Fatal(err)
	}
	started := m.Progress()[0].Started

	rotation := kmsstate.Rotation{KeyID: "2", From: "kek-a", To: "kek-b", Started: started.Add(time.Minute), Completed: started.Add(2 * time.Minute)}
	var rotations []kmsstate.Rotation
	operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)
	recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
	controller := newTestController(t, ControllerOptions{
		Migrator:       m,
		OperatorClient: operatorClient,
		Recorder:       recorder,
		WriteKeys: func(context.Context) (map[schema.GroupResource]string, error) {
			return map[schema.GroupResource]string{secretsGR: "2"}, nil
		},
		Rotations: rotationsFunc(func(keyID string) (kmsstate.Rotation, bool) {
			if keyID != "2" || len(rotations) == 0 {
				return kmsstate.Rotation{}, false
			}
			return rotations[len(rotations)-1], true
		}),
	})
	sync := func() {
		t.Helper()
		if err := controller.sync(context.Background(), factory.NewSyncContext("test", recorder)); err != nil {
			t.Fatal(err)
		}
	}
	eventCount := func(reason string) int {
		n := 0
		for _, e := range recorder.Events() {
			if e.Reason == reason {
				n++
			}
		}
		return n
	}

	sync()
	if eventCount(EventRotationMigration) != 0 || eventCount(EventFinished) != 1 {
		t.Fatalf("without a rotation: events %v", recorder.Events())
	}

	// Every object is stale again: the apiserver now reads them as written under kek-a.
	c.Lock.Lock()
	for key := range c.Stale {
		c.Stale[key] = true
	}
	c.Lock.Unlock()
	rotations = append(rotations, rotation)
	sync()
	if eventCount(EventRotationMigration) != 1 {
		t.Fatalf("the completed rotation started no migration: %v", recorder.Events())
	}
	_, _, result := waitTarget(t, m, Target{WriteKey: "2", KEKID: "kek-b"})
	p := m.Progress()[0]
	if p.Target != (Target{WriteKey: "2", KEKID: "kek-b"}) || result != nil || p.Counts.Rewritten != 40 {
		t.Fatalf("rotation migration: target %v result %v counts %+v", p.Target, result, p.Counts)
	}
	sync()
	sync()
	if eventCount(EventRotationMigration) != 1 {
		t.Errorf("the same rotation started %d migrations", eventCount(EventRotationMigration))
	}
	if eventCount(EventFinished) != 2 {
		t.Errorf("%d finish events, want one per migration", eventCount(EventFinished))
	}
	// The condition is the rendering (TestConditionsFor) of the progress, whose target is the rotation's KEK id
	// (checked above).
	_, status, _, _ := operatorClient.GetOperatorState()
	if cond, want := v1helpers.FindOperatorCondition(status.Conditions, ConditionProgressing), conditionsFor(m.Progress()).progressing; cond == nil ||
		cond.Status != operatorv1.ConditionFalse || cond.Reason != want.Reason || cond.Message != want.Message {
		t.Errorf("Progressing after the rotation migration: %+v, want %+v", cond, want)
	}

	// library-go's migration controller prunes the migration when the desired write key changes (a new key
	// waiting at the rollout gate): the rotation was migrated for all the same, and nothing starts again.
	if err := m.PruneMigration(secretsGR); err != nil {
		t.Fatal(err)
	}
	updates := c.UpdateCount()
	sync()
	sync()
	if n := eventCount(EventRotationMigration); n != 1 {
		t.Errorf("after a prune the same rotation started %d migrations, want 1", n)
	}
	if got := c.UpdateCount(); got != updates {
		t.Errorf("after a prune %d more updates were sent", got-updates)
	}
}

// TestControllerRotationAfterRestart: kmsstate remembers a completed
// rotation across restarts (kmsstate.ConfigMapMemory); a new operator
// process must not migrate for it again when the previous one finished.
func TestControllerRotationAfterRestart(t *testing.T) {
	c := apiservertest.NewStaleSecrets(1, 20)
	kube := kubefake.NewSimpleClientset()
	store := ConfigMapCheckpoints{Client: kube.CoreV1(), Namespace: "openshift-kube-apiserver-operator", Name: "kmsguard-migration"}
	rotation := kmsstate.Rotation{KeyID: "2", From: "kek-a", To: "kek-b", Started: t0.Add(-48 * time.Hour), Completed: t0.Add(-47 * time.Hour)}
	rotationTarget := Target{WriteKey: "2", KEKID: "kek-b"}

	process := func() (*Migrator, func() int) {
		opts := testOptions(t, c)
		opts.Checkpoints = store
		m := newTestMigrator(t, opts)
		recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
		controller := newTestController(t, ControllerOptions{
			Migrator:       m,
			OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
			Recorder:       recorder,
			WriteKeys: func(context.Context) (map[schema.GroupResource]string, error) {
				return map[schema.GroupResource]string{secretsGR: "2"}, nil
			},
			Rotations: rotationsFunc(func(string) (kmsstate.Rotation, bool) { return rotation, true }),
		})
		if err := controller.sync(context.Background(), factory.NewSyncContext("test", recorder)); err != nil {
			t.Fatal(err)
		}
		started := 0
		for _, e := range recorder.Events() {
			if e.Reason == EventRotationMigration {
				started++
			}
		}
		return m, func() int { return started }
	}

	first, started := process()
	if started() != 1 {
		t.Fatalf("the first process started %d rotation migrations, want 1", started())
	}
	if _, _, result := waitTarget(t, first, rotationTarget); result != nil {
		t.Fatalf("rotation migration: %v", result)
	}
	updates := c.UpdateCount()

	second, started := process()
	if started() != 0 {
		t.Errorf("the second process announced %d rotation migrations for one that had finished", started())
	}
	if p := second.Progress(); len(p) != 1 || p[0].Target != rotationTarget || p[0].Running() || p[0].Counts.Rewritten != 20 {
		t.Errorf("second process progress %v, want the finished rotation migration", p)
	}
	if n := c.UpdateCount() - updates; n != 0 {
		t.Errorf("the second process sent %d updates", n)
	}
}

func TestControllerPausedCondition(t *testing.T) {
	c := apiservertest.NewStaleSecrets(1, 20)
	opts := testOptions(t, c)
	kmsDown := errors.New("plugin for key 2 unreachable on node master-0")
	opts.KMS = kmsReaderFunc(func() (kmsstate.State, error) { return kmsstate.State{}, kmsDown })
	m := newTestMigrator(t, opts)
	operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)
	recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
	controller := newTestController(t, ControllerOptions{Migrator: m, OperatorClient: operatorClient, Recorder: recorder})
	if _, _, _, err := m.EnsureMigration(secretsGR, "2"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.PruneMigration(secretsGR) })
	if err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		return m.Progress()[0].Paused == PausedKMSUnhealthy, nil
	}); err != nil {
		t.Fatalf("the migration did not pause for the KMS within 30s: %+v", m.Progress()[0])
	}
	for i := 0; i < 2; i++ {
		if err := controller.sync(context.Background(), factory.NewSyncContext("test", recorder)); err != nil {
			t.Fatal(err)
		}
	}
	_, status, _, _ := operatorClient.GetOperatorState()
	// The pause records the KMS error, and the condition renders that progress (TestConditionsFor words it).
	if p := m.Progress()[0]; p.Paused != PausedKMSUnhealthy || p.PauseDetail != kmsDown.Error() {
		t.Fatalf("progress %+v, want paused for the KMS with its error", p)
	}
	progressing, want := v1helpers.FindOperatorCondition(status.Conditions, ConditionProgressing), conditionsFor(m.Progress()).progressing
	if progressing == nil || progressing.Status != operatorv1.ConditionTrue || progressing.Reason != string(PausedKMSUnhealthy) || progressing.Message != want.Message {
		t.Fatalf("Progressing %+v, want True/PausedKMSUnhealthy with %q", progressing, want.Message)
	}
	if degraded := v1helpers.FindOperatorCondition(status.Conditions, ConditionDegraded); degraded == nil || degraded.Status != operatorv1.ConditionFalse {
		t.Errorf("Degraded %+v, want False: a pause needs nobody to act", degraded)
	}
	paused := 0
	for _, e := range recorder.Events() {
		if e.Reason == EventPaused {
			paused++
		}
	}
	if paused != 1 {
		t.Errorf("%d pause events over two syncs, want 1", paused)
	}
	if n := c.UpdateCount(); n != 0 {
		t.Errorf("%d updates sent with the KMS down", n)
	}
}

// rotationsFunc is a RotationReader of a function.
type rotationsFunc func(keyID string) (kmsstate.Rotation, bool)

func (f rotationsFunc) LatestRotation(keyID string) (kmsstate.Rotation, bool) { return f(keyID) }
