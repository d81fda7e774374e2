package kmsprecondition

import (
	"context"
	"encoding/base64"
	"errors"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

var t0 = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

const operandNamespace = "openshift-kube-apiserver"

var nodes = []string{"master-0", "master-1"}

func encryptionConfigSecret(name string, data []byte) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: operandNamespace, Name: name}, Data: map[string][]byte{"encryption-config": data}}
}

// keySecret is library-go's KMS key secret encryption-key-kube-apiserver-<id>, migrated for the given resources
// without a migrated-timestamp.
func keySecret(id string, migrated ...string) *corev1.Secret {
	return keySecretAt(id, time.Time{}, migrated...)
}

// keySecretAt is keySecret with the migrated-timestamp library-go's migration controller sets. It is made by
// library-go's own secrets.FromKeyState from the key state its key controller builds for a Vault KMS key.
func keySecretAt(id string, migratedAt time.Time, migrated ...string) *corev1.Secret {
	ks := vaultKeyState(id)
	ks.Migrated.Timestamp = migratedAt
	for _, r := range migrated {
		ks.Migrated.Resources = append(ks.Migrated.Resources, schema.GroupResource{Resource: r})
	}
	s, err := secrets.FromKeyState("kube-apiserver", ks)
	if err != nil {
		panic(err)
	}
	return s
}

// vaultKeyState is the state library-go's key controller gives KMS key id: the APIServer's Vault configuration
// and the AppRole credentials and CA bundle it copied. Each key has its own Vault key path, so each has its own
// configuration hash.
func vaultKeyState(id string) state.KeyState {
	ks := state.KeyState{
		Key:  apiserverv1.Key{Name: id, Secret: base64.StdEncoding.EncodeToString([]byte("0123456789abcdef0123456789abcdef"))},
		Mode: state.KMS,
		KMS: &state.KMSState{
			Encryption: &apiserverv1.KMSConfiguration{APIVersion: "v2", Name: id, Endpoint: "unix:///var/run/kmsplugin/kms-" + id + ".sock"},
			Plugin: configv1.KMSPluginConfig{Type: configv1.VaultKMSProvider, Vault: configv1.VaultKMSPluginConfig{
				VaultAddress: "https://vault.example.com:8200", VaultKeyPath: "transit/keys/cluster-" + id,
				Authentication: configv1.VaultAuthentication{Type: configv1.VaultAuthenticationTypeAppRole,
					AppRole: configv1.VaultAppRoleAuthentication{Secret: configv1.VaultSecretReference{Name: "vault-approle"}}},
				TLS: configv1.VaultTLSConfig{CABundle: configv1.VaultConfigMapReference{Name: "vault-ca"}},
			}},
		},
	}
	for k, v := range map[string]string{"role-id": "role-" + id, "secret-id": "secret-" + id} {
		if err := ks.KMS.PluginSecretData.Set("vault-approle", k, []byte(v)); err != nil {
			panic(err)
		}
	}
	if err := ks.KMS.PluginConfigMapData.Set("vault-ca", "ca-bundle.crt", []byte("-----BEGIN CERTIFICATE-----")); err != nil {
		panic(err)
	}
	return ks
}

// preflightOf is library-go's preflight status after a result for key id's configuration: status Succeeded or
// Failed, remoteKeyID "always-succeed" for the stub.
func preflightOf(id string, status operatorv1.KMSPreflightResultStatus, remoteKeyID string) operatorv1.KMSPreflightCheck {
	hash, err := KMSConfigHash(vaultKeyState(id))
	if err != nil {
		panic(err)
	}
	return operatorv1.KMSPreflightCheck{ObservedConfigHash: hash,
		Result: operatorv1.KMSPreflightResult{Status: status, ConfigHash: hash, RemoteKeyID: remoteKeyID}}
}

// fakeCensus is the raw etcd evidence of a CensusController: reports by resource and the migration time.
type fakeCensus struct {
	reports  map[string]*evidence.Report
	finished time.Time
}

