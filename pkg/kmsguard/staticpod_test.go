package kmsguard

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
	configinformers "github.com/openshift/client-go/config/informers/externalversions"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	operatorfake "github.com/openshift/client-go/operator/clientset/versioned/fake"
	"github.com/openshift/library-go/pkg/operator/encryption/controllers/migrators"
	"github.com/openshift/library-go/pkg/operator/encryption/statemachine"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/revisioncontroller"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	clientv3 "go.etcd.io/etcd/client/v3"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

const (
	operandNamespace  = "openshift-kube-apiserver"
	operatorNamespace = "openshift-kube-apiserver-operator"
)

// operatorDeployer and operatorMigrator stand for what the operator passes to library-go without kmsguard.
type operatorDeployer struct{ statemachine.Deployer }
type operatorMigrator struct{ migrators.Migrator }

// fixture is what kube-apiserver-operator's starter has before it builds its controllers.
type fixture struct {
	kube     *kubefake.Clientset
	operator v1helpers.StaticPodOperatorClient
	opts     StaticPodOptions
}

func newFixture(t *testing.T, status *operatorv1.StaticPodOperatorStatus, objects ...runtime.Object) *fixture {
	t.Helper()
	kube := kubefake.NewClientset(objects...)
	operator := v1helpers.NewFakeStaticPodOperatorClient(&operatorv1.StaticPodOperatorSpec{OperatorSpec: operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}}, status, nil, nil)
	configInformers := configinformers.NewSharedInformerFactory(configfake.NewClientset(), 0)
	return &fixture{kube: kube, operator: operator, opts: StaticPodOptions{
		Options: Options{
			InstanceName:         "kube-apiserver",
			OperandNamespace:     operandNamespace,
			OperatorNamespace:    operatorNamespace,
			EncryptedResources:   []schema.GroupResource{{Resource: "secrets"}, {Resource: "configmaps"}},
			KMSEncryptionEnabled: true,
			KubeClient:           kube,
			KubeInformers:        v1helpers.NewKubeInformersForNamespaces(kube, operandNamespace, operatorNamespace, encryptionconfig.ManagedNamespace),
			APIServerInformer:    configInformers.Config().V1().APIServers(),
			StatusProvider:       encryptionstatus.NewKubeAPIServer(operatorfake.NewClientset().OperatorV1().KubeAPIServers()),
			OperatorResource:     operatorstate.NewFakeResource(),
			Deployer:             operatorDeployer{},
			Migrator:             operatorMigrator{},
			Recorder:             events.NewInMemoryRecorder("kube-apiserver-operator", clocktesting.NewFakePassiveClock(metav1.Now().Time)),
			StubPreflight:        true,
		},
		OperatorClient:     operator,
		OperandPodSelector: labels.Set{"apiserver": "true"}.AsSelector(),
	}}
}

func TestNewStaticPodControllersNamesMissingOptions(t *testing.T) {
	_, err := NewStaticPodControllers(StaticPodOptions{Options: Options{Migration: &MigrationOptions{}, Etcd: &EtcdOptions{}}})
	if err == nil {
		t.Fatal("want an error for empty options")
	}
	for _, name := range []string{"InstanceName", "OperandNamespace", "OperatorNamespace", "OperatorResource", "EncryptedResources", "OperatorClient",
		"KubeClient", "KubeInformers", "APIServerInformer", "StatusProvider", "Deployer", "Migrator", "Recorder", "OperandPodSelector",
		"Migration.Dynamic and Migration.Mapper", "Etcd.KV", "Preflight (or StubPreflight)"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not name %s", err, name)
		}
	}
}

