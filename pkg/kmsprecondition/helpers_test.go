package kmsprecondition

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

var t0 = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

const operandNamespace = "openshift-kube-apiserver"

var nodes = []string{"master-0", "master-1"}

func encryptionConfigSecret(name string, data []byte) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: operandNamespace, Name: name}, Data: map[string][]byte{"encryption-config": data}}
}

// keySecret is library-go's encryption-key-kube-apiserver-<id> secret, migrated for the given resources without
// a migrated-timestamp.
func keySecret(id string, migrated ...string) *corev1.Secret {
	return keySecretAt(id, time.Time{}, migrated...)
}

// keySecretAt is keySecret with the migrated-timestamp library-go's migration controller sets.
func keySecretAt(id string, migratedAt time.Time, migrated ...string) *corev1.Secret {
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{
		Namespace: "openshift-config-managed", Name: "encryption-key-kube-apiserver-" + id,
		Labels:      map[string]string{secrets.EncryptionKeySecretsLabel: "kube-apiserver"},
		Annotations: map[string]string{},
	}}
	if len(migrated) > 0 {
		var grs []string
		for _, r := range migrated {
			grs = append(grs, fmt.Sprintf(`{"Group":"","Resource":%q}`, r))
		}
		s.Annotations[secrets.EncryptionSecretMigratedResources] = `{"resources":[` + strings.Join(grs, ",") + `]}`
	}
	if !migratedAt.IsZero() {
		s.Annotations[secrets.EncryptionSecretMigratedTimestamp] = migratedAt.Format(time.RFC3339)
	}
	return s
}

// fakeCensus is the raw etcd evidence of a VerificationController: reports by resource and the migration time.
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

// health is kmsstate's own evaluation of the given reports, for keys on both nodes.
func health(keys []string, reports ...operatorv1.KMSPluginHealthReport) *kmsstate.State {
	state, _ := kmsstate.Evaluate(kmsstate.Config{}, kmsstate.Memory{}, kmsstate.Observation{Now: t0, Nodes: nodes, KeyIDs: keys, Reports: reports})
	return &state
}

func allHealthy(keys ...string) *kmsstate.State {
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

// preflightPassed is library-go's preflight status after a success for the current KMS configuration.
func preflightPassed() operatorv1.KMSPreflightCheck {
	return operatorv1.KMSPreflightCheck{ObservedConfigHash: "hashAAAA",
		Result: operatorv1.KMSPreflightResult{Status: operatorv1.KMSPreflightResultSucceeded, ConfigHash: "hashAAAA", RemoteKeyID: "kek-a"}}
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