func (f *fakeCensus) ReadKeyEvidence(_ context.Context, gr schema.GroupResource) (*evidence.Report, time.Time, error) {
	return f.reports[gr.String()], f.finished, nil
}

// censusWriteKey is the write key of the census reports: KMS key 2's provider at KEK id kek-a.
var censusWriteKey = evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: "2_secrets", KEKID: "kek-a"}

// census is a report of one resource started at started: 5 values under the write key and the given others.
func census(resource string, started time.Time, others map[evidence.Key]int64) *evidence.Report {
	rr := evidence.ResourceReport{Resource: resource, Prefix: "/registry/" + resource + "/", Total: 5, UnderWriteKey: 5,
		Keys: []evidence.KeyCount{{Key: evidence.Key{Kind: etcdvalue.KindKMSv2, Name: "2_secrets", KEKID: "kek-a", DEKSourceType: etcdvalue.DEKSourceHKDFSeed}, Count: 5, WriteKey: true}}}
	for k, n := range others {
		rr.Keys = append(rr.Keys, evidence.KeyCount{Key: k, Count: n})
		rr.Total += n
		rr.NotUnderWriteKey += n
	}
	// The API lists as many objects as the scan found keys, at the scan's revision.
	rr.APICount = &evidence.APICount{Objects: rr.Total, Comparison: evidence.CompareExact}
	return &evidence.Report{WriteKey: censusWriteKey, Started: started, Resources: []evidence.ResourceReport{rr}}
}

func secretLister(t *testing.T, objs ...*corev1.Secret) corev1listers.SecretLister {
	t.Helper()
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, o := range objs {
		if err := indexer.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	return corev1listers.NewSecretLister(indexer)
}

func healthyReport(node, key string) operatorv1.KMSPluginHealthReport {
	return operatorv1.KMSPluginHealthReport{NodeName: node, KeyID: key, Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "kek-a", LastCheckedTime: metav1.NewTime(t0.Add(-10 * time.Second))}
}

// kmsVerdict is a HealthReader that answers with one evaluation, or with err.
type kmsVerdict struct {
	state kmsstate.State
	err   error
}

func (v kmsVerdict) Current() (kmsstate.State, error) { return v.state, v.err }

// health is kmsstate's own evaluation of the given reports, for keys on both nodes.
func health(keys []string, reports ...operatorv1.KMSPluginHealthReport) kmsVerdict {
	state, _ := kmsstate.Evaluate(kmsstate.Config{}, kmsstate.Memory{}, kmsstate.Observation{Now: t0, Nodes: nodes, KeyIDs: keys, Reports: reports})
	return kmsVerdict{state: state}
}

func allHealthy(keys ...string) kmsVerdict {
	var reports []operatorv1.KMSPluginHealthReport
	for _, n := range nodes {
		for _, k := range keys {
			reports = append(reports, healthyReport(n, k))
		}
	}
	return health(keys, reports...)
}

func condition(conditionType string, status operatorv1.ConditionStatus, reason, message string) operatorv1.OperatorCondition {
	return operatorv1.OperatorCondition{Type: conditionType, Status: status, Reason: reason, Message: message}
}

// preflightStatus is an operator resource's encryption status that holds a preflight and nothing else; the gate
// only reads it.
type preflightStatus operatorv1.KMSPreflightCheck

func (p preflightStatus) GetKMSEncryptionStatus(context.Context) (*operatorv1.KMSEncryptionStatus, error) {
	return &operatorv1.KMSEncryptionStatus{Preflight: operatorv1.KMSPreflightCheck(p)}, nil
}

func (preflightStatus) ApplyKMSEncryptionStatus(context.Context, string, *applyoperatorv1.KMSEncryptionStatusApplyConfiguration) error {
	return errors.New("the gate must not write the encryption status")
}

func (preflightStatus) UpdateKMSEncryptionStatus(context.Context, func(*operatorv1.KMSEncryptionStatus)) error {
	return errors.New("the gate must not write the encryption status")
}
