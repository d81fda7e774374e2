package kmsprecondition_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiserverconfigv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/kmsguard/kmsguard/pkg/evidence"
)

// ExampleKeySecretMigrations asks library-go's key secrets whether a candidate config may drop read key 1. The
// gate is built by kmsguard.NewStaticPodControllers (see kmsguard's Example); this shows instead the evidence it
// judges a dropped read key by when the operator gives kmsguard no etcd access (kmsguard.Options.Etcd nil).
func ExampleKeySecretMigrations() {
	// library-go labels its key secrets with its encryption component, the operand namespace.
	const component = "openshift-kube-apiserver"
	migratedAt := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	// Keys 1 and 2, as library-go's key controller writes them; its migration controller has since rewritten
	// every secret under key 2, but no configmap.
	keySecrets := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, key := range []state.KeyState{
		{Key: apiserverconfigv1.Key{Name: "1"}, Mode: state.AESCBC},
		{Key: apiserverconfigv1.Key{Name: "2"}, Mode: state.AESCBC,
			Migrated: state.MigrationState{Timestamp: migratedAt, Resources: []schema.GroupResource{{Resource: "secrets"}}}},
	} {
		key.Key.Secret = base64.StdEncoding.EncodeToString(make([]byte, 32))
		secret, err := secrets.FromKeyState(component, key)
		if err != nil {
			panic(err)
		}
		_ = keySecrets.Add(secret)
	}
	// kmsguard lists them from its informer on openshift-config-managed.
	migrations := evidence.KeySecretMigrations(corev1listers.NewSecretLister(keySecrets), component)

	for _, ask := range []struct {
		resource string
		keyID    string
	}{{"secrets", "1"}, {"configmaps", "1"}, {"secrets", "2"}, {"secrets", "identity"}} {
		record, err := migrations.Rewritten(context.Background(), schema.GroupResource{Resource: ask.resource}, ask.keyID)
		if err != nil {
			panic(err)
		}
		if record.Rewritten {
			fmt.Printf("%s key %s: rewritten, window from %s\n", ask.resource, ask.keyID, record.Finished.Format(time.RFC3339))
			continue
		}
		fmt.Printf("%s key %s: in use, %s\n", ask.resource, ask.keyID, record.Missing)
	}
	// Output:
	// secrets key 1: rewritten, window from 2025-03-01T12:00:00Z
	// configmaps key 1: in use, no key newer than 1 lists configmaps in encryption.apiserver.operator.openshift.io/migrated-resources
	// secrets key 2: in use, no key newer than 2 lists secrets in encryption.apiserver.operator.openshift.io/migrated-resources
	// secrets key identity: in use, key "identity" is not a library-go key id, so no migration evidence can exist for it
}
