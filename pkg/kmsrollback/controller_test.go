package kmsrollback

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

// Revision 4 ran KMS key 1; revision 5 adds key 2 as the write key.
var (
	goodConfig   = ectest.Secrets(ectest.KMS("1"), ectest.Identity())
	failedConfig = ectest.Secrets(ectest.KMS("2"), ectest.KMS("1"), ectest.Identity())
)

// TestAttributionAndRevert syncs once per scenario and checks the verdict's every output: the condition, the
// write of the desired encryption config, the Hold and the events. The verdict itself is compared as typed data;
// TestConditionRendering says how the condition puts it in words.
func TestAttributionAndRevert(t *testing.T) {
	failedOn := func(source FailureSource) []NodeFailure {
		return []NodeFailure{{Node: "master-0", Revision: 5, LastGood: 4, Source: source}}
	}
	scenarios := []struct {
		name     string
		status   *operatorv1.StaticPodOperatorStatus
		revision map[int32]*apiserverv1.EncryptionConfiguration
		health   *health

		wantStatus operatorv1.ConditionStatus
		wantReason Reason
		// wantVerdict is attribute's verdict, nil when nothing failed; hashes and the rollout's and the reports'
		// details are not compared.
		wantVerdict Verdict
		// wantReverted: the desired config is revision 4's and a Hold for revision 5 is stored.
		wantReverted bool
		wantEvents   []string
	}{
		{
			name:       "converged, nothing failed",
			status:     convergedStatus(4),
			revision:   map[int32]*apiserverv1.EncryptionConfiguration{4: goodConfig},
			health:     newHealth([]string{"1"}, healthy("master-0", "1"), healthy("master-1", "1")),
			wantStatus: operatorv1.ConditionFalse, wantReason: ReasonAsExpected,
		},
		{
			name:       "new KMS key unreachable on the failed node: reverted",
			status:     failedStatus(5, 4),
			revision:   map[int32]*apiserverv1.EncryptionConfiguration{4: goodConfig, 5: failedConfig},
			health:     newHealth([]string{"1", "2"}, healthy("master-0", "1"), healthy("master-1", "1"), unreachable("master-0", "2"), healthy("master-1", "2")),
			wantStatus: operatorv1.ConditionTrue, wantReason: ReasonRevertedFailingKMSConfig,
			wantVerdict: &KMSRolloutFailedError{Revision: 5, LastGood: 4, Nodes: []string{"master-0"}, KeyIDs: []string{"2"},
				Failures: []kmsstate.Failure{{Reason: kmsstate.ReasonPluginUnreachable, Node: "master-0", KeyID: "2"}}, Rollout: failedOn(SourceStartupMonitor)},
			wantReverted: true,
			wantEvents:   []string{EventReverted},
		},
		{
			name:     "pod failure seen by the installer without the startup monitor: reverted",
			status:   withReason(failedStatus(5, 4), "OperandFailed"),
			revision: map[int32]*apiserverv1.EncryptionConfiguration{4: goodConfig, 5: failedConfig},
			health: newHealth([]string{"1", "2"}, healthy("master-0", "1"), healthy("master-1", "1"),
				report("master-0", "2", operatorv1.KMSPluginHealthStatusUnhealthy, "healthz: key disabled"), healthy("master-1", "2")),
			wantStatus: operatorv1.ConditionTrue, wantReason: ReasonRevertedFailingKMSConfig,
			wantVerdict: &KMSRolloutFailedError{Revision: 5, LastGood: 4, Nodes: []string{"master-0"}, KeyIDs: []string{"2"},
				Failures: []kmsstate.Failure{{Reason: kmsstate.ReasonPluginUnhealthy, Node: "master-0", KeyID: "2"}}, Rollout: failedOn(SourceOperandFailed)},
			wantReverted: true,
			wantEvents:   []string{EventReverted},
		},
		{
			name:       "revision without a KMS change failed while a KMS plugin is down: not ours",
			status:     failedStatus(5, 4),
			revision:   map[int32]*apiserverv1.EncryptionConfiguration{4: goodConfig, 5: ectest.WithConfigMaps(ectest.Secrets(ectest.KMS("1"), ectest.Identity()), ectest.AESCBC("1", ectest.AESKeyA))},
			health:     newHealth([]string{"1"}, unreachable("master-0", "1"), healthy("master-1", "1")),
			wantStatus: operatorv1.ConditionFalse, wantReason: ReasonFailureNotAttributedToKMS,
			wantVerdict: &NotAttributedError{Revision: 5, Rollout: failedOn(SourceStartupMonitor), cause: causeNoKMSChange},
		},
		{
			name:       "KMS change failed while its plugins are healthy: not ours",
			status:     failedStatus(5, 4),
			revision:   map[int32]*apiserverv1.EncryptionConfiguration{4: goodConfig, 5: failedConfig},
			health:     newHealth([]string{"1", "2"}, healthy("master-0", "1"), healthy("master-1", "1"), healthy("master-0", "2"), healthy("master-1", "2")),
			wantStatus: operatorv1.ConditionFalse, wantReason: ReasonFailureNotAttributedToKMS,
			wantVerdict: &NotAttributedError{Revision: 5, Rollout: failedOn(SourceStartupMonitor), cause: causeNoKMSFault},
		},
		{
			name:       "KMS change failed, new key failing on another node only: not ours",
			status:     failedStatus(5, 4),
			revision:   map[int32]*apiserverv1.EncryptionConfiguration{4: goodConfig, 5: failedConfig},
			health:     newHealth([]string{"1", "2"}, healthy("master-0", "1"), healthy("master-1", "1"), healthy("master-0", "2"), unreachable("master-1", "2")),
			wantStatus: operatorv1.ConditionFalse, wantReason: ReasonFailureNotAttributedToKMS,
			wantVerdict: &NotAttributedError{Revision: 5, Rollout: failedOn(SourceStartupMonitor), cause: causeNoKMSFault},
		},
		{
			name:       "KMS change failed, no health report for the new key: no evidence, not ours",
			status:     failedStatus(5, 4),
			revision:   map[int32]*apiserverv1.EncryptionConfiguration{4: goodConfig, 5: failedConfig},
			health:     newHealth([]string{"1", "2"}, healthy("master-0", "1"), healthy("master-1", "1")),
			wantStatus: operatorv1.ConditionFalse, wantReason: ReasonFailureNotAttributedToKMS,
			wantVerdict: &NotAttributedError{Revision: 5, Rollout: failedOn(SourceStartupMonitor), cause: causeNoKMSFault},
		},
		{
			name:       "an unchanged KMS key failing does not make the new key's revision ours",
			status:     failedStatus(5, 4),
			revision:   map[int32]*apiserverv1.EncryptionConfiguration{4: goodConfig, 5: failedConfig},
			health:     newHealth([]string{"1", "2"}, unreachable("master-0", "1"), healthy("master-1", "1"), healthy("master-0", "2"), healthy("master-1", "2")),
			wantStatus: operatorv1.ConditionFalse, wantReason: ReasonFailureNotAttributedToKMS,
			wantVerdict: &NotAttributedError{Revision: 5, Rollout: failedOn(SourceStartupMonitor), cause: causeNoKMSFault},
		},
		{
			name:       "installer pod failed: the apiserver never ran, not ours",
			status:     withReason(failedStatus(5, 4), "InstallerFailed"),
			revision:   map[int32]*apiserverv1.EncryptionConfiguration{4: goodConfig, 5: failedConfig},
			health:     newHealth([]string{"1", "2"}, unreachable("master-0", "2")),
			wantStatus: operatorv1.ConditionFalse, wantReason: ReasonFailureNotAttributedToKMS,
			wantVerdict: &NotAttributedError{Revision: 5, Rollout: failedOn(SourceInstallerFailed), cause: causeInstallerFailed},
		},
		{
			name: "a failure superseded by a newer revision is over",
			status: func() *operatorv1.StaticPodOperatorStatus {
				s := failedStatus(5, 4)
				s.LatestAvailableRevision = 6
				return s
			}(),
			revision:   map[int32]*apiserverv1.EncryptionConfiguration{4: goodConfig, 5: failedConfig, 6: goodConfig},
			health:     newHealth([]string{"1", "2"}, unreachable("master-0", "2")),
			wantStatus: operatorv1.ConditionFalse, wantReason: ReasonAsExpected,
		},
		{
			name:       "first revision failed: nothing to go back to",
			status:     failedStatus(1, 0),
			revision:   map[int32]*apiserverv1.EncryptionConfiguration{1: failedConfig},
			health:     newHealth([]string{"1", "2"}, unreachable("master-0", "2")),
			wantStatus: operatorv1.ConditionTrue, wantReason: ReasonCannotRevertKMSConfig,
			// No earlier revision ran: nothing to go back to, and every key of the config is new.
			wantVerdict: &CannotRevertError{Failed: &KMSRolloutFailedError{Revision: 1, LastGood: 0, Nodes: []string{"master-0"}, KeyIDs: []string{"1", "2"},
				Failures: []kmsstate.Failure{{Reason: kmsstate.ReasonPluginUnreachable, Node: "master-0", KeyID: "2"}},
				Rollout:  []NodeFailure{{Node: "master-0", Revision: 1, LastGood: 0, Source: SourceStartupMonitor}}}},
			wantEvents: []string{EventRevertFailed},
		},
		{
			name:       "the last good revision ran unencrypted: turning encryption off is the admin's call",
			status:     failedStatus(5, 4),
			revision:   map[int32]*apiserverv1.EncryptionConfiguration{5: failedConfig},
			health:     newHealth([]string{"1", "2"}, unreachable("master-0", "2")),
			wantStatus: operatorv1.ConditionTrue, wantReason: ReasonCannotRevertKMSConfig,
			// Revision 4 ran, without an encryption config: going back is turning encryption off.
			wantVerdict: &CannotRevertError{Failed: &KMSRolloutFailedError{Revision: 5, LastGood: 4, Nodes: []string{"master-0"}, KeyIDs: []string{"1", "2"},
				Failures: []kmsstate.Failure{{Reason: kmsstate.ReasonPluginUnreachable, Node: "master-0", KeyID: "2"}}, Rollout: failedOn(SourceStartupMonitor)}},
			wantEvents: []string{EventRevertFailed},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			var objects []runtime.Object
			for rev, config := range s.revision {
				objects = append(objects, revisionSecret(t, rev, config))
			}
			f := newFixture(t, s.status, s.health, objects...)
			f.sync()

			cond := f.condition()
			if cond.Status != s.wantStatus || cond.Reason != string(s.wantReason) {
				t.Errorf("condition %s %s, want %s %s; message: %s", cond.Status, cond.Reason, s.wantStatus, s.wantReason, cond.Message)
			}
			if diff := cmp.Diff(s.wantVerdict, f.verdict(), verdictComparison); diff != "" {
				t.Errorf("verdict (-want +got):\n%s", diff)
			}
			holds := f.holds()
			if s.wantReverted {
				if got, want := f.target(), configData(t, goodConfig); !reflect.DeepEqual(got, want) {
					t.Errorf("desired encryption config:\n%s\nwant revision 4's:\n%s", got["encryption-config"], want["encryption-config"])
				}
				h := holds.Active()
				if h == nil || h.FailedRevision != 5 || h.RevertedTo != 4 || h.Hash != configHash(configData(t, failedConfig)) || h.Reverts != 1 ||
					!reflect.DeepEqual(h.Nodes, []string{"master-0"}) || !reflect.DeepEqual(h.KeyIDs, []string{"2"}) || h.AdminConfig != "admin-1" {
					t.Errorf("hold %+v", h)
				}
			} else {
				if f.targetWrites() != 0 || f.target() != nil {
					t.Errorf("the desired encryption config was written: %s", f.target()["encryption-config"])
				}
				if len(holds) != 0 {
					t.Errorf("holds %+v, want none", holds)
				}
			}
			if got := f.eventReasons(); !reflect.DeepEqual(got, s.wantEvents) && (len(got) != 0 || len(s.wantEvents) != 0) {
				t.Errorf("events %v, want %v", got, s.wantEvents)
			}
		})
	}
}

