package kmsprecondition

import (
	"fmt"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"sigs.k8s.io/yaml"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

var t0 = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

const operandNamespace = "openshift-kube-apiserver"

var nodes = []string{"master-0", "master-1"}

// kms is a KMS v2 provider as library-go writes it: name <id>_<resource>, endpoint kms-<id>.sock.
func kms(id string) apiserverv1.ProviderConfiguration {
	return apiserverv1.ProviderConfiguration{KMS: &apiserverv1.KMSConfiguration{
		APIVersion: "v2", Name: id + "_secrets", Endpoint: fmt.Sprintf("unix:///var/run/kmsplugin/kms-%s.sock", id),
		Timeout: &metav1.Duration{Duration: 10 * time.Second},
	}}
}

func aescbc(name, secret string) apiserverv1.ProviderConfiguration {
	return apiserverv1.ProviderConfiguration{AESCBC: &apiserverv1.AESConfiguration{Keys: []apiserverv1.Key{{Name: name, Secret: secret}}}}
}

func identity() apiserverv1.ProviderConfiguration {
	return apiserverv1.ProviderConfiguration{Identity: &apiserverv1.IdentityConfiguration{}}
}

// 32 bytes, base64.
const (
	aesKeyA = "dGhpcnR5LXR3by1ieXRlLWtleS1mb3ItYWVzY2JjLUE="
	aesKeyB = "dGhpcnR5LXR3by1ieXRlLWtleS1mb3ItYWVzY2JjLUI="
)

// secretsConfig encrypts secrets with providers in order, and configmaps with aescbc key aesKey when set.
func secretsConfig(providers ...apiserverv1.ProviderConfiguration) *apiserverv1.EncryptionConfiguration {
	return &apiserverv1.EncryptionConfiguration{Resources: []apiserverv1.ResourceConfiguration{{Resources: []string{"secrets"}, Providers: providers}}}
}

func withConfigMaps(c *apiserverv1.EncryptionConfiguration, providers ...apiserverv1.ProviderConfiguration) *apiserverv1.EncryptionConfiguration {
	c.Resources = append(c.Resources, apiserverv1.ResourceConfiguration{Resources: []string{"configmaps"}, Providers: providers})
	return c
}

func marshal(t *testing.T, c *apiserverv1.EncryptionConfiguration) []byte {
	t.Helper()
	if c == nil {
		return nil
	}
	c = c.DeepCopy()
	c.APIVersion, c.Kind = "apiserver.config.k8s.io/v1", "EncryptionConfiguration"
	data, err := yaml.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func encryptionConfigSecret(name string, data []byte) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: operandNamespace, Name: name}, Data: map[string][]byte{"encryption-config": data}}
}

// keySecret is library-go's encryption-key-kube-apiserver-<id> secret, migrated for the given resources.
func keySecret(id string, migrated ...string) *corev1.Secret {
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
	return s
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
	return operatorv1.KMSPluginHealthReport{NodeName: node, KeyId: key, Status: operatorv1.KMSPluginHealthStatusHealthy, KEKId: "kek-a", LastCheckedTime: metav1.NewTime(t0.Add(-10 * time.Second))}
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

// preflightPassed are library-go's preflight conditions after a success for the current KMS configuration.
func preflightPassed() []operatorv1.OperatorCondition {
	return []operatorv1.OperatorCondition{
		condition(ConditionPreflightRequired, operatorv1.ConditionTrue, "", "hash-A"),
		condition(ConditionPreflightSucceeded, operatorv1.ConditionTrue, "", "hash-A"),
	}
}