// TestKMSEncryptionDisabled: with the feature gate off the operator gets back what it had, the hooks pass, and the
// one controller that runs only removes kmsguard's conditions, writing nothing once there are none.
func TestKMSEncryptionDisabled(t *testing.T) {
	foreign := operatorv1.OperatorCondition{Type: "EncryptionMigrationControllerProgressing", Status: operatorv1.ConditionFalse}
	f := newFixture(t, &operatorv1.StaticPodOperatorStatus{OperatorStatus: operatorv1.OperatorStatus{Conditions: []operatorv1.OperatorCondition{
		{Type: "KMSPluginsDegraded", Status: operatorv1.ConditionTrue, Reason: "PluginUnreachable"},
		foreign,
		{Type: "KMSRolloutGateProgressing", Status: operatorv1.ConditionTrue},
		{Type: "KMSStateControllerDegraded", Status: operatorv1.ConditionFalse},
	}}})
	f.opts.KMSEncryptionEnabled = false
	f.opts.Migration = &MigrationOptions{Dynamic: dynamicfake.NewSimpleDynamicClient(runtime.NewScheme()), Mapper: restmapper.NewDiscoveryRESTMapper(nil)}
	f.opts.Etcd = &EtcdOptions{KV: unusedKV{}, Prefix: "/kubernetes.io"}

	c, err := NewStaticPodControllers(f.opts)
	if err != nil {
		t.Fatal(err)
	}
	if c.Deployer != f.opts.Deployer || c.Migrator != f.opts.Migrator {
		t.Errorf("Deployer %T, Migrator %T: want the operator's own", c.Deployer, c.Migrator)
	}
	if c.KMSState != nil || c.KMSMigrator != nil || c.Census != nil || len(c.runners) != 1 {
		t.Errorf("controllers built while disabled: kmsstate %v, migrator %v, census %v, %d runners", c.KMSState, c.KMSMigrator, c.Census, len(c.runners))
	}
	if ok, err := c.Precondition(t.Context()); !ok || err != nil {
		t.Errorf("Precondition = %v, %v; want true", ok, err)
	}
	if ok, err := c.ReadinessCheck(t.Context(), 3); !ok || err != nil {
		t.Errorf("ReadinessCheck = %v, %v; want true", ok, err)
	}

	writes := &countingOperatorClient{OperatorClient: f.operator}
	owned := sets.New(OwnedConditionTypes...)
	if err := removeConditions(t.Context(), writes, owned); err != nil {
		t.Fatal(err)
	}
	_, status, _, _ := f.operator.GetOperatorState()
	if len(status.Conditions) != 1 || status.Conditions[0].Type != foreign.Type {
		t.Errorf("conditions after the cleanup: %+v, want only %s", status.Conditions, foreign.Type)
	}
	if writes.updates != 1 {
		t.Errorf("%d status updates, want 1", writes.updates)
	}
	if err := removeConditions(t.Context(), writes, owned); err != nil {
		t.Fatal(err)
	}
	if writes.updates != 1 || writes.applies != 0 {
		t.Errorf("%d updates and %d applies after nothing was left to remove, want 1 and 0", writes.updates, writes.applies)
	}
	if actions := f.kube.Actions(); len(actions) != 0 {
		t.Errorf("API calls while disabled: %v", actions)
	}
}

// countingOperatorClient counts status writes.
type countingOperatorClient struct {
	v1helpers.OperatorClient
	updates, applies int
}

func (c *countingOperatorClient) UpdateOperatorStatus(ctx context.Context, rv string, status *operatorv1.OperatorStatus) (*operatorv1.OperatorStatus, error) {
	c.updates++
	return c.OperatorClient.UpdateOperatorStatus(ctx, rv, status)
}

func (c *countingOperatorClient) ApplyOperatorStatus(ctx context.Context, manager string, status *applyoperatorv1.OperatorStatusApplyConfiguration) error {
	c.applies++
	return c.OperatorClient.ApplyOperatorStatus(ctx, manager, status)
}