// verdictComparison compares verdicts by what they decide: the hashes, the Why rendered from the cause, and the
// details as the rollout and the reports carry them are left out.
var verdictComparison = cmp.Options{
	cmp.AllowUnexported(NotAttributedError{}),
	cmpopts.IgnoreFields(KMSRolloutFailedError{}, "Hash", "LastGoodHash"),
	cmpopts.IgnoreFields(CannotRevertError{}, "Why"),
	cmpopts.IgnoreFields(NotAttributedError{}, "Why"),
	cmpopts.IgnoreFields(NodeFailure{}, "Detail"),
	cmpopts.IgnoreFields(kmsstate.Failure{}, "Detail"),
}

func withReason(s *operatorv1.StaticPodOperatorStatus, reason string) *operatorv1.StaticPodOperatorStatus {
	s.NodeStatuses[0].LastFailedReason, s.NodeStatuses[0].LastFallbackCount = reason, 0
	return s
}

// TestNoFlapping walks one config through two failures: one revert per failed revision however often the
// evidence is seen, no release before the backoff even with healthy plugins, and twice the backoff after the
// second revert of the same config.
func TestNoFlapping(t *testing.T) {
	f := newFixture(t, failedStatus(5, 4), newHealth([]string{"1", "2"}, unreachable("master-0", "2")),
		revisionSecret(t, 4, goodConfig), revisionSecret(t, 5, failedConfig))
	deployer := NewHoldingDeployer(&fakeDeployer{converged: true}, f.store)
	f.sync()
	f.sync()
	f.controller = f.newController() // an operator restart: the Hold is read back from the store
	f.sync()
	if n := f.targetWrites(); n != 1 {
		t.Fatalf("%d writes of the desired config after three syncs of one failure, want 1", n)
	}
	assertHeld(t, deployer, true)

	// The plugins turn healthy at once, but the first backoff (10m) has not passed.
	f.health.set([]string{"1", "2"}, healthy("master-0", "1"), healthy("master-1", "1"), healthy("master-0", "2"), healthy("master-1", "2"))
	f.clock.Step(9 * time.Minute)
	f.sync()
	assertHeld(t, deployer, true)
	// The condition names when the held config may be retried (TestConditionRendering): the first backoff after
	// the revert.
	if h := f.holds().Active(); h == nil || !f.controller.retryAt(h).Equal(t0.Add(10*time.Minute)) {
		t.Errorf("hold %+v, want it held and retried from %s", h, t0.Add(10*time.Minute))
	}
	f.clock.Step(time.Minute)
	f.sync()
	assertHeld(t, deployer, false)
	if h := f.holds().Latest(); h.ReleaseReason != "the KMS plugins of keys [2] are healthy on nodes [master-0 master-1]" {
		t.Errorf("release reason %q", h.ReleaseReason)
	}

	// Released, library-go's state controller writes the same config again and it rolls out as revision 7 (6
	// was the revert), where it fails again.
	if err := ManagedEncryptionConfig(f.kube.CoreV1(), "kube-apiserver").Apply(t.Context(), configData(t, failedConfig), f.recorder); err != nil {
		t.Fatal(err)
	}
	for _, secret := range []runtime.Object{revisionSecret(t, 6, goodConfig), revisionSecret(t, 7, failedConfig)} {
		if err := f.kube.Tracker().Add(secret); err != nil {
			t.Fatal(err)
		}
	}
	f.setStatus(failedStatus(7, 6))
	f.health.set([]string{"1", "2"}, unreachable("master-0", "2"))
	f.sync()
	f.sync()
	if n := f.targetWrites(); n != 3 {
		t.Fatalf("%d writes of the desired config after the second failure, want 3 (revert, state controller, revert)", n)
	}
	if got, want := f.target(), configData(t, goodConfig); !reflect.DeepEqual(got, want) {
		t.Errorf("desired encryption config %s, want revision 6's", got["encryption-config"])
	}
	h := f.holds().Active()
	if h == nil || h.FailedRevision != 7 || h.RevertedTo != 6 || h.Reverts != 2 {
		t.Fatalf("hold after the second failure: %+v", h)
	}
	if c := f.condition(); c.Status != operatorv1.ConditionTrue || c.Reason != string(ReasonRevertedFailingKMSConfig) {
		t.Errorf("condition %s %s after the second revert, want True %s", c.Status, c.Reason, ReasonRevertedFailingKMSConfig)
	}

	// Healthy again: the second backoff is 20m.
	if retry := f.controller.retryAt(h); !retry.Equal(h.RevertedAt.Add(20 * time.Minute)) {
		t.Errorf("the second revert may be retried at %s, want 20m after %s", retry, h.RevertedAt)
	}
	f.health.set([]string{"1", "2"}, healthy("master-0", "2"), healthy("master-1", "2"))
	f.clock.Step(19 * time.Minute)
	f.sync()
	assertHeld(t, deployer, true)
	f.clock.Step(time.Minute)
	f.sync()
	assertHeld(t, deployer, false)

	want := []string{EventReverted, EventHoldReleased, EventReverted, EventHoldReleased}
	if got := f.eventReasons(); !reflect.DeepEqual(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
}

// TestReleaseOnAdminChange: a changed encryption configuration releases the Hold before any backoff, with the
// plugins still down.
func TestReleaseOnAdminChange(t *testing.T) {
	f := newFixture(t, failedStatus(5, 4), newHealth([]string{"1", "2"}, unreachable("master-0", "2")),
		revisionSecret(t, 4, goodConfig), revisionSecret(t, 5, failedConfig))
	f.sync()
	f.sync()
	if h := f.holds().Active(); h == nil {
		t.Fatal("no active hold after the revert")
	}
	f.admin = "admin-2"
	f.sync()
	h := f.holds().Latest()
	if h.Active() || h.ReleaseReason != "the admin changed the encryption configuration" {
		t.Errorf("hold %+v, want released by the admin's change", h)
	}
	// The released Hold is not cleared: the revert stays reported until the next config rolls out.
	if h.Cleared != nil {
		t.Errorf("hold %+v cleared before any config rolled out", h)
	}
	if c := f.condition(); c.Status != operatorv1.ConditionTrue || c.Reason != string(ReasonRevertedFailingKMSConfig) {
		t.Errorf("condition %+v: the revert stays reported until the next config rolls out", c)
	}
}

// TestClearOnHealthyRollout: the condition stays True while the reverted config runs, and clears once the
// admin's next config runs healthy on every node.
func TestClearOnHealthyRollout(t *testing.T) {
	fixedConfig := ectest.Secrets(ectest.KMS("3"), ectest.KMS("1"), ectest.Identity())
	f := newFixture(t, failedStatus(5, 4), newHealth([]string{"1", "2"}, unreachable("master-0", "2")),
		revisionSecret(t, 4, goodConfig), revisionSecret(t, 5, failedConfig), revisionSecret(t, 6, goodConfig), revisionSecret(t, 7, fixedConfig))
	f.sync()

	// The revert rolled out as revision 6 and runs healthy: still True, the failed config is held.
	f.setStatus(convergedStatus(6))
	f.health.set([]string{"1"}, healthy("master-0", "1"), healthy("master-1", "1"))
	f.sync()
	if c := f.condition(); c.Status != operatorv1.ConditionTrue || c.Reason != string(ReasonRevertedFailingKMSConfig) {
		t.Fatalf("condition %+v while the reverted config runs", c)
	}

	// The admin moves to key 3; revision 7 rolls out, but key 3 is not yet reported healthy on master-1.
	f.admin = "admin-2"
	f.setStatus(convergedStatus(7))
	f.health.set([]string{"1", "3"}, healthy("master-0", "1"), healthy("master-1", "1"), healthy("master-0", "3"))
	f.sync()
	if c := f.condition(); c.Status != operatorv1.ConditionTrue {
		t.Fatalf("condition %+v before the new key is healthy everywhere", c)
	}

	f.health.set([]string{"1", "3"}, healthy("master-0", "1"), healthy("master-1", "1"), healthy("master-0", "3"), healthy("master-1", "3"))
	f.sync()
	c := f.condition()
	if c.Status != operatorv1.ConditionFalse || c.Reason != string(ReasonAsExpected) {
		t.Errorf("condition %+v, want cleared by revision 7", c)
	}
	if h := f.holds().Latest(); h.Cleared == nil || h.ClearedBy != 7 || h.FailedRevision != 5 {
		t.Errorf("hold %+v, want the revert of revision 5 cleared by 7", h)
	}
	want := []string{EventReverted, EventHoldReleased, EventCleared}
	if got := f.eventReasons(); !reflect.DeepEqual(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
}

// TestRevertRepairsARacingWrite: the state controller wrote the failed config back between the Hold and the
// revert (it synced before the Hold was stored); the next sync writes the reverted config again.
func TestRevertRepairsARacingWrite(t *testing.T) {
	f := newFixture(t, failedStatus(5, 4), newHealth([]string{"1", "2"}, unreachable("master-0", "2")),
		revisionSecret(t, 4, goodConfig), revisionSecret(t, 5, failedConfig))
	f.sync()
	if err := ManagedEncryptionConfig(f.kube.CoreV1(), "kube-apiserver").Apply(t.Context(), configData(t, failedConfig), f.recorder); err != nil {
		t.Fatal(err)
	}
	f.sync()
	if got, want := f.target(), configData(t, goodConfig); !reflect.DeepEqual(got, want) {
		t.Errorf("desired encryption config %s, want revision 4's", got["encryption-config"])
	}
}

// TestRevertsWhileConfigMapsCannotBeDecrypted: the KMS encrypts every ConfigMap, and a KMS fault is what the
// controller reverts. With every ConfigMap unreadable and unwritable, as kube-apiserver answers while the KMS is
// down, it still reverts, holds the failed config out of library-go's encryption controllers and says so, and an
// operator restart reads the Hold back: the Holds are on the operator resource, out of the KMS's reach.
func TestRevertsWhileConfigMapsCannotBeDecrypted(t *testing.T) {
	f := newFixture(t, failedStatus(5, 4), newHealth([]string{"1", "2"}, unreachable("master-0", "2")),
		revisionSecret(t, 4, goodConfig), revisionSecret(t, 5, failedConfig))
	apiservertest.FailEncrypted(f.kube, "configmaps")
	deployer := NewHoldingDeployer(&fakeDeployer{converged: true}, f.store)

	f.sync()
	if got, want := f.target(), configData(t, goodConfig); !reflect.DeepEqual(got, want) {
		t.Fatalf("desired encryption config %s, want revision 4's", got["encryption-config"])
	}
	assertHeld(t, deployer, true)
	if c := f.condition(); c.Status != operatorv1.ConditionTrue || c.Reason != string(ReasonRevertedFailingKMSConfig) {
		t.Errorf("%s = %s %s, want True %s", ConditionDegraded, c.Status, c.Reason, ReasonRevertedFailingKMSConfig)
	}
	f.controller = f.newController()
	f.sync()
	if n := f.targetWrites(); n != 1 {
		t.Errorf("%d writes of the desired config after a restart, want the one revert", n)
	}
}

// TestHoldStoreUnreadable: with the operator resource unreadable the controller cannot know whether a config is
// held, so it reverts nothing and fails its sync (library-go's sync-error condition says why), and HoldingDeployer
// reports the error to library-go's encryption controllers rather than letting the state controller run on a
// guess. Reading the resource again resumes both.
func TestHoldStoreUnreadable(t *testing.T) {
	f := newFixture(t, failedStatus(5, 4), newHealth([]string{"1", "2"}, unreachable("master-0", "2")),
		revisionSecret(t, 4, goodConfig), revisionSecret(t, 5, failedConfig))
	deployer := NewHoldingDeployer(&fakeDeployer{converged: true}, f.store)
	unavailable := apierrors.NewServiceUnavailable("the server is currently unable to handle the request")
	f.resource.FailReads(unavailable)

	if err := f.controller.sync(t.Context(), factory.NewSyncContext("test", f.recorder)); !errors.Is(err, unavailable) {
		t.Fatalf("sync with the Holds unreadable = %v, want its read error", err)
	}
	if n := f.targetWrites(); n != 0 {
		t.Fatalf("%d writes of the desired config without the Holds, want none", n)
	}
	if _, _, err := deployer.DeployedEncryptionConfigSecret(t.Context()); !errors.Is(err, unavailable) {
		t.Fatalf("HoldingDeployer with the Holds unreadable = %v, want the read error", err)
	}

	f.resource.FailReads(nil)
	f.sync()
	assertHeld(t, deployer, true)
}

type fakeDeployer struct{ converged bool }

func (d *fakeDeployer) DeployedEncryptionConfigSecret(context.Context) (*corev1.Secret, bool, error) {
	return &corev1.Secret{}, d.converged, nil
}
func (d *fakeDeployer) AddEventHandler(cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error) {
	return nil, nil
}
func (d *fakeDeployer) HasSynced() bool { return true }

func assertHeld(t *testing.T, d *HoldingDeployer, held bool) {
	t.Helper()
	_, converged, err := d.DeployedEncryptionConfigSecret(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if converged == held {
		t.Errorf("deployer converged=%v, want held=%v", converged, held)
	}
}

// TestStartupMonitorFallbackIsAttributedFromWhatWasSeen: on a single node the startup monitor's fallback stops the
// failed revision's pod, and with it the only plugin and reporter of the key the revision adds, so by the time the
// installer records the fallback kmsstate has no report of that key left. The controller attributes the failure
// from what kmsstate showed while the node ran the revision; a controller that never saw it does not.
func TestStartupMonitorFallbackIsAttributedFromWhatWasSeen(t *testing.T) {
	installing := &operatorv1.StaticPodOperatorStatus{
		OperatorStatus: operatorv1.OperatorStatus{LatestAvailableRevision: 5},
		NodeStatuses:   []operatorv1.NodeStatus{{NodeName: "master-0", CurrentRevision: 4, TargetRevision: 5}, {NodeName: "master-1", CurrentRevision: 4}},
	}
	scenarios := []struct {
		name string
		// seenWhileRunning: the failed revision's pod reported its new key unreachable while it ran.
		seenWhileRunning bool
		// apiServerSawIt: no report of the new key reached the API (library-go's reporter cannot publish a failing
		// plugin's), but the failing apiserver's own Status calls to that key's provider failed.
		apiServerSawIt bool
		wantReason     Reason
	}{
		{name: "the failing pod's report was seen: reverted", seenWhileRunning: true, wantReason: ReasonRevertedFailingKMSConfig},
		{name: "the failing apiserver's own KMS calls to the new key failed: reverted", apiServerSawIt: true, wantReason: ReasonRevertedFailingKMSConfig},
		{name: "nothing was seen while it ran: no evidence, not ours", wantReason: ReasonFailureNotAttributedToKMS},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			h := newHealth([]string{"1", "2"}, healthy("master-0", "1"), healthy("master-1", "1"))
			f := newFixture(t, installing, h, revisionSecret(t, 4, goodConfig), revisionSecret(t, 5, failedConfig))
			switch {
			case s.seenWhileRunning:
				h.set([]string{"1", "2"}, healthy("master-0", "1"), healthy("master-1", "1"), unreachable("master-0", "2"))
			case s.apiServerSawIt:
				h.setWithAPIServerCallErrors([]string{"1", "2"}, "master-0", "2", healthy("master-0", "1"), healthy("master-1", "1"))
			}
			// Every health report syncs the controller while the rollout goes on; the revision's config is read once.
			for range 3 {
				f.sync()
			}
			if cond := f.condition(); cond.Reason != string(ReasonAsExpected) {
				t.Fatalf("while the revision is installed: %s %s: %s, want AsExpected", cond.Status, cond.Reason, cond.Message)
			}
			reads := 0
			for _, a := range f.kube.Actions() {
				if get, ok := a.(clienttesting.GetAction); ok && a.GetResource().Resource == "secrets" && get.GetName() == "encryption-config-5" {
					reads++
				}
			}
			if reads != 1 {
				t.Errorf("encryption-config-5 read %d times in 3 syncs, want once", reads)
			}

			// What kmsstate shows of key 2 on master-0 while it runs revision 5.
			running, err := failing(h, "master-0", []string{"2"})
			if err != nil {
				t.Fatal(err)
			}

			// The fallback: the node runs revision 4's pod again, whose reporter knows only key 1.
			h.set([]string{"1", "2"}, healthy("master-0", "1"), healthy("master-1", "1"))
			f.setStatus(failedStatus(5, 4))
			f.sync()
			cond := f.condition()
			if cond.Reason != string(s.wantReason) {
				t.Fatalf("after the fallback: %s %s: %s, want %s", cond.Status, cond.Reason, cond.Message, s.wantReason)
			}
			if s.wantReason != ReasonRevertedFailingKMSConfig {
				return
			}
			// kmsstate's live view has no fault of key 2 left on master-0: the evidence of the verdict is what the
			// witness saw while the node ran revision 5, marked as such.
			if live, err := failing(h, "master-0", []string{"2"}); err != nil || len(live) != 0 {
				t.Fatalf("live faults of key 2 on master-0 after the fallback: %v, %v; want none", live, err)
			}
			if len(running) == 0 {
				t.Fatal("kmsstate showed no fault of key 2 on master-0 while it ran revision 5")
			}
			var seen []kmsstate.Failure
			for _, fault := range running {
				fault.Detail += " (seen while the node ran revision 5)"
				seen = append(seen, fault)
			}
			if got := f.controller.witness.recall(5, "master-0", []string{"2"}); !reflect.DeepEqual(got, seen) {
				t.Errorf("the witness recalls %+v, want %+v", got, seen)
			}
			failed, ok := f.verdict().(*KMSRolloutFailedError)
			if !ok || !reflect.DeepEqual(failed.Failures, seen) || !reflect.DeepEqual(failed.Nodes, []string{"master-0"}) {
				t.Errorf("verdict %#v, want the revert of revision 5 on master-0 with the recalled faults %+v", f.verdict(), seen)
			}
		})
	}
}

// TestHoldsFitTheirStore: the most Holds the store keeps, each with the longest evidence it keeps and five
// nodes, are saved; the operator resource's annotations have room for them.
func TestHoldsFitTheirStore(t *testing.T) {
	var holds Holds
	for i := range maxHolds + 3 {
		holds = append(holds, Hold{
			Hash: strings.Repeat("h", 64), RevertedToHash: strings.Repeat("g", 64), FailedRevision: int32(100 + i), RevertedTo: int32(99 + i),
			Nodes:  []string{"ip-10-0-1-1.ec2.internal", "ip-10-0-1-2.ec2.internal", "ip-10-0-1-3.ec2.internal", "ip-10-0-1-4.ec2.internal", "ip-10-0-1-5.ec2.internal"},
			KeyIDs: []string{"41", "42"}, Error: boundedError(strings.Repeat("the KMS plugin of key 42 is unreachable; ", 200)),
			RevertedAt: t0.Add(time.Duration(i) * time.Hour), Reverts: 3, AdminConfig: strings.Repeat("a", 64),
			Released: &t0, ReleaseReason: "the admin changed the encryption configuration", Cleared: &t0, ClearedBy: int32(120 + i),
		})
	}
	store := NewHoldStore(operatorstate.NewFakeResource())
	if err := store.Save(t.Context(), holds); err != nil {
		t.Fatalf("saving %d Holds: %v", len(holds), err)
	}
	saved, err := store.Load(t.Context())
	if err != nil || len(saved) != maxHolds {
		t.Fatalf("Load = %d Holds, %v; want the newest %d", len(saved), err, maxHolds)
	}
	if got := len(saved[0].Error); got > maxErrorBytes {
		t.Errorf("a Hold's Error is %d bytes, more than %d", got, maxErrorBytes)
	}
}
