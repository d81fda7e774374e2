package evidence_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	encryptionsecrets "github.com/openshift/library-go/pkg/operator/encryption/secrets"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	clientv3 "go.etcd.io/etcd/client/v3"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/client-go/kubernetes/fake"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/conventionstest"
	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/internal/etcdtest"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// errKEKIDNotSettled is kekIDs' answer for a key whose plugins kmsstate has not seen agree.
var errKEKIDNotSettled = errors.New("kmsstate has not seen its plugins agree on a KEK id yet")

// kekIDs is kmsstate's settled KEK id per key id.
type kekIDs map[string]string

func (k kekIDs) SettledKEKID(keyID string) (string, error) {
	kek, ok := k[keyID]
	if !ok {
		return "", errKEKIDNotSettled
	}
	return kek, nil
}

func deployedOnly(t *testing.T, config *apiserverv1.EncryptionConfiguration) revisions.ConfigSource {
	data := ectest.Marshal(t, config)
	return revisions.ConfigSourceFunc(func(context.Context) (revisions.Configs, error) {
		return revisions.Configs{Deployed: data, DeployedName: "ns/encryption-config-1"}, nil
	})
}

func TestTargetsFromConfig(t *testing.T) {
	apps := schema.GroupResource{Group: "apps", Resource: "deployments"}
	wildcardApps := &apiserverv1.EncryptionConfiguration{Resources: []apiserverv1.ResourceConfiguration{
		{Resources: []string{"secrets"}, Providers: []apiserverv1.ProviderConfiguration{ectest.KMS("1"), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()}},
		{Resources: []string{"configmaps"}, Providers: []apiserverv1.ProviderConfiguration{ectest.AESCBC("2", ectest.AESKeyB), ectest.Identity()}},
		{Resources: []string{"*.apps"}, Providers: []apiserverv1.ProviderConfiguration{ectest.KMS("1"), ectest.Identity()}},
	}}
	kms1 := evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: "1_secrets", KEKID: "kek-a"}
	scenarios := []struct {
		name      string
		deployed  *apiserverv1.EncryptionConfiguration
		resources []schema.GroupResource
		keks      kekIDs
		want      []evidence.Target
		wantErr   string
	}{
		{name: "nothing deployed"},
		{
			name: "one target per write key, wildcards resolved for the resources given", deployed: wildcardApps,
			resources: []schema.GroupResource{apps, {Resource: "events"}}, keks: kekIDs{"1": "kek-a"},
			want: []evidence.Target{
				// events is covered by no entry: stored in plaintext, nothing to prove.
				{WriteKey: evidence.WriteKey{Kind: etcdvalue.KindAESCBC, Name: "2"}, Resources: []evidence.Resource{{GroupResource: schema.GroupResource{Resource: "configmaps"}, Prefix: "/kubernetes.io/configmaps/"}}},
				{WriteKey: kms1, Resources: []evidence.Resource{{GroupResource: apps, Prefix: "/kubernetes.io/deployments/"}, {GroupResource: secretsGR, Prefix: "/kubernetes.io/secrets/"}}},
			},
		},
		{
			name: "identity writes", deployed: ectest.Secrets(ectest.Identity(), ectest.AESCBC("1", ectest.AESKeyA)),
			want: []evidence.Target{{WriteKey: evidence.WriteKey{Kind: etcdvalue.KindIdentity}, Resources: []evidence.Resource{{GroupResource: secretsGR, Prefix: "/kubernetes.io/secrets/"}}}},
		},
		{
			name: "a KMS v2 write key whose KEK id kmsstate has not settled", deployed: wildcardApps, keks: kekIDs{"2": "kek-b"},
			wantErr: "the write key of secrets: KMS key 1 (provider 1_secrets): kmsstate has not seen its plugins agree on a KEK id yet",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			source := revisions.ConfigSourceFunc(func(context.Context) (revisions.Configs, error) { return revisions.Configs{}, nil })
			if s.deployed != nil {
				source = deployedOnly(t, s.deployed).(revisions.ConfigSourceFunc)
			}
			targets, err := evidence.TargetsFromConfig(source, s.keks, evidence.TargetOptions{EtcdPrefix: "/kubernetes.io", Resources: s.resources})(context.Background())
			if s.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, s.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(s.want, targets); diff != "" {
				t.Errorf("targets (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGateOnCensus wires the CensusController as the rollout gate's evidence, with the real Census on an
// in-memory etcd and the configs in a fake clientset: the gate judges the drop of the aescbc read key of
// Secrets by what the scan found.
func TestGateOnCensus(t *testing.T) {
	deployed := ectest.Secrets(ectest.KMS("2"), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity())
	candidate := ectest.Secrets(ectest.KMS("2"), ectest.Identity())
	migrated := map[string][]byte{
		"/registry/secrets/a/one": etcdtest.KMSv2Value("2_secrets", "kek-a"),
		"/registry/secrets/b/two": etcdtest.KMSv2Value("2_secrets", "kek-a"),
	}
	withOld := map[string][]byte{
		"/registry/secrets/a/one": etcdtest.KMSv2Value("2_secrets", "kek-a"),
		"/registry/secrets/b/two": etcdtest.AESCBCValue("1"),
		"/registry/secrets/c/old": etcdtest.AESCBCValue("1"),
	}
	scenarios := []struct {
		name   string
		values map[string][]byte
		keks   kekIDs
		getErr error
		// finished is when the migration finished and now the gate's time, both relative to a moment before the
		// scan starts.
		finished, now time.Duration
		noMigration   bool

		wantVerified operatorv1.ConditionStatus
		wantAllowed  bool
		wantReason   kmsprecondition.Reason
		// wantRefusal is why the pruning rule keeps the aescbc read key on the census the gate read; "" when it
		// lets it go.
		wantRefusal evidence.PruneReason
		// wantCensusErr is what the census's failed sync wraps.
		wantCensusErr error
	}{
		{
			name: "values still under the aescbc key", values: withOld, keks: kekIDs{"2": "kek-a"}, finished: -time.Hour,
			wantVerified: operatorv1.ConditionFalse,
			wantReason:   kmsprecondition.ReasonReadKeyStillInUse, wantRefusal: evidence.PruneObjectsUnderKey,
		},
		{
			name: "migrated and verified, inside the window", values: migrated, keks: kekIDs{"2": "kek-a"}, finished: -time.Hour,
			wantVerified: operatorv1.ConditionTrue,
			wantReason:   kmsprecondition.ReasonRollbackWindowNotPassed, wantRefusal: evidence.PruneRollbackWindow,
		},
		{
			name: "migrated, verified and the window passed", values: migrated, keks: kekIDs{"2": "kek-a"}, finished: -time.Hour, now: 24 * time.Hour,
			wantVerified: operatorv1.ConditionTrue,
			wantAllowed:  true, wantReason: kmsprecondition.ReasonAsExpected,
		},
		{
			name: "verified, but no migration is known", values: migrated, keks: kekIDs{"2": "kek-a"}, noMigration: true, now: 48 * time.Hour,
			wantVerified: operatorv1.ConditionTrue,
			wantReason:   kmsprecondition.ReasonReadKeyStillInUse, wantRefusal: evidence.PruneMigrationNotFinished,
		},
		{
			name: "the scan started before the migration finished", values: migrated, keks: kekIDs{"2": "kek-a"}, finished: time.Hour, now: 48 * time.Hour,
			wantVerified: operatorv1.ConditionTrue,
			wantReason:   kmsprecondition.ReasonReadKeyStillInUse, wantRefusal: evidence.PruneReportPredatesMigration,
		},
		{
			name: "etcd unreadable", values: migrated, keks: kekIDs{"2": "kek-a"}, getErr: errEtcdRefused, finished: -time.Hour, now: 48 * time.Hour,
			wantVerified: operatorv1.ConditionUnknown, wantCensusErr: errEtcdRefused,
			wantReason: kmsprecondition.ReasonReadKeyStillInUse, wantRefusal: evidence.PruneNoReport,
		},
		{
			name: "KEK id of the write key not settled", values: migrated, finished: -time.Hour, now: 48 * time.Hour,
			wantVerified: operatorv1.ConditionUnknown, wantCensusErr: errKEKIDNotSettled,
			wantReason: kmsprecondition.ReasonReadKeyStillInUse, wantRefusal: evidence.PruneNoReport,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			const namespace = "openshift-kube-apiserver"
			kube := fake.NewClientset(
				&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: "encryption-config"}, Data: map[string][]byte{"encryption-config": ectest.Marshal(t, candidate)}},
				&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: "encryption-config-1"}, Data: map[string][]byte{"encryption-config": ectest.Marshal(t, deployed)}},
			)
			operator := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{LatestAvailableRevision: 1}, nil)
			configs := revisions.Secrets(kube.CoreV1(), namespace, operator)
			kv := etcdtest.NewKV()
			for key, value := range s.values {
				kv.Store(key, value)
			}
			kv.BeforeGet = func(int, clientv3.Op) error { return s.getErr }

			base := time.Now() // the scan starts after it: Verify stamps reports with the real clock
			recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(base))
			census := newTestCensusController(t, "kube-apiserver", evidence.CensusControllerOptions{
				Census:         evidence.NewCensus(kv, evidence.CensusOptions{Counter: newStoreCounter(kv)}),
				Targets:        evidence.TargetsFromConfig(configs, s.keks, evidence.TargetOptions{}),
				OperatorClient: operator,
				Recorder:       recorder,
				MigrationFinished: func(_ context.Context, gr schema.GroupResource) (time.Time, error) {
					if s.noMigration || gr != secretsGR {
						return time.Time{}, nil
					}
					return base.Add(s.finished), nil
				},
			})
			censusErr := census.Sync(context.Background(), factory.NewSyncContext("test", recorder))
			if (censusErr != nil) != (s.wantCensusErr != nil) || !errors.Is(censusErr, s.wantCensusErr) {
				t.Errorf("census error %v, want %v", censusErr, s.wantCensusErr)
			}
			_, status, _, _ := operator.GetOperatorState()
			verified := v1helpers.FindOperatorCondition(status.Conditions, evidence.ConditionVerified)
			if verified == nil || verified.Status != s.wantVerified {
				t.Fatalf("KMSEncryptionVerified %+v, want %s", verified, s.wantVerified)
			}
			conventionstest.ExpectRegisteredReasons(t, evidence.ConditionReasons(), *verified)

			gate, err := kmsprecondition.NewGate("kube-apiserver", kmsprecondition.Options{
				Configs:        configs,
				Nodes:          kmsstate.NodeListerFunc(func(context.Context) ([]string, error) { return []string{"master-0"}, nil }),
				Health:         emptyVerdict{},
				Census:         census,
				OperatorClient: operator,
				Recorder:       recorder,
				Clock:          clocktesting.NewFakePassiveClock(base.Add(s.now)),
			})
			if err != nil {
				t.Fatal(err)
			}
			allowed, err := gate.Precondition(context.Background())
			if err != nil || allowed != s.wantAllowed {
				t.Fatalf("Precondition = %v, %v; want %v", allowed, err, s.wantAllowed)
			}
			_, status, _, _ = operator.GetOperatorState()
			progressing := v1helpers.FindOperatorCondition(status.Conditions, kmsprecondition.ConditionProgressing)
			if progressing == nil || progressing.Reason != string(s.wantReason) {
				t.Errorf("KMSRolloutGateProgressing %+v, want %s", progressing, s.wantReason)
			}
			// What the gate judged the drop by: the census's report of secrets and the migration's end, through
			// the one pruning rule (kmsprecondition's tests show the gate applies its refusal).
			report, finished, err := census.ReadKeyEvidence(context.Background(), secretsGR)
			if err != nil {
				t.Fatal(err)
			}
			var refusal evidence.PruneReason
			var pe *evidence.PruneError
			if err := evidence.CanDropReadKey(report, evidence.ReadKey{Kind: etcdvalue.KindAESCBC, Name: "1"}, finished, kmsprecondition.DefaultRollbackWindow, base.Add(s.now)); errors.As(err, &pe) {
				refusal = pe.Reason
			} else if err != nil {
				t.Fatalf("CanDropReadKey: %v", err)
			}
			if refusal != s.wantRefusal {
				t.Errorf("the pruning rule refuses the drop with %q, want %q", refusal, s.wantRefusal)
			}
		})
	}
}