// TestKMSEncryptionEnabled: what is built for each set of optional options, and that the hooks work on an
// operator that runs no KMS yet.
func TestKMSEncryptionEnabled(t *testing.T) {
	mapper := restmapper.NewDiscoveryRESTMapper(nil)
	scenarios := []struct {
		name          string
		migration     *MigrationOptions
		etcd          *EtcdOptions
		wantMigrator  bool
		wantCensus    bool
		wantRunners   int
		wantMigration string
	}{
		{name: "the required options only", wantRunners: 2},
		{name: "with kmsguard's migrator", migration: &MigrationOptions{Dynamic: dynamicfake.NewSimpleDynamicClient(runtime.NewScheme()), Mapper: mapper}, wantMigrator: true, wantRunners: 3},
		{name: "with etcd but no recovery", etcd: &EtcdOptions{KV: unusedKV{}, Prefix: "/kubernetes.io"}, wantCensus: true, wantRunners: 3},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			f := newFixture(t, &operatorv1.StaticPodOperatorStatus{OperatorStatus: operatorv1.OperatorStatus{LatestAvailableRevision: 1}})
			f.opts.Migration, f.opts.Etcd = s.migration, s.etcd
			c, err := NewStaticPodControllers(f.opts)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := c.Deployer.(*kmsrollback.HoldingDeployer); !ok {
				t.Errorf("Deployer is %T, want the operator's wrapped in a *kmsrollback.HoldingDeployer", c.Deployer)
			}
			if s.wantMigrator != (c.KMSMigrator != nil) || s.wantMigrator && c.Migrator != c.KMSMigrator || !s.wantMigrator && c.Migrator != f.opts.Migrator {
				t.Errorf("Migrator %T, KMSMigrator %v; want kmsguard's: %v", c.Migrator, c.KMSMigrator, s.wantMigrator)
			}
			if s.wantCensus != (c.Census != nil) {
				t.Errorf("census %v, want one: %v", c.Census, s.wantCensus)
			}
			if c.KMSState == nil || len(c.runners) != s.wantRunners {
				t.Errorf("kmsstate %v, %d runners; want kmsstate and %d runners", c.KMSState, len(c.runners), s.wantRunners)
			}
			// No encryption config anywhere: no KMS change to hold.
			if ok, err := c.Precondition(t.Context()); !ok || err != nil {
				t.Errorf("Precondition = %v, %v; want true", ok, err)
			}
		})
	}
}

// TestDeploymentControllers: an operator whose operand is a Deployment gets kmsstate and the gate, no rollback, so
// its own deployer back; its nodes are the node provider's.
func TestDeploymentControllers(t *testing.T) {
	f := newFixture(t, &operatorv1.StaticPodOperatorStatus{OperatorStatus: operatorv1.OperatorStatus{LatestAvailableRevision: 1}})
	opts := DeploymentOptions{Options: f.opts.Options, OperatorClient: f.operator, NodeProvider: staticNodeProvider{"master-0", "master-1", "master-2"}}
	if _, err := NewDeploymentControllers(DeploymentOptions{Options: opts.Options}); err == nil || !strings.Contains(err.Error(), "kmsguard.DeploymentOptions: missing NodeProvider, OperatorClient") {
		t.Errorf("error %v, want one naming NodeProvider and OperatorClient", err)
	}
	c, err := NewDeploymentControllers(opts)
	if err != nil {
		t.Fatal(err)
	}
	if c.Deployer != f.opts.Deployer || c.Migrator != f.opts.Migrator {
		t.Errorf("Deployer %T, Migrator %T: want the operator's own", c.Deployer, c.Migrator)
	}
	if c.KMSState == nil || len(c.runners) != 1 {
		t.Errorf("kmsstate %v, %d runners; want kmsstate alone", c.KMSState, len(c.runners))
	}
	if ok, err := c.Precondition(t.Context()); !ok || err != nil {
		t.Errorf("Precondition = %v, %v; want true without encryption", ok, err)
	}
	opts.KMSEncryptionEnabled = false
	if c, err = NewDeploymentControllers(opts); err != nil || c.KMSState != nil || len(c.runners) != 1 {
		t.Errorf("disabled: %v, kmsstate %v; want the cleanup alone", err, c)
	}
}

// staticNodeProvider is a encryptiondeployer.MasterNodeProvider over fixed nodes.
type staticNodeProvider []string

func (p staticNodeProvider) MasterNodeNames() ([]string, error) { return p, nil }

func (staticNodeProvider) AddEventHandler(cache.ResourceEventHandler) []cache.InformerSynced {
	return nil
}

// unusedKV is an etcd client the census is built with but never runs in these tests.
type unusedKV struct{ clientv3.KV }

