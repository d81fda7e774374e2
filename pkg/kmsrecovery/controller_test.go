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
	"github.com/google/go-cmp/cmp/cmpopts"
	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	clientv3 "go.etcd.io/etcd/client/v3"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	"github.com/kmsguard/kmsguard/internal/configmapdata"
	"github.com/kmsguard/kmsguard/internal/conventionstest"
	"github.com/kmsguard/kmsguard/internal/recoverytest"
	"github.com/kmsguard/kmsguard/pkg/etcdclient"
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
	conventionstest.ExpectRegisteredReasons(t, kmsrecovery.ConditionReasons(), status.Conditions...)
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

// left counts the undecryptable objects a verdict reports, by "<resource> <consent id>".
func left(v kmsrecovery.Verdict) map[string]int {
	counts := map[string]int{}
	if v.Findings == nil {
		return counts
	}
	for _, o := range v.Findings.Objects() {
		counts[o.Resource.String()+" "+o.ConsentID]++
	}
	return counts
}

// refusal is the verdict's refusal of the consent, nil when there is none.
func refusal(t *testing.T, v kmsrecovery.Verdict) *kmsrecovery.ConsentError {
	t.Helper()
	if v.ConsentErr == nil {
		return nil
	}
	var refusal *kmsrecovery.ConsentError
	if !errors.As(v.ConsentErr, &refusal) {
		t.Fatalf("the consent check failed with %v, not a refusal", v.ConsentErr)
	}
	return refusal
}

// lostCredentials is an etcd client whose credentials Secret was encrypted with the lost key.
type lostCredentials struct{ clientv3.KV }

func (lostCredentials) Get(context.Context, string, ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	return nil, &etcdclient.CredentialsError{Object: "openshift-kube-apiserver/etcd-client",
		Err: apierrors.NewInternalError(errors.New("failed to decrypt DEK: key destroyed"))}
}

// refusalComparison compares refusals by decision; their Detail is CheckConsent's (TestCheckConsent).
var refusalComparison = cmpopts.IgnoreFields(kmsrecovery.ConsentError{}, "Detail")