// TestReadKeyEvidence: the evidence is the last successful scan narrowed to the resource asked for; a resource no
// scan covered, a wildcard included, has none.
func TestReadKeyEvidence(t *testing.T) {
	kv := etcdtest.NewKV()
	kv.Store("/registry/secrets/a/one", etcdtest.KMSv2Value("1_secrets", "kek-b"))
	configmaps := schema.GroupResource{Resource: "configmaps"}
	recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
	finished := t0.Add(-time.Hour)
	c := newTestCensusController(t, "test", evidence.CensusControllerOptions{
		Census: evidence.NewCensus(kv, evidence.CensusOptions{Counter: newStoreCounter(kv)}),
		Targets: func(context.Context) ([]evidence.Target, error) {
			return []evidence.Target{{
				WriteKey:  evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: "1_secrets", KEKID: "kek-b"},
				Resources: []evidence.Resource{evidence.BuiltInResource("/registry", secretsGR), evidence.BuiltInResource("/registry", configmaps)},
			}}, nil
		},
		OperatorClient:    v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
		Recorder:          recorder,
		MigrationFinished: func(context.Context, schema.GroupResource) (time.Time, error) { return finished, nil },
	})
	if report, at, err := c.ReadKeyEvidence(context.Background(), secretsGR); report != nil || !at.Equal(finished) || err != nil {
		t.Fatalf("before any scan: %v, %v, %v; want no report", report, at, err)
	}
	if err := c.Sync(context.Background(), factory.NewSyncContext("test", recorder)); err != nil {
		t.Fatal(err)
	}
	report, at, err := c.ReadKeyEvidence(context.Background(), secretsGR)
	if err != nil || report == nil || !at.Equal(finished) {
		t.Fatalf("after a scan: %v, %v, %v", report, at, err)
	}
	if len(report.Resources) != 1 || report.Resources[0].Resource != "secrets" || report.Resources[0].Total != 1 || report.WriteKey.KEKID != "kek-b" {
		t.Errorf("the report of secrets is %+v", report)
	}
	for _, gr := range []schema.GroupResource{{Resource: "routes", Group: "route.openshift.io"}, {Group: "*", Resource: "*"}} {
		if report, _, _ := c.ReadKeyEvidence(context.Background(), gr); report != nil {
			t.Errorf("%s, which no scan covered, has a report: %+v", gr, report)
		}
	}
}

