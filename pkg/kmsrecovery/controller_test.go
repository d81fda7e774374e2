package kmsrecovery_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	"github.com/kmsguard/kmsguard/internal/configmapdata"
	"github.com/kmsguard/kmsguard/internal/recoverytest"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

const operatorNamespace = "openshift-kube-apiserver-operator"

func consentSpec(keyID string) *operatorv1.OperatorSpec {
	spec := &operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}
	if keyID != "" {
		spec.UnsupportedConfigOverrides = runtime.RawExtension{Raw: []byte(fmt.Sprintf(`{"kmsguard":{"confirmDataLoss":%q}}`, keyID))}
	}
	return spec
}

type controllerEnv struct {
	cluster  *recoverytest.Cluster
	kube     *kubefake.Clientset
	operator v1helpers.OperatorClient
	recorder events.InMemoryRecorder
	clock    *clocktesting.FakePassiveClock
	ctrl     *kmsrecovery.Controller
	// resource is the operator resource the Record is kept on.
	resource *operatorstate.FakeResource
}

// healthyKMS is kmsstate's view of a healthy cluster whose plugins serve liveKey.
func healthyKMS() kmsrecovery.KMSView { return stateView(kmsState(healthyOn(liveKey))) }

func newControllerEnv(t *testing.T, cluster *recoverytest.Cluster, consent string) *controllerEnv {
	t.Helper()
	return newControllerEnvWith(t, cluster, consent, cluster.Raw(), healthyKMS())
}

