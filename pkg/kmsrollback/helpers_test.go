package kmsrollback

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/client-go/kubernetes/fake"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/conventionstest"
	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

var t0 = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

const (
	operandNamespace  = "openshift-kube-apiserver"
	operatorNamespace = "openshift-kube-apiserver-operator"
	managedNamespace  = "openshift-config-managed"
	managedName       = "encryption-config-kube-apiserver"
)

var nodes = []string{"master-0", "master-1"}

// configData is the data of an encryption-config secret holding config.
func configData(t *testing.T, config *apiserverv1.EncryptionConfiguration) map[string][]byte {
	t.Helper()
	return map[string][]byte{"encryption-config": ectest.Marshal(t, config)}
}

func revisionSecret(t *testing.T, revision int32, config *apiserverv1.EncryptionConfiguration) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: operandNamespace, Name: fmt.Sprintf("encryption-config-%d", revision)}, Data: configData(t, config)}
}

func report(node, key string, status operatorv1.KMSPluginHealthStatus, detail string) operatorv1.KMSPluginHealthReport {
	r := operatorv1.KMSPluginHealthReport{NodeName: node, KeyID: key, Status: status, Detail: detail, LastCheckedTime: metav1.NewTime(t0.Add(-10 * time.Second))}
	if status == operatorv1.KMSPluginHealthStatusHealthy {
		r.RemoteKeyID = "kek-a"
	}
	return r
}

func healthy(node, key string) operatorv1.KMSPluginHealthReport {
	return report(node, key, operatorv1.KMSPluginHealthStatusHealthy, "")
}

func unreachable(node, key string) operatorv1.KMSPluginHealthReport {
	return report(node, key, operatorv1.KMSPluginHealthStatusError, "connection refused: /var/run/kmsplugin/kms-"+key+".sock")
}

// health is a HealthReader over kmsstate's own evaluation of reports; set replaces the reports.
type health struct{ state kmsstate.State }

func (h *health) set(keys []string, reports ...operatorv1.KMSPluginHealthReport) {
	h.state, _ = kmsstate.Evaluate(kmsstate.Config{}, kmsstate.Memory{}, kmsstate.Observation{Now: t0, Nodes: nodes, KeyIDs: keys, Reports: reports})
}

// setWithAPIServerCallErrors replaces the reports, and has node's kube-apiserver count failed Status calls to
// the KMS provider of key (its metrics grew since the previous scrape): the apiserver's own view of its KMS.
func (h *health) setWithAPIServerCallErrors(keys []string, node, key string, reports ...operatorv1.KMSPluginHealthReport) {
	provider := key + "_secrets"
	call := kmsstate.KMSCall{Provider: provider, Method: "/v2.KeyManagementService/Status"}
	previous := &kmsstate.MetricsSample{KMSCallErrors: map[kmsstate.KMSCall]float64{call: 0}, ScrapedAt: t0.Add(-30 * time.Second)}
	h.state, _ = kmsstate.Evaluate(kmsstate.Config{}, kmsstate.Memory{}, kmsstate.Observation{Now: t0, Nodes: nodes, KeyIDs: keys, Reports: reports,
		Providers: map[string]string{provider: key},
		APIServers: []kmsstate.APIServerView{{NodeName: node, CheckedAt: t0,
			Metrics: &kmsstate.MetricsSample{KMSCallErrors: map[kmsstate.KMSCall]float64{call: 6}, ScrapedAt: t0, Previous: previous}}}})
}

func (h *health) Healthy(nodes, keyIDs []string) error { return h.state.Healthy(nodes, keyIDs) }

func newHealth(keys []string, reports ...operatorv1.KMSPluginHealthReport) *health {
	h := &health{}
	h.set(keys, reports...)
	return h
}

// fixture is a controller over fake clients.
type fixture struct {
	t        *testing.T
	kube     *fake.Clientset
	operator v1helpers.StaticPodOperatorClient
	// status is what the installer and revision controllers report. It is kept here rather than in the fake
	// operator client, whose ApplyOperatorStatus drops status.nodeStatuses.
	status     *operatorv1.StaticPodOperatorStatus
	health     *health
	admin      string
	clock      *clocktesting.FakeClock
	recorder   events.InMemoryRecorder
	controller *Controller
	store      *HoldStore
	resource   *operatorstate.FakeResource
	// rolloutErr, when set, is what reading the rollout fails with.
	rolloutErr error
}

func newFixture(t *testing.T, status *operatorv1.StaticPodOperatorStatus, h *health, objects ...runtime.Object) *fixture {
	t.Helper()
	f := &fixture{t: t, kube: fake.NewClientset(objects...), status: status, health: h, admin: "admin-1", clock: clocktesting.NewFakeClock(t0)}
	f.operator = v1helpers.NewFakeStaticPodOperatorClient(
		&operatorv1.StaticPodOperatorSpec{OperatorSpec: operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}}, &operatorv1.StaticPodOperatorStatus{}, nil, nil)
	f.recorder = events.NewInMemoryRecorder("kms-rollback-test", f.clock)
	f.resource = operatorstate.NewFakeResource()
	f.store = NewHoldStore(f.resource)
	f.controller = f.newController()
	return f
}