func TestAllReady(t *testing.T) {
	ready := func(context.Context, int32) (bool, error) { return true, nil }
	notReady := func(context.Context, int32) (bool, error) { return false, nil }
	failing := func(context.Context, int32) (bool, error) { return false, errors.New("cannot read revision") }
	asked := 0
	counted := func(context.Context, int32) (bool, error) { asked++; return true, nil }
	scenarios := []struct {
		name      string
		checks    []func(context.Context, int32) (bool, error)
		wantReady bool
		wantErr   bool
		wantAsked int
	}{
		{name: "every check ready", checks: []func(context.Context, int32) (bool, error){ready, counted}, wantReady: true, wantAsked: 1},
		{name: "the operator's check not ready stops there", checks: []func(context.Context, int32) (bool, error){notReady, counted}},
		{name: "kmsguard's check not ready", checks: []func(context.Context, int32) (bool, error){counted, notReady}, wantAsked: 1},
		{name: "an error is returned", checks: []func(context.Context, int32) (bool, error){failing, counted}, wantErr: true},
		{name: "a nil check is skipped", checks: []func(context.Context, int32) (bool, error){nil, counted}, wantReady: true, wantAsked: 1},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			asked = 0
			var checks []revisioncontroller.ReadinessCheckFunc
			for _, c := range s.checks {
				checks = append(checks, c)
			}
			got, err := AllReady(checks...)(t.Context(), 2)
			if got != s.wantReady || (err != nil) != s.wantErr || asked != s.wantAsked {
				t.Errorf("AllReady = %v, %v after asking the counted check %d times; want %v, error %v, %d", got, err, asked, s.wantReady, s.wantErr, s.wantAsked)
			}
		})
	}
}

// TestConfigKeys: kmsstate watches the keys of the deployed config, of the candidate and of held configs.
func TestConfigKeys(t *testing.T) {
	secret := func(name string, data []byte) *corev1.Secret {
		return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: operandNamespace, Name: name}, Data: map[string][]byte{"encryption-config": data}}
	}
	ectest := encryptionconfigtest.Marshal
	scenarios := []struct {
		name    string
		objects []runtime.Object
		held    []string
		heldErr error
		want    []string
		wantErr string
		// wantIncomplete: want with a kmsstate.IncompleteKeysError.
		wantIncomplete bool
	}{
		{name: "no encryption config", want: nil},
		{
			name: "deployed, candidate and held keys",
			objects: []runtime.Object{
				secret("encryption-config-1", ectest(t, encryptionconfigtest.Secrets(encryptionconfigtest.KMS("1"), encryptionconfigtest.Identity()))),
				secret("encryption-config", ectest(t, encryptionconfigtest.Secrets(encryptionconfigtest.KMS("2"), encryptionconfigtest.KMS("1"), encryptionconfigtest.Identity()))),
			},
			held: []string{"3"},
			want: []string{"1", "2", "3"},
		},
		{
			name: "the keys of the config the resource sync copies, before it is copied",
			objects: []runtime.Object{
				secret("encryption-config-1", ectest(t, encryptionconfigtest.Secrets(encryptionconfigtest.KMS("1"), encryptionconfigtest.Identity()))),
				&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: managedNamespace, Name: managedConfigName(operandNamespace)},
					Data: map[string][]byte{"encryption-config": ectest(t, encryptionconfigtest.Secrets(encryptionconfigtest.KMS("1"), encryptionconfigtest.Identity(), encryptionconfigtest.KMS("2")))}},
			},
			want: []string{"1", "2"},
		},
		{name: "an invalid candidate names its secret", objects: []runtime.Object{secret("encryption-config", []byte("kind: nope"))}, wantErr: operandNamespace + "/encryption-config"},
		{
			name:    "the holds cannot be read: the configs' keys, and what is missing",
			objects: []runtime.Object{secret("encryption-config-1", ectest(t, encryptionconfigtest.Secrets(encryptionconfigtest.KMS("1"), encryptionconfigtest.Identity())))},
			heldErr: errors.New("configmap unreadable"), want: []string{"1"}, wantIncomplete: true,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			f := newFixture(t, &operatorv1.StaticPodOperatorStatus{OperatorStatus: operatorv1.OperatorStatus{LatestAvailableRevision: 1}}, s.objects...)
			configs := revisions.Secrets(f.kube.CoreV1(), operandNamespace, f.operator)
			managed := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
			for _, o := range s.objects {
				if secret := o.(*corev1.Secret); secret.Namespace == managedNamespace {
					if err := managed.Add(secret); err != nil {
						t.Fatal(err)
					}
				}
			}
			keys, err := configKeys{
				configs: configs,
				synced:  configs.Synced(corev1listers.NewSecretLister(managed), managedNamespace, managedConfigName(operandNamespace)),
				holds:   staticHolds{ids: s.held, err: s.heldErr},
			}.KMSKeys(t.Context())
			if s.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantErr) {
					t.Fatalf("KMSKeys error %v, want one naming %q", err, s.wantErr)
				}
				return
			}
			var incomplete *kmsstate.IncompleteKeysError
			if gotIncomplete := errors.As(err, &incomplete); gotIncomplete != s.wantIncomplete || (err != nil && !gotIncomplete) {
				t.Fatalf("KMSKeys error %v, want incomplete %v", err, s.wantIncomplete)
			}
			if strings.Join(keys.IDs, ",") != strings.Join(s.want, ",") {
				t.Errorf("key ids %v, want %v", keys.IDs, s.want)
			}
		})
	}
}