// TestControllerConsent is the condition matrix of the package doc, with 150 undecryptable Secrets (more than
// one StorageReadError names) under the lost key. It asserts the verdict the condition is rendered from;
// TestConditionRendering renders verdicts.
func TestControllerConsent(t *testing.T) {
	const n = 150
	lost := map[string]int{"secrets kms:" + lostKey: n}
	scenarios := []struct {
		name    string
		setup   func(c *recoverytest.Cluster)
		consent string
		// noRaw runs the controller without etcd access; kms replaces the healthy KMS view.
		noRaw bool
		// credentialsLost runs it with an etcd client whose own credentials cannot be read.
		credentialsLost bool
		kms             kmsrecovery.KMSView
		noKMS           bool

		wantStatus operatorv1.ConditionStatus
		wantReason kmsrecovery.Reason
		// wantLeft are the undecryptable objects reported, by "<resource> <consent id>".
		wantLeft map[string]int
		// wantRefusal is the refusal of the consent, nil when there is none.
		wantRefusal *kmsrecovery.ConsentError
		// wantDeleted and wantFailed are the deletes under kms:key-lost that succeeded and failed in the sync.
		wantDeleted int
		wantFailed  int
		wantListed  int // objects in the ConfigMap; -1: no ConfigMap
		wantEvents  map[string]int
	}{
		{
			name:       "nothing undecryptable",
			setup:      func(c *recoverytest.Cluster) { addSecrets(c, "app", "ok", 3, liveKey, true) },
			wantStatus: operatorv1.ConditionFalse, wantReason: kmsrecovery.ReasonAsExpected,
			wantLeft:   map[string]int{},
			wantListed: -1,
			wantEvents: map[string]int{},
		},
		{
			name:       "missing consent: report, delete nothing",
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonUndecryptableObjects,
			wantLeft:    lost,
			wantRefusal: &kmsrecovery.ConsentError{Why: kmsrecovery.ReasonUndecryptableObjects, Found: []string{"kms:" + lostKey}, Count: n},
			wantListed:  n,
			wantEvents:  map[string]int{kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name:       "wrong key id: report, delete nothing",
			consent:    "key-typo",
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonConsentMismatch,
			wantLeft:    lost,
			wantRefusal: &kmsrecovery.ConsentError{Why: kmsrecovery.ReasonConsentMismatch, Consent: "key-typo", Found: []string{"kms:" + lostKey}, Count: n},
			wantListed:  n,
			wantEvents:  map[string]int{kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name:       "consent: delete exactly the 150",
			consent:    lostKey,
			wantStatus: operatorv1.ConditionFalse, wantReason: kmsrecovery.ReasonAsExpected,
			wantLeft:    map[string]int{},
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
			wantLeft:    map[string]int{"configmaps kms:key-other": 1},
			wantRefusal: &kmsrecovery.ConsentError{Why: kmsrecovery.ReasonUndecryptableObjects, Found: []string{"kms:key-other"}, Count: 1},
			wantDeleted: n,
			wantListed:  1,
			wantEvents:  map[string]int{kmsrecovery.EventObjectDeleted: n, kmsrecovery.EventDeletionFinished: 1, kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name:       "consent unknown without etcd access: nothing shows a lost key",
			noRaw:      true,
			consent:    kmsrecovery.UnknownConsentID,
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonConsentUnprovable,
			wantLeft: map[string]int{"secrets unknown": n},
			wantRefusal: &kmsrecovery.ConsentError{Why: kmsrecovery.ReasonConsentUnprovable, Consent: kmsrecovery.UnknownConsentID,
				Found: []string{kmsrecovery.UnknownConsentID}, Count: n},
			wantListed: n,
			wantEvents: map[string]int{kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name:            "etcd credentials lost: every object listed under unknown, with why",
			credentialsLost: true,
			wantStatus:      operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonUndecryptableObjects,
			wantLeft: map[string]int{"secrets unknown": n},
			wantRefusal: &kmsrecovery.ConsentError{Why: kmsrecovery.ReasonUndecryptableObjects,
				Found: []string{kmsrecovery.UnknownConsentID}, Count: n},
			wantListed: n,
			wantEvents: map[string]int{kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name:            "etcd credentials lost: a consent naming the lost key deletes nothing",
			credentialsLost: true,
			consent:         "kms:" + lostKey,
			wantStatus:      operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonConsentMismatch,
			wantLeft: map[string]int{"secrets unknown": n},
			wantRefusal: &kmsrecovery.ConsentError{Why: kmsrecovery.ReasonConsentMismatch, Consent: "kms:" + lostKey,
				Found: []string{kmsrecovery.UnknownConsentID}, Count: n},
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
			wantLeft: map[string]int{"secrets kms:" + lostKey: n, "configmaps identity": 1},
			wantRefusal: &kmsrecovery.ConsentError{Why: kmsrecovery.ReasonConsentUnprovable, Consent: "identity",
				Found: []string{"identity", "kms:" + lostKey}, Count: n + 1},
			wantListed: n + 1,
			wantEvents: map[string]int{kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name:       "consent names the KEK id the plugins serve",
			consent:    lostKey,
			kms:        stateView(kmsState(healthyOn(lostKey))),
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonConsentNamesCurrentKey,
			wantLeft:    lost,
			wantRefusal: &kmsrecovery.ConsentError{Why: kmsrecovery.ReasonConsentNamesCurrentKey, Consent: lostKey, Found: []string{"kms:" + lostKey}, Count: n},
			wantListed:  n,
			wantEvents:  map[string]int{kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name:    "consent while the current key's plugin is unhealthy",
			consent: lostKey,
			kms: stateView(kmsState([]operatorv1.KMSPluginHealthReport{
				healthReport("master-0", operatorv1.KMSPluginHealthStatusError, kmsrecovery.UnknownConsentID),
				healthReport("master-1", operatorv1.KMSPluginHealthStatusHealthy, liveKey),
			})),
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonKMSUnhealthy,
			wantLeft:    lost,
			wantRefusal: &kmsrecovery.ConsentError{Why: kmsrecovery.ReasonKMSUnhealthy, Consent: lostKey, Found: []string{"kms:" + lostKey}, Count: n},
			wantListed:  n,
			wantEvents:  map[string]int{kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name:       "consent without a KMS view",
			consent:    lostKey,
			noKMS:      true,
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonKMSUnhealthy,
			wantLeft:    lost,
			wantRefusal: &kmsrecovery.ConsentError{Why: kmsrecovery.ReasonKMSUnhealthy, Consent: lostKey, Found: []string{"kms:" + lostKey}, Count: n},
			wantListed:  n,
			wantEvents:  map[string]int{kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name: "a bare KEK id two providers have",
			setup: func(c *recoverytest.Cluster) {
				c.AddKMS(recoverytest.ConfigMaps, "app", "twin", "other-kms", lostKey, false)
			},
			consent:    lostKey,
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonConsentAmbiguous,
			wantLeft: map[string]int{"secrets kms:" + lostKey: n, "configmaps other-kms:" + lostKey: 1},
			wantRefusal: &kmsrecovery.ConsentError{Why: kmsrecovery.ReasonConsentAmbiguous, Consent: lostKey,
				Found: []string{"kms:" + lostKey, "other-kms:" + lostKey}, Count: n + 1},
			wantListed: n + 1,
			wantEvents: map[string]int{kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name: "a qualified KEK id two providers have: only that provider's objects",
			setup: func(c *recoverytest.Cluster) {
				c.AddKMS(recoverytest.ConfigMaps, "app", "twin", "other-kms", lostKey, false)
			},
			consent:    "kms:" + lostKey,
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonUndecryptableObjects,
			wantLeft:    map[string]int{"configmaps other-kms:" + lostKey: 1},
			wantRefusal: &kmsrecovery.ConsentError{Why: kmsrecovery.ReasonUndecryptableObjects, Found: []string{"other-kms:" + lostKey}, Count: 1},
			wantDeleted: n,
			wantListed:  1,
			wantEvents:  map[string]int{kmsrecovery.EventObjectDeleted: n, kmsrecovery.EventDeletionFinished: 1, kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
		},
		{
			name:       "consent without the RBAC verb",
			setup:      func(c *recoverytest.Cluster) { c.ForbidUnsafeDelete() },
			consent:    lostKey,
			wantStatus: operatorv1.ConditionTrue, wantReason: kmsrecovery.ReasonDeletionFailed,
			wantLeft:   lost,
			wantFailed: n,
			wantListed: n,
			wantEvents: map[string]int{kmsrecovery.EventObjectDeletionFailed: n, kmsrecovery.EventDeletionFinished: 1, kmsrecovery.EventUndecryptableObjects: 1, "ConfigMapCreated": 1},
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
			switch {
			case s.noRaw:
				raw = nil
			case s.credentialsLost:
				raw = kmsrecovery.EtcdValues(lostCredentials{})
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
			v := env.ctrl.LastVerdict()
			if got := v.Findings != nil && v.Findings.EtcdUnreadable != ""; got != s.credentialsLost {
				t.Errorf("findings say the etcd client's credentials were unreadable: %v, want %v", got, s.credentialsLost)
			}
			if diff := cmp.Diff(s.wantLeft, left(v)); diff != "" {
				t.Errorf("undecryptable objects reported (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(s.wantRefusal, refusal(t, v), refusalComparison); diff != "" {
				t.Errorf("refusal of the consent (-want +got):\n%s", diff)
			}
			if v.RecordErr != nil {
				t.Errorf("the full list was not written: %v", v.RecordErr)
			}
			switch d := v.Deletion; {
			case s.wantDeleted+s.wantFailed == 0 && d != nil:
				t.Errorf("deletion %s, want none", d)
			case s.wantDeleted+s.wantFailed > 0 && (d == nil || !v.DeletedNow || d.ConsentID != "kms:"+lostKey ||
				d.Count(kmsrecovery.OutcomeDeleted) != s.wantDeleted || d.Count(kmsrecovery.OutcomeFailed) != s.wantFailed):
				t.Errorf("deletion %v (in this sync: %v), want %d deleted and %d failed under kms:%s", d, v.DeletedNow, s.wantDeleted, s.wantFailed, lostKey)
			case d != nil:
				// Operators recreate what they own in openshift-* namespaces; the rest is for the admin to restore.
				for _, r := range d.Results {
					if r.OperatorManaged != strings.HasPrefix(r.Namespace, "openshift-") {
						t.Errorf("%s: operator managed %v", r.ObjectRef, r.OperatorManaged)
					}
				}
				if v.Recreated.Len() != 0 {
					t.Errorf("recreated %v right after the deletion", v.Recreated.UnsortedList())
				}
				for _, r := range d.Results {
					if r.Outcome == kmsrecovery.OutcomeFailed && r.Error == "" {
						t.Errorf("%s failed without an error", r.ObjectRef)
					}
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
	if !errors.Is(err, down) {
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
	if cond == nil || cond.Reason != string(kmsrecovery.ReasonUndecryptableObjects) {
		t.Errorf("after the retry: %+v, want UndecryptableObjects", cond)
	}
	// The condition reports the deletion with what is left.
	if v := env.ctrl.LastVerdict(); v.Deletion == nil || v.Deletion.Count(kmsrecovery.OutcomeDeleted) != 3 ||
		!cmp.Equal(left(v), map[string]int{"configmaps kms:key-other": 1}) {
		t.Errorf("after the retry: deletion %v with %v left, want the deletion of 3 and configmaps app/other", v.Deletion, left(v))
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
		wantLeft    map[string]int
		wantDeleted int
	}{
		{name: "no consent", wantReason: kmsrecovery.ReasonUndecryptableObjects, wantStatus: operatorv1.ConditionTrue,
			wantLeft: map[string]int{"secrets kms:" + lostKey: 3}},
		{name: "consent", consent: lostKey, wantReason: kmsrecovery.ReasonAsExpected, wantStatus: operatorv1.ConditionFalse,
			wantLeft: map[string]int{}, wantDeleted: 3},
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
			if cond == nil || cond.Status != tc.wantStatus || cond.Reason != string(tc.wantReason) {
				t.Fatalf("%s: %+v, want %s %s", kmsrecovery.ConditionDegraded, cond, tc.wantStatus, tc.wantReason)
			}
			// The condition is rendered with the ConfigMap's write error, to say where the list is instead.
			v := env.ctrl.LastVerdict()
			if !apierrors.IsInternalError(v.RecordErr) || !cmp.Equal(left(v), tc.wantLeft) {
				t.Errorf("verdict with %v left and the list's write error %v, want %v left and the decrypt error", left(v), v.RecordErr, tc.wantLeft)
			}
			if tc.wantDeleted > 0 && (v.Deletion == nil || v.Deletion.ConsentID != "kms:"+lostKey || v.Deletion.Count(kmsrecovery.OutcomeDeleted) != tc.wantDeleted) {
				t.Errorf("deletion %v, want %d deleted under kms:%s", v.Deletion, tc.wantDeleted, lostKey)
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
			if cond := env.condition(t); cond.Status != tc.wantStatus || cond.Reason != string(tc.wantReason) {
				t.Errorf("after the retry: %+v", cond)
			}
			if v := env.ctrl.LastVerdict(); v.RecordErr != nil {
				t.Errorf("after the retry the condition still says the list could not be written: %v", v.RecordErr)
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
	if cond := env.condition(t); cond == nil || cond.Reason != string(kmsrecovery.ReasonUndecryptableObjects) {
		t.Errorf("%s: %+v, want UndecryptableObjects", kmsrecovery.ConditionDegraded, cond)
	}
	if v := env.ctrl.LastVerdict(); !cmp.Equal(left(v), map[string]int{"secrets kms:" + lostKey: 3}) || v.RecordErr != nil {
		t.Errorf("reported %v left (list written: %v), want the 3 secrets under kms:%s in the list written afresh", left(v), v.RecordErr, lostKey)
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
	if cond == nil || cond.Reason != string(kmsrecovery.ReasonUndecryptableObjects) {
		t.Fatalf("%s: %+v, want UndecryptableObjects", kmsrecovery.ConditionDegraded, cond)
	}
	if v := env.ctrl.LastVerdict(); v.Findings.Count() != 4 || slices.ContainsFunc(v.Findings.Objects(), func(o kmsrecovery.Object) bool { return o.Namespace == operatorNamespace }) {
		t.Fatalf("reported %v, want the 3 Secrets and the user's ConfigMap, not the cache", left(v))
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

	env.sync(t)
	if takeLists(cluster) == 0 {
		t.Fatal("the first sync did not scan")
	}
	env.clock.SetTime(t0.Add(kmsrecovery.DefaultInterval - time.Second))
	env.sync(t)
	if n := takeLists(cluster); n != 0 {
		t.Errorf("a sync before the interval listed %d times", n)
	}
	env.clock.SetTime(t0.Add(kmsrecovery.DefaultInterval))
	env.sync(t)
	if takeLists(cluster) == 0 {
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
	etcdClient := kmsrecovery.ObjectRef{Resource: recoverytest.Secrets.GroupResource(), Namespace: "openshift-etcd", Name: "etcd-client"}
	cluster.Add(recoverytest.Secrets, "openshift-etcd", "etcd-client", liveKey, true)
	env.clock.SetTime(t0.Add(kmsrecovery.DefaultInterval))
	env.sync(t)

	cond := env.condition(t)
	// Of the 3 deleted, etcd-client came back; router-certs is its operator's to recreate, db-password no
	// operator's. TestConditionRendering says how the condition lists them.
	v := env.ctrl.LastVerdict()
	if diff := cmp.Diff([]kmsrecovery.ObjectRef{etcdClient}, v.Recreated.UnsortedList()); diff != "" {
		t.Errorf("recreated (-want +got):\n%s", diff)
	}
	managed := map[string]bool{}
	for _, r := range v.Deletion.Results {
		managed[r.Namespace+"/"+r.Name] = r.OperatorManaged
	}
	if want := map[string]bool{"openshift-etcd/etcd-client": true, "openshift-ingress/router-certs": true, "team-a/db-password": false}; !cmp.Equal(managed, want) {
		t.Errorf("deleted objects, operator managed: %v, want %v", managed, want)
	}
	if cond.Status != operatorv1.ConditionFalse {
		t.Errorf("condition %s %s, want False", cond.Status, cond.Reason)
	}
}

// TestControllerProbesEtcdAfterLosingItsCredentials: after a scan that could read no stored value, each sync
// reads one key (scheduling the next probe) and scans at once when that works, not an Interval later.
func TestControllerProbesEtcdAfterLosingItsCredentials(t *testing.T) {
	cluster := recoverytest.NewCluster()
	addSecrets(cluster, "app", "lost", 3, lostKey, false)
	raw := &credentialsSwitch{lost: true, lostKV: kmsrecovery.EtcdValues(lostCredentials{}), kv: cluster.Raw()}
	env := newControllerEnvWith(t, cluster, "", raw, healthyKMS())
	syncCtx := &probeSyncContext{SyncContext: factory.NewSyncContext("test", env.recorder)}
	sync := func(t *testing.T, after time.Duration) {
		t.Helper()
		env.clock.SetTime(t0.Add(after))
		syncCtx.requeued = nil
		if err := env.ctrl.Sync(context.Background(), syncCtx); err != nil {
			t.Fatalf("sync: %v", err)
		}
	}
	wantProbe := []time.Duration{kmsrecovery.EtcdProbeInterval}

	sync(t, 0)
	if v := env.ctrl.LastVerdict(); takeLists(cluster) == 0 || v.Findings == nil || v.Findings.EtcdUnreadable == "" {
		t.Fatalf("the first sync did not scan without etcd access: %+v", v.Findings)
	}
	if !slices.Equal(syncCtx.requeued, wantProbe) {
		t.Errorf("after a scan that could not read etcd, requeued after %v, want %v", syncCtx.requeued, wantProbe)
	}

	sync(t, kmsrecovery.EtcdProbeInterval)
	if n := takeLists(cluster); n != 0 {
		t.Errorf("a probe that could not read etcd either was followed by %d LISTs, want none before the interval", n)
	}
	if !slices.Equal(syncCtx.requeued, wantProbe) {
		t.Errorf("after a failed probe, requeued after %v, want %v", syncCtx.requeued, wantProbe)
	}

	raw.lost = false
	sync(t, 2*kmsrecovery.EtcdProbeInterval)
	if takeLists(cluster) == 0 {
		t.Fatal("no scan once etcd could be read again")
	}
	v := env.ctrl.LastVerdict()
	if v.Findings.EtcdUnreadable != "" {
		t.Errorf("the scan with etcd access still says it could not read etcd: %s", v.Findings.EtcdUnreadable)
	}
	if diff := cmp.Diff(map[string]int{"secrets kms:" + lostKey: 3}, left(v)); diff != "" {
		t.Errorf("undecryptable objects reported once etcd reads again (-want +got):\n%s", diff)
	}
	if len(syncCtx.requeued) != 0 {
		t.Errorf("requeued after %v with etcd readable, want no probe", syncCtx.requeued)
	}

	// Nothing to probe any more: the schedule is the Interval's again.
	sync(t, 3*kmsrecovery.EtcdProbeInterval)
	if n := takeLists(cluster); n != 0 || len(syncCtx.requeued) != 0 {
		t.Errorf("with etcd readable, a sync before the interval listed %d times and requeued after %v", n, syncCtx.requeued)
	}
}

// takeLists counts the LISTs the cluster served since the last call.
func takeLists(cluster *recoverytest.Cluster) int {
	n := 0
	for _, a := range cluster.Fake.Actions() {
		if _, ok := a.(clienttesting.ListAction); ok {
			n++
		}
	}
	cluster.Fake.ClearActions()
	return n
}

// credentialsSwitch reads through lostKV while lost, through kv otherwise.
type credentialsSwitch struct {
	lost       bool
	lostKV, kv kmsrecovery.RawValueReader
}

func (c *credentialsSwitch) RawValue(ctx context.Context, etcdKey string) ([]byte, error) {
	if c.lost {
		return c.lostKV.RawValue(ctx, etcdKey)
	}
	return c.kv.RawValue(ctx, etcdKey)
}

// probeSyncContext records the delays of the controller's own requeues.
type probeSyncContext struct {
	factory.SyncContext
	requeued []time.Duration
}

//nolint:staticcheck // library-go's factory.SyncContext.Queue returns the deprecated type.
func (s *probeSyncContext) Queue() workqueue.RateLimitingInterface {
	return probeQueue{s.SyncContext.Queue(), s}
}

type probeQueue struct {
	workqueue.RateLimitingInterface
	s *probeSyncContext
}

func (q probeQueue) AddAfter(_ any, d time.Duration) { q.s.requeued = append(q.s.requeued, d) }