func newControllerEnvWith(t *testing.T, cluster *recoverytest.Cluster, consent string, raw kmsrecovery.RawValueReader, kms kmsrecovery.KMSView) *controllerEnv {
	t.Helper()
	e := &controllerEnv{
		cluster:  cluster,
		kube:     kubefake.NewClientset(),
		operator: v1helpers.NewFakeOperatorClient(consentSpec(consent), &operatorv1.OperatorStatus{}, nil),
		clock:    clocktesting.NewFakePassiveClock(t0),
		resource: operatorstate.NewFakeResource(),
	}
	e.recorder = events.NewInMemoryRecorder("test", e.clock)
	var err error
	e.ctrl, err = kmsrecovery.NewController("kube-apiserver", kmsrecovery.Options{
		OperatorClient: e.operator,
		Dynamic:        cluster.Dynamic,
		Resources:      []kmsrecovery.Resource{recoverytest.Secrets, recoverytest.ConfigMaps},
		Raw:            raw,
		KMS:            kms,
		ConfigMaps:     e.kube.CoreV1(),
		Namespace:      operatorNamespace,
		Record:         kmsrecovery.NewRecordStore(e.resource),
		Caches:         []string{"kmsguard-kms-state"},
		Recorder:       e.recorder,
		Clock:          e.clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// consent sets the admin's consent to keyID on the operator resource.
func (e *controllerEnv) consent(t *testing.T, keyID string) {
	t.Helper()
	_, _, rv, err := e.operator.GetOperatorState()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.operator.UpdateOperatorSpec(context.Background(), rv, consentSpec(keyID)); err != nil {
		t.Fatal(err)
	}
}

func (e *controllerEnv) sync(t *testing.T) {
	t.Helper()
	if err := e.ctrl.Sync(context.Background(), factory.NewSyncContext("test", e.recorder)); err != nil {
		t.Fatalf("sync: %v", err)
	}
}

func (e *controllerEnv) condition(t *testing.T) *operatorv1.OperatorCondition {
	t.Helper()
	_, status, _, err := e.operator.GetOperatorState()
	if err != nil {
		t.Fatal(err)
	}
	return v1helpers.FindOperatorCondition(status.Conditions, kmsrecovery.ConditionDegraded)
}

func (e *controllerEnv) configMap(t *testing.T) *struct {
	objects  []kmsrecovery.Object
	deletion *kmsrecovery.DeletionReport
	summary  string
} {
	t.Helper()
	cm, err := e.kube.CoreV1().ConfigMaps(operatorNamespace).Get(context.Background(), kmsrecovery.ConfigMapName, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	out := &struct {
		objects  []kmsrecovery.Object
		deletion *kmsrecovery.DeletionReport
		summary  string
	}{summary: cm.Data[kmsrecovery.ConfigMapKeySummary]}
	if err := json.Unmarshal([]byte(cm.Data[kmsrecovery.ConfigMapKeyObjects]), &out.objects); err != nil {
		t.Fatalf("%s: %v", kmsrecovery.ConfigMapKeyObjects, err)
	}
	if data, ok := cm.Data[kmsrecovery.ConfigMapKeyDeletion]; ok {
		out.deletion = &kmsrecovery.DeletionReport{}
		if err := json.Unmarshal([]byte(data), out.deletion); err != nil {
			t.Fatalf("%s: %v", kmsrecovery.ConfigMapKeyDeletion, err)
		}
	}
	return out
}

func eventReasons(recorder events.InMemoryRecorder) map[string]int {
	reasons := map[string]int{}
	for _, e := range recorder.Events() {
		reasons[e.Reason]++
	}
	return reasons
}

// TestControllerConsent is the condition matrix of the package doc, with 150 undecryptable Secrets (more than
// one StorageReadError names) under the lost key.
func TestControllerConsent(t *testing.T) {
	const n = 150
	scenarios := []struct {
		name    string
		setup   func(c *recoverytest.Cluster)
		consent string
		// noRaw runs the controller without etcd access; kms replaces the healthy KMS view.
		noRaw bool
		kms   kmsrecovery.KMSView
		noKMS bool

		wantStatus    operatorv1.ConditionStatus
		wantReason    kmsrecovery.Reason
		wantInMessage []string
		wantDeleted   int
		wantListed    int // objects in the ConfigMap; -1: no ConfigMap
		wantEvents    map[string]int
	}{
		{
			name:       "nothing undecryptable",
			setup:      func(c *recoverytest.Cluster) { addSecrets(c, "app", "ok", 3, liveKey, true) },
			wantStatus: operatorv1.ConditionFalse, wantReason: kmsrecovery.ReasonAsExpected,
			wantInMessage: []string{"no undecryptable objects in secrets, configmaps"},
			wantListed:    -1,
			wantEvents:    map[string]int{},
		},
		{
			name:       "missing consent: report, delete nothing",
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonUndecryptableObjects,
			wantInMessage: []string{"150 objects cannot be decrypted", "secrets: 150 of 160 (key kms:key-lost: 150)", "configmap openshift-kube-apiserver-operator/kmsguard-undecryptable-objects",
				"set spec.unsupportedConfigOverrides.kmsguard.confirmDataLoss to its key, one of kms:key-lost"},
			wantListed: n,
			wantEvents: map[string]int{kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name:       "wrong key id: report, delete nothing",
			consent:    "key-typo",
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonConsentMismatch,
			wantInMessage: []string{`names key "key-typo", which no undecryptable object is stored under`},
			wantListed:    n,
			wantEvents:    map[string]int{kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name:       "consent: delete exactly the 150",
			consent:    lostKey,
			wantStatus: operatorv1.ConditionFalse, wantReason: kmsrecovery.ReasonAsExpected,
			wantInMessage: []string{"no undecryptable objects", "deleted 150 undecryptable objects stored under key kms:key-lost", "0 of 150 deleted objects have been recreated",
				"not yet recreated by their operators: secrets openshift-config/lost-0000", "not recreated, and no operator is expected to", "secrets app/lost-0000"},
			wantDeleted: n,
			wantListed:  0,
			wantEvents:  map[string]int{kmsrecovery.EventObjectDeleted: n, kmsrecovery.EventDeletionFinished: 1, "ConfigMapCreated": 1},
		},
		{
			name:    "consent for one key, objects under another remain",
			setup:   func(c *recoverytest.Cluster) { c.Add(recoverytest.ConfigMaps, "app", "other", "key-other", false) },
			consent: lostKey,
			// The consent was used: what remains is reported as undecryptable, not as a mismatch.
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonUndecryptableObjects,
			wantInMessage: []string{"1 objects cannot be decrypted: configmaps: 1 of 1 (key kms:key-other: 1)", "deleted 150 undecryptable objects"},
			wantDeleted:   n,
			wantListed:    1,
			wantEvents:    map[string]int{kmsrecovery.EventObjectDeleted: n, kmsrecovery.EventDeletionFinished: 1, kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name:       "consent unknown without etcd access: nothing shows a lost key",
			noRaw:      true,
			consent:    kmsrecovery.UnknownConsentID,
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonConsentUnprovable,
			wantInMessage: []string{"secrets: 150 of 160 (key unknown: 150)", `the consent names "unknown", which is no key etcd shows`,
				"objects under unknown or identity cannot be deleted by a consent"},
			wantListed: n,
			wantEvents: map[string]int{kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name: "consent identity: corrupt plaintext",
			setup: func(c *recoverytest.Cluster) {
				c.AddRaw(recoverytest.ConfigMaps, "app", "corrupt", corruptPlaintext, false)
			},
			consent:    "identity",
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonConsentUnprovable,
			wantInMessage: []string{"configmaps: 1 of 1 (key identity: 1)", "is corrupt, not encrypted under a lost key", "one of kms:key-lost"},
			wantListed:    n + 1,
			wantEvents:    map[string]int{kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name:       "consent names the KEK id the plugins serve",
			consent:    lostKey,
			kms:        stateView(kmsState(healthyOn(lostKey))),
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonConsentNamesCurrentKey,
			wantInMessage: []string{`the consent names "key-lost", a KEK id that is in use (kmsstate's settled KEK id of key 1, node master-0 key 1, node master-1 key 1)`},
			wantListed:    n,
			wantEvents:    map[string]int{kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name:    "consent while the current key's plugin is unhealthy",
			consent: lostKey,
			kms: stateView(kmsState([]operatorv1.KMSPluginHealthReport{
				healthReport("master-0", operatorv1.KMSPluginHealthStatusError, kmsrecovery.UnknownConsentID),
				healthReport("master-1", operatorv1.KMSPluginHealthStatusHealthy, liveKey),
			})),
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonKMSUnhealthy,
			wantInMessage: []string{"not known healthy (KMS plugins not healthy: PluginUnreachable: node master-0 key 1"},
			wantListed:    n,
			wantEvents:    map[string]int{kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name:       "consent without a KMS view",
			consent:    lostKey,
			noKMS:      true,
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonKMSUnhealthy,
			wantInMessage: []string{"no view of the KMS plugins is configured"},
			wantListed:    n,
			wantEvents:    map[string]int{kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name: "a bare KEK id two providers have",
			setup: func(c *recoverytest.Cluster) {
				c.AddKMS(recoverytest.ConfigMaps, "app", "twin", "other-kms", lostKey, false)
			},
			consent:    lostKey,
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonConsentAmbiguous,
			wantInMessage: []string{"several KMS providers (kms:key-lost, other-kms:key-lost); name one as <provider>:<KEK id>"},
			wantListed:    n + 1,
			wantEvents:    map[string]int{kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name: "a qualified KEK id two providers have: only that provider's objects",
			setup: func(c *recoverytest.Cluster) {
				c.AddKMS(recoverytest.ConfigMaps, "app", "twin", "other-kms", lostKey, false)
			},
			consent:    "kms:" + lostKey,
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonUndecryptableObjects,
			wantInMessage: []string{"1 objects cannot be decrypted: configmaps: 1 of 1 (key other-kms:key-lost: 1)", "deleted 150 undecryptable objects stored under key kms:key-lost"},
			wantDeleted:   n,
			wantListed:    1,
			wantEvents:    map[string]int{kmsrecovery.EventObjectDeleted: n, kmsrecovery.EventDeletionFinished: 1, kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name:       "consent without the RBAC verb",
			setup:      func(c *recoverytest.Cluster) { c.ForbidUnsafeDelete() },
			consent:    lostKey,
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonDeletionFailed,
			wantInMessage: []string{"150 deletes failed", "missing verb unsafe-delete-ignore-read-errors", "and 130 more"},
			wantListed:    n,
			wantEvents:    map[string]int{kmsrecovery.EventObjectDeletionFailed: n, kmsrecovery.EventDeletionFinished: 1, kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			cluster := recoverytest.NewCluster()
			if s.name != "nothing undecryptable" {
				addSecrets(cluster, "app", "lost", n-10, lostKey, false)
				addSecrets(cluster, "openshift-config", "lost", 10, lostKey, false)
				addSecrets(cluster, "app", "ok", 10, liveKey, true)
			}
			if s.setup != nil {
				s.setup(cluster)
			}
			raw, kms := cluster.Raw(), s.kms
			if s.noRaw {
				raw = nil
			}
			switch {
			case s.noKMS:
				kms = nil
			case kms == nil:
				kms = healthyKMS()
			}
			env := newControllerEnvWith(t, cluster, s.consent, raw, kms)
			env.sync(t)

			cond := env.condition(t)
			if cond == nil {
				t.Fatal("no KMSRecoveryDegraded condition")
			}
			if cond.Status != s.wantStatus || cond.Reason != string(s.wantReason) {
				t.Errorf("condition %s %s, want %s %s: %s", cond.Status, cond.Reason, s.wantStatus, s.wantReason, cond.Message)
			}
			for _, want := range s.wantInMessage {
				if !strings.Contains(cond.Message, want) {
					t.Errorf("message does not contain %q:\n%s", want, cond.Message)
				}
			}
			if got := len(cluster.UnsafeDeleted()); got != s.wantDeleted {
				t.Errorf("%d objects deleted, want %d", got, s.wantDeleted)
			}
			for _, key := range cluster.UnsafeDeleted() {
				if !strings.Contains(key, "/secrets/") || !strings.Contains(key, "/lost-") {
					t.Errorf("deleted %s, which is not under the lost key", key)
				}
			}
			cm := env.configMap(t)
			switch {
			case s.wantListed < 0 && cm != nil:
				t.Errorf("a ConfigMap was written with nothing to report: %+v", cm)
			case s.wantListed >= 0 && cm == nil:
				t.Errorf("no ConfigMap")
			case cm != nil && len(cm.objects) != s.wantListed:
				t.Errorf("ConfigMap lists %d objects, want %d", len(cm.objects), s.wantListed)
			case cm != nil && s.wantDeleted > 0 && (cm.deletion == nil || cm.deletion.Count(kmsrecovery.OutcomeDeleted) != s.wantDeleted):
				t.Errorf("ConfigMap deletion report %+v, want %d deleted", cm.deletion, s.wantDeleted)
			}
			if diff := cmp.Diff(s.wantEvents, eventReasons(env.recorder)); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

// TestControllerKeepsTheRecordWhenTheScanAfterFails: the scan after a deletion fails (an apiserver restarts);
// the ConfigMap already holds the deletion report and the objects left, the sync returns the error, and the
// next sync scans again rather than an Interval later.
func TestControllerKeepsTheRecordWhenTheScanAfterFails(t *testing.T) {
	cluster := recoverytest.NewCluster()
	addSecrets(cluster, "app", "lost", 3, lostKey, false)
	cluster.Add(recoverytest.ConfigMaps, "app", "other", "key-other", false)
	down := apierrors.NewServiceUnavailable("apiserver restarting")
	failing := false
	cluster.Fake.PrependReactor("list", "*", func(clienttesting.Action) (bool, runtimeObject, error) {
		return failing, nil, down
	})
	cluster.BeforeDelete(func(kmsrecovery.Resource, string, string) { failing = true })
	env := newControllerEnv(t, cluster, lostKey)

	err := env.ctrl.Sync(context.Background(), factory.NewSyncContext("test", env.recorder))
	if err == nil || !strings.Contains(err.Error(), "scanning after deleting 3 objects (recorded in configmap openshift-kube-apiserver-operator/kmsguard-undecryptable-objects)") {
		t.Fatalf("sync: %v, want the failed scan after the deletion", err)
	}
	if got := len(cluster.UnsafeDeleted()); got != 3 {
		t.Fatalf("deleted %d, want 3", got)
	}
	cm := env.configMap(t)
	if cm == nil || cm.deletion == nil || cm.deletion.Count(kmsrecovery.OutcomeDeleted) != 3 {
		t.Fatalf("the ConfigMap does not hold the deletion of 3 objects: %+v", cm)
	}
	if len(cm.objects) != 1 || cm.objects[0].Name != "other" {
		t.Errorf("the ConfigMap lists %+v, want only configmaps app/other left", cm.objects)
	}

	failing = false
	env.sync(t)
	cond := env.condition(t)
	if cond == nil || cond.Reason != string(kmsrecovery.ReasonUndecryptableObjects) || !strings.Contains(cond.Message, "deleted 3 undecryptable objects") {
		t.Errorf("after the retry: %+v, want UndecryptableObjects with the deletion report", cond)
	}
	if got := len(cluster.UnsafeDeleted()); got != 3 {
		t.Errorf("the retry deleted more: %d in all", got)
	}
}

// TestControllerReportsWithoutItsRecord: the ConfigMap that holds the full list is encrypted by the KMS that
// failed and cannot be written. The condition is still applied (it does not depend on the record) and says where
// the list is instead, a consent still deletes, and the sync returns the write's error for
// KMSRecoveryControllerDegraded. Once the ConfigMap can be written, the retry writes it and the condition points
// at it again.
func TestControllerReportsWithoutItsRecord(t *testing.T) {
	undecryptable := apierrors.NewInternalError(fmt.Errorf("failed to decrypt data"))
	for _, tc := range []struct {
		name        string
		consent     string
		wantReason  kmsrecovery.Reason
		wantStatus  operatorv1.ConditionStatus
		wantMessage string
		wantDeleted int
	}{
		{name: "no consent", wantReason: kmsrecovery.ReasonUndecryptableObjects, wantStatus: operatorv1.ConditionTrue,
			wantMessage: "3 objects cannot be decrypted: secrets: 3 of 3 (key kms:key-lost: 3); the full list could not be written to configmap openshift-kube-apiserver-operator/kmsguard-undecryptable-objects (Internal error occurred: failed to decrypt data); `kmsguard recover` lists them"},
		{name: "consent", consent: lostKey, wantReason: kmsrecovery.ReasonAsExpected, wantStatus: operatorv1.ConditionFalse,
			wantMessage: "deleted 3 undecryptable objects stored under key kms:key-lost", wantDeleted: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cluster := recoverytest.NewCluster()
			addSecrets(cluster, "app", "lost", 3, lostKey, false)
			env := newControllerEnv(t, cluster, tc.consent)
			writes, failing := 0, true
			env.kube.PrependReactor("*", "configmaps", func(action clienttesting.Action) (bool, runtime.Object, error) {
				writes++
				return failing, nil, undecryptable
			})

			err := env.ctrl.Sync(context.Background(), factory.NewSyncContext("test", env.recorder))
			if !apierrors.IsInternalError(err) {
				t.Fatalf("sync: %v, want the ConfigMap's decrypt error", err)
			}
			cond := env.condition(t)
			if cond == nil || cond.Status != tc.wantStatus || cond.Reason != string(tc.wantReason) || !strings.Contains(cond.Message, tc.wantMessage) {
				t.Fatalf("%s: %+v, want %s %s with %q", kmsrecovery.ConditionDegraded, cond, tc.wantStatus, tc.wantReason, tc.wantMessage)
			}
			if got := len(cluster.UnsafeDeleted()); got != tc.wantDeleted {
				t.Errorf("deleted %d, want %d", got, tc.wantDeleted)
			}
			if writes == 0 {
				t.Fatal("the controller never tried to write its record")
			}
			// What lasts is on the operator resource, out of the KMS's reach.
			record, found, err := kmsrecovery.NewRecordStore(env.resource).Load(context.Background())
			if err != nil || !found {
				t.Fatalf("the Record was not kept while the ConfigMap could not be written: %v", err)
			}
			if tc.wantDeleted == 0 && (record.Undecryptable != 3 || len(record.ConsentIDs) != 1 || record.ConsentIDs[0] != (kmsrecovery.ConsentCount{ConsentID: "kms:" + lostKey, Count: 3})) {
				t.Errorf("Record %+v, want 3 objects under %s", record, lostKey)
			}
			if tc.wantDeleted > 0 && (record.Undecryptable != 0 || record.LastDeletion == nil || record.LastDeletion.Deleted != tc.wantDeleted || record.LastDeletion.ConsentID != "kms:"+lostKey) {
				t.Errorf("Record %+v, want none left and %d deleted under %s", record, tc.wantDeleted, lostKey)
			}

			failing = false
			env.sync(t)
			if cm := env.configMap(t); cm == nil {
				t.Fatal("the retried sync did not write the ConfigMap")
			}
			if cond := env.condition(t); cond.Status != tc.wantStatus || strings.Contains(cond.Message, "could not be written") {
				t.Errorf("after the retry: %+v", cond)
			}
			if got := len(cluster.UnsafeDeleted()); got != tc.wantDeleted {
				t.Errorf("the retry deleted more: %d in all, want %d", got, tc.wantDeleted)
			}
		})
	}
}

// TestControllerStartsOverItsUnreadableList: the KEK that encrypted the ConfigMap with the full list was
// destroyed with the user's objects. The ConfigMap holds no user data: the controller deletes it without a
// consent (KEP-3926's unsafe delete, an event says so) and writes it afresh, while the user's objects wait for the
// admin's consent. The Record lists them meanwhile, and a restarted controller keeps the last deletion in it.
func TestControllerStartsOverItsUnreadableList(t *testing.T) {
	cluster := recoverytest.NewCluster()
	addSecrets(cluster, "app", "lost", 3, lostKey, false)
	env := newControllerEnv(t, cluster, "")
	if _, err := env.kube.CoreV1().ConfigMaps(operatorNamespace).Create(context.Background(), &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: operatorNamespace, Name: kmsrecovery.ConfigMapName},
		Data:       map[string]string{kmsrecovery.ConfigMapKeySummary: "written under the lost key"},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	apiservertest.Undecryptable(env.kube, "configmaps", operatorNamespace+"/"+kmsrecovery.ConfigMapName)

	env.sync(t)
	cm := env.configMap(t)
	if cm == nil || len(cm.objects) != 3 {
		t.Fatalf("ConfigMap %+v, want it written afresh with the 3 objects", cm)
	}
	if got := eventReasons(env.recorder)[configmapdata.EventCacheDeleted]; got != 1 {
		t.Errorf("%d %s events, want 1", got, configmapdata.EventCacheDeleted)
	}
	if got := len(cluster.UnsafeDeleted()); got != 0 {
		t.Errorf("deleted %d user objects without a consent", got)
	}
	if cond := env.condition(t); cond == nil || cond.Reason != string(kmsrecovery.ReasonUndecryptableObjects) || !strings.Contains(cond.Message, lostKey) {
		t.Errorf("%s: %+v, want UndecryptableObjects naming %s", kmsrecovery.ConditionDegraded, cond, lostKey)
	}

	// The admin consents and the objects are deleted; a restarted controller finds nothing left, and keeps the
	// deletion in the Record.
	env.consent(t, lostKey)
	env.sync(t)
	if got := len(cluster.UnsafeDeleted()); got != 3 {
		t.Fatalf("deleted %d objects with the consent, want 3", got)
	}
	var err error
	env.ctrl, err = kmsrecovery.NewController("kube-apiserver", kmsrecovery.Options{
		OperatorClient: env.operator, Dynamic: cluster.Dynamic, Resources: []kmsrecovery.Resource{recoverytest.Secrets, recoverytest.ConfigMaps},
		Raw: cluster.Raw(), KMS: healthyKMS(), ConfigMaps: env.kube.CoreV1(), Namespace: operatorNamespace,
		Record: kmsrecovery.NewRecordStore(env.resource), Recorder: env.recorder, Clock: env.clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	env.sync(t)
	record, _, err := kmsrecovery.NewRecordStore(env.resource).Load(context.Background())
	if err != nil || record.Undecryptable != 0 || record.LastDeletion == nil || record.LastDeletion.Deleted != 3 {
		t.Errorf("Record %+v (%v), want nothing left and the 3 deleted", record, err)
	}
}

// TestControllerClearsItsCachesWithoutConsent: the lost key took a cache of kmsguard's (the published KMS verdict)
// with a user's objects. The cache is deleted without a consent, with the unsafe delete and an event, and neither
// counted nor listed; the user's objects still wait for the admin's consent. An object of the same name elsewhere
// is the user's, not a cache.
func TestControllerClearsItsCachesWithoutConsent(t *testing.T) {
	cluster := recoverytest.NewCluster()
	addSecrets(cluster, "app", "lost", 3, lostKey, false)
	cluster.Add(recoverytest.ConfigMaps, operatorNamespace, "kmsguard-kms-state", lostKey, false)
	cluster.Add(recoverytest.ConfigMaps, "app", "kmsguard-kms-state", lostKey, false)
	env := newControllerEnv(t, cluster, "")
	apiservertest.Undecryptable(env.kube, "configmaps", operatorNamespace+"/kmsguard-kms-state")

	env.sync(t)
	cacheDeletes := 0
	for _, a := range env.kube.Actions() {
		if d, ok := a.(clienttesting.DeleteAction); ok && d.GetNamespace() == operatorNamespace && d.GetName() == "kmsguard-kms-state" {
			if !ptr.Deref(d.GetDeleteOptions().IgnoreStoreReadErrorWithClusterBreakingPotential, false) {
				t.Errorf("the cache was deleted without ignoreStoreReadErrorWithClusterBreakingPotential")
			}
			cacheDeletes++
		}
	}
	if cacheDeletes != 1 {
		t.Errorf("%d deletes of the cache, want 1", cacheDeletes)
	}
	if got := eventReasons(env.recorder)[configmapdata.EventCacheDeleted]; got != 1 {
		t.Errorf("%d %s events, want 1", got, configmapdata.EventCacheDeleted)
	}
	if got := len(cluster.UnsafeDeleted()); got != 0 {
		t.Errorf("deleted %d user objects without a consent", got)
	}
	cond := env.condition(t)
	if cond == nil || cond.Reason != string(kmsrecovery.ReasonUndecryptableObjects) || !strings.Contains(cond.Message, "4 objects cannot be decrypted") {
		t.Fatalf("%s: %+v, want the 3 Secrets and the user's ConfigMap, not the cache", kmsrecovery.ConditionDegraded, cond)
	}
	if cm := env.configMap(t); cm == nil || len(cm.objects) != 4 || slices.ContainsFunc(cm.objects, func(o kmsrecovery.Object) bool { return o.Namespace == operatorNamespace }) {
		t.Errorf("listed %+v, want the user's 4 objects only", cm)
	}
}

// TestControllerReportsWithoutItsLastingRecord: the operator resource cannot take the Record (the apiserver is
// overloaded). The condition is applied all the same, the list is written, and the sync returns the Record's
// error, for KMSRecoveryControllerDegraded; the retry writes the Record.
func TestControllerReportsWithoutItsLastingRecord(t *testing.T) {
	cluster := recoverytest.NewCluster()
	addSecrets(cluster, "app", "lost", 3, lostKey, false)
	env := newControllerEnv(t, cluster, "")
	unavailable := apierrors.NewServiceUnavailable("the server is currently unable to handle the request")
	env.resource.FailReads(unavailable)
	env.resource.FailWrites(unavailable)

	if err := env.ctrl.Sync(context.Background(), factory.NewSyncContext("test", env.recorder)); !errors.Is(err, unavailable) {
		t.Fatalf("sync = %v, want the Record's error", err)
	}
	if cond := env.condition(t); cond == nil || cond.Status != operatorv1.ConditionTrue || cond.Reason != string(kmsrecovery.ReasonUndecryptableObjects) {
		t.Fatalf("%s = %+v, want True UndecryptableObjects without the Record", kmsrecovery.ConditionDegraded, cond)
	}
	if cm := env.configMap(t); cm == nil || len(cm.objects) != 3 {
		t.Errorf("the list %+v, want the 3 objects written without the Record", cm)
	}

	env.resource.FailReads(nil)
	env.resource.FailWrites(nil)
	env.clock.SetTime(t0.Add(time.Hour))
	env.sync(t)
	if r, found, err := kmsrecovery.NewRecordStore(env.resource).Load(context.Background()); err != nil || !found || r.Undecryptable != 3 {
		t.Errorf("Record %+v (found %v, %v) after the retry, want 3 objects", r, found, err)
	}
}

// TestControllerSchedule: a scan LISTs everything, so it runs every Interval or when the consent changes, not
// on every operator event; a new consent acts at once.
func TestControllerSchedule(t *testing.T) {
	cluster := recoverytest.NewCluster()
	addSecrets(cluster, "app", "lost", 3, lostKey, false)
	env := newControllerEnv(t, cluster, "")
	lists := func() int {
		n := 0
		for _, a := range cluster.Fake.Actions() {
			if _, ok := a.(clienttesting.ListAction); ok {
				n++
			}
		}
		cluster.Fake.ClearActions()
		return n
	}

	env.sync(t)
	if lists() == 0 {
		t.Fatal("the first sync did not scan")
	}
	env.clock.SetTime(t0.Add(kmsrecovery.DefaultInterval - time.Second))
	env.sync(t)
	if n := lists(); n != 0 {
		t.Errorf("a sync before the interval listed %d times", n)
	}
	env.clock.SetTime(t0.Add(kmsrecovery.DefaultInterval))
	env.sync(t)
	if lists() == 0 {
		t.Error("no scan after the interval")
	}
	if len(cluster.UnsafeDeleted()) != 0 {
		t.Fatal("deleted without consent")
	}

	env.consent(t, lostKey)
	env.sync(t)
	if got := len(cluster.UnsafeDeleted()); got != 3 {
		t.Errorf("a new consent deleted %d objects at once, want 3", got)
	}
}

// TestControllerRecreation: after a deletion, later scans tell which deleted objects came back.
func TestControllerRecreation(t *testing.T) {
	cluster := recoverytest.NewCluster()
	cluster.Add(recoverytest.Secrets, "openshift-etcd", "etcd-client", lostKey, false)
	cluster.Add(recoverytest.Secrets, "openshift-ingress", "router-certs", lostKey, false)
	cluster.Add(recoverytest.Secrets, "team-a", "db-password", lostKey, false)
	env := newControllerEnv(t, cluster, lostKey)
	env.sync(t)
	if got := len(cluster.UnsafeDeleted()); got != 3 {
		t.Fatalf("deleted %d objects, want 3", got)
	}

	// The etcd operator recreates its secret; the ingress operator has not yet; nobody recreates team-a's.
	cluster.Add(recoverytest.Secrets, "openshift-etcd", "etcd-client", liveKey, true)
	env.clock.SetTime(t0.Add(kmsrecovery.DefaultInterval))
	env.sync(t)

	cond := env.condition(t)
	for _, want := range []string{
		"1 of 3 deleted objects have been recreated",
		"not yet recreated by their operators: secrets openshift-ingress/router-certs;",
		"no operator is expected to (restore them from a backup or recreate them): secrets team-a/db-password",
	} {
		if !strings.Contains(cond.Message, want) {
			t.Errorf("message does not contain %q:\n%s", want, cond.Message)
		}
	}
	if strings.Contains(cond.Message, "etcd-client") {
		t.Errorf("the recreated secret is still listed as missing:\n%s", cond.Message)
	}
	if cond.Status != operatorv1.ConditionFalse {
		t.Errorf("condition %s %s, want False", cond.Status, cond.Reason)
	}
}