// newController builds a controller on the fixture's clients, as a restarted operator would.
func (f *fixture) newController() *Controller {
	f.t.Helper()
	c, err := NewController("kube-apiserver", f.options())
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

// options are the controller's options on the fixture's clients.
func (f *fixture) options() Options {
	return Options{
		Rollout: RolloutReaderFunc(func(context.Context) (Rollout, error) {
			if f.rolloutErr != nil {
				return Rollout{}, f.rolloutErr
			}
			return rolloutFromStatus(f.status, nil, DefaultNotReadyAfter, f.clock.Now()), nil
		}),
		Configs:        revisions.Secrets(f.kube.CoreV1(), operandNamespace, f.operator),
		Target:         ManagedEncryptionConfig(f.kube.CoreV1(), "kube-apiserver"),
		Health:         f.health,
		AdminConfig:    AdminConfigFunc(func(context.Context) (string, error) { return f.admin, nil }),
		Store:          f.store,
		OperatorClient: f.operator,
		Recorder:       f.recorder,
		Backoff:        Backoff{Initial: 10 * time.Minute, Max: time.Hour},
		Clock:          f.clock,
	}
}

func (f *fixture) sync() {
	f.t.Helper()
	if err := f.controller.sync(context.Background(), factory.NewSyncContext("test", f.recorder)); err != nil {
		f.t.Fatalf("sync: %v", err)
	}
}

func (f *fixture) condition() operatorv1.OperatorCondition {
	f.t.Helper()
	_, status, _, err := f.operator.GetOperatorState()
	if err != nil {
		f.t.Fatal(err)
	}
	conventionstest.ExpectRegisteredReasons(f.t, ConditionReasons(), status.Conditions...)
	c := v1helpers.FindOperatorCondition(status.Conditions, ConditionDegraded)
	if c == nil {
		f.t.Fatalf("no %s condition", ConditionDegraded)
	}
	return *c
}

// verdict is what attribute makes of the fixture's inputs now, with what the controller's witness saw: the typed
// verdict the controller's condition is rendered from.
func (f *fixture) verdict() Verdict {
	f.t.Helper()
	o := f.options()
	rollout, err := o.Rollout.Rollout(f.t.Context())
	if err != nil {
		f.t.Fatal(err)
	}
	v, err := attribute(f.t.Context(), rollout, o.Configs, o.Health, &f.controller.witness)
	if err != nil {
		f.t.Fatalf("attribute: %v", err)
	}
	return v
}

// setStatus replaces the operator status as the installer and revision controllers would.
func (f *fixture) setStatus(status *operatorv1.StaticPodOperatorStatus) { f.status = status }

// targetWrites counts the writes to the state controller's output secret.
func (f *fixture) targetWrites() int {
	n := 0
	for _, a := range f.kube.Actions() {
		if (a.GetVerb() == "create" || a.GetVerb() == "update") && a.GetResource().Resource == "secrets" && a.GetNamespace() == managedNamespace {
			if write, ok := a.(interface{ GetObject() runtime.Object }); ok && write.GetObject().(*corev1.Secret).Name == managedName {
				n++
			}
		}
	}
	return n
}

func (f *fixture) target() map[string][]byte {
	f.t.Helper()
	data, err := ManagedEncryptionConfig(f.kube.CoreV1(), "kube-apiserver").Current(context.Background())
	if err != nil {
		f.t.Fatal(err)
	}
	return data
}

func (f *fixture) holds() Holds {
	f.t.Helper()
	holds, err := f.store.Load(context.Background())
	if err != nil {
		f.t.Fatal(err)
	}
	return holds
}

// eventReasons are the controller's events, in order.
func (f *fixture) eventReasons() []string {
	var reasons []string
	for _, e := range f.recorder.Events() {
		if strings.HasPrefix(e.Reason, "KMS") {
			reasons = append(reasons, e.Reason)
		}
	}
	return reasons
}

// failedStatus: revision failed on master-0 (startup monitor fallback), which ran lastGood before; master-1 is
// still on lastGood.
func failedStatus(failed, lastGood int32) *operatorv1.StaticPodOperatorStatus {
	return &operatorv1.StaticPodOperatorStatus{
		OperatorStatus: operatorv1.OperatorStatus{LatestAvailableRevision: failed},
		NodeStatuses: []operatorv1.NodeStatus{
			{NodeName: "master-0", CurrentRevision: lastGood, TargetRevision: failed, LastFailedRevision: failed, LastFailedReason: "OperandFailedFallback",
				LastFallbackCount: 1, LastFailedRevisionErrors: []string{"fallback to last-known-good revision " + fmt.Sprint(lastGood) + " took place after: kube-apiserver not ready (Timeout)"}},
			{NodeName: "master-1", CurrentRevision: lastGood},
		},
	}
}

// convergedStatus: every node runs revision.
func convergedStatus(revision int32) *operatorv1.StaticPodOperatorStatus {
	return &operatorv1.StaticPodOperatorStatus{
		OperatorStatus: operatorv1.OperatorStatus{LatestAvailableRevision: revision},
		NodeStatuses:   []operatorv1.NodeStatus{{NodeName: "master-0", CurrentRevision: revision}, {NodeName: "master-1", CurrentRevision: revision}},
	}
}