// TestMigrationFinishedSources: library-go's migrated-timestamp, the Migrator's own record and their combination.
func TestMigrationFinishedSources(t *testing.T) {
	at := func(s string) time.Time { ts, _ := time.Parse(time.RFC3339, s); return ts }
	early, late := func(context.Context, schema.GroupResource) (time.Time, error) { return at("2026-12-01T10:00:00Z"), nil },
		func(context.Context, schema.GroupResource) (time.Time, error) { return at("2026-12-02T10:00:00Z"), nil }
	none := func(context.Context, schema.GroupResource) (time.Time, error) { return time.Time{}, nil }
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for id, migratedAt := range map[string]string{"1": "2026-11-01T10:00:00Z", "2": "2026-11-20T10:00:00Z", "3": ""} {
		s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-config-managed", Name: "encryption-key-kube-apiserver-" + id,
			Labels: map[string]string{encryptionsecrets.EncryptionKeySecretsLabel: "kube-apiserver"}, Annotations: map[string]string{}}}
		if migratedAt != "" {
			s.Annotations[encryptionsecrets.EncryptionSecretMigratedResources] = `{"resources":[{"Group":"","Resource":"secrets"}]}`
			s.Annotations[encryptionsecrets.EncryptionSecretMigratedTimestamp] = migratedAt
		}
		if err := indexer.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	librarygo := evidence.MigratedTimestamps(corev1listers.NewSecretLister(indexer), "kube-apiserver")
	onlyConfigMaps := func(ctx context.Context, _ schema.GroupResource) (time.Time, error) {
		return librarygo(ctx, schema.GroupResource{Resource: "configmaps"})
	}
	scenarios := []struct {
		name string
		f    evidence.MigrationFinishedFunc
		want time.Time
	}{
		{"library-go: the newest key listing the resource", librarygo, at("2026-11-20T10:00:00Z")},
		{"library-go: no key lists the resource", onlyConfigMaps, time.Time{}},
		{"library-go and a later migration of kmsguard's", evidence.LatestFinished(librarygo, late), at("2026-12-02T10:00:00Z")},
		{"latest wins", evidence.LatestFinished(early, late, none), at("2026-12-02T10:00:00Z")},
		{"none known", evidence.LatestFinished(none), time.Time{}},
		{"no source", evidence.LatestFinished(), time.Time{}},
	}
	for _, s := range scenarios {
		if got, err := s.f(context.Background(), secretsGR); err != nil || !got.Equal(s.want) {
			t.Errorf("%s: %v, %v; want %v", s.name, got, err, s.want)
		}
	}
}

// emptyVerdict is kmsstate's fresh verdict on no plugin: these candidates change no KMS key.
type emptyVerdict struct{}

func (emptyVerdict) Current() (kmsstate.State, error) { return kmsstate.State{}, nil }