type staticHolds struct {
	ids []string
	err error
}

func (h staticHolds) HeldKeyIDs(context.Context) ([]string, error) { return h.ids, h.err }

// TestStaticPodRunningKeys: each node runs the KMS keys of encryption-config-<currentRevision>; a node at revision 0
// runs none, a revision without an encryption config runs none, and one that cannot be decoded is an error naming
// it.
func TestStaticPodRunningKeys(t *testing.T) {
	secret := func(name string, data []byte) *corev1.Secret {
		return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: operandNamespace, Name: name}, Data: map[string][]byte{"encryption-config": data}}
	}
	ec := encryptionconfigtest.Marshal
	withKeys := func(ids ...string) []byte {
		providers := []apiserverv1.ProviderConfiguration{encryptionconfigtest.Identity()}
		for _, id := range ids {
			providers = append(providers, encryptionconfigtest.KMS(id))
		}
		return ec(t, encryptionconfigtest.Secrets(providers...))
	}
	nodes := func(revisions ...int32) []operatorv1.NodeStatus {
		var out []operatorv1.NodeStatus
		for i, r := range revisions {
			out = append(out, operatorv1.NodeStatus{NodeName: fmt.Sprintf("master-%d", i), CurrentRevision: r})
		}
		return out
	}
	scenarios := []struct {
		name    string
		nodes   []operatorv1.NodeStatus
		objects []runtime.Object
		want    map[string][]string
		wantErr string
	}{
		{
			name:    "a rollout half way: one node on the revision that adds key 2",
			nodes:   nodes(3, 2, 2),
			objects: []runtime.Object{secret("encryption-config-2", withKeys("1")), secret("encryption-config-3", withKeys("1", "2"))},
			want:    map[string][]string{"master-0": {"1", "2"}, "master-1": {"1"}, "master-2": {"1"}},
		},
		{
			name:    "a node with no revision yet, and a revision without an encryption config",
			nodes:   nodes(0, 1),
			objects: nil,
			want:    map[string][]string{"master-1": nil},
		},
		{
			name:    "an undecodable revision config is named",
			nodes:   nodes(4),
			objects: []runtime.Object{secret("encryption-config-4", []byte("kind: nope"))},
			wantErr: "encryption-config-4",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			f := newFixture(t, &operatorv1.StaticPodOperatorStatus{NodeStatuses: s.nodes}, s.objects...)
			got, err := staticPodRunningKeys{operator: f.operator, configs: revisions.Secrets(f.kube.CoreV1(), operandNamespace, f.operator)}.RunningKMSKeys(t.Context())
			if s.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantErr) {
					t.Fatalf("RunningKMSKeys error %v, want one naming %q", err, s.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !equality.Semantic.DeepEqual(got, s.want) {
				t.Errorf("RunningKMSKeys = %v, want %v", got, s.want)
			}
		})
	}
}
