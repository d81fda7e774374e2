package kmsprecondition

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	corev1listers "k8s.io/client-go/listers/core/v1"
)

// MigrationEvidence answers whether every object of a resource that may have been written under a KMS key has
// since been rewritten under a newer key, so that the key may leave the config. It returns the answer and, when
// false, what evidence is missing. kmsmigration will implement it from raw etcd evidence; until then
// KeySecretMigrations reads library-go's annotations.
type MigrationEvidence interface {
	Rewritten(ctx context.Context, resource schema.GroupResource, keyID string) (bool, string, error)
}

// keySecretsNamespace is where library-go keeps the encryption-key-<component>-<id> secrets.
const keySecretsNamespace = "openshift-config-managed"

// KeySecretMigrations is the MigrationEvidence of library-go's key secrets: a key's data has been rewritten when
// a newer key of the component (any mode) lists the resource in its migrated-resources annotation. library-go
// sets that annotation only after its migrator rewrote every object of the resource with that key, and key ids
// only grow, so nothing written before can still be under an older key. This mirrors library-go's own pruning
// rule (state.KeysWithPotentiallyPersistedDataAndNextReadKey). A key that is not one of library-go's numeric ids
// has no such evidence and stays in use.
func KeySecretMigrations(lister corev1listers.SecretLister, component string) MigrationEvidence {
	return &keySecretMigrations{lister: lister, component: component}
}

type keySecretMigrations struct {
	lister    corev1listers.SecretLister
	component string
}

func (m *keySecretMigrations) Rewritten(_ context.Context, resource schema.GroupResource, keyID string) (bool, string, error) {
	dropped, err := strconv.ParseUint(keyID, 10, 64)
	if err != nil {
		return false, fmt.Sprintf("key %q is not a library-go key id, so no migration evidence can exist for it", keyID), nil
	}
	keySecrets, err := m.lister.Secrets(keySecretsNamespace).List(labels.SelectorFromSet(labels.Set{secrets.EncryptionKeySecretsLabel: m.component}))
	if err != nil {
		return false, "", fmt.Errorf("listing the encryption key secrets of %s: %w", m.component, err)
	}
	for _, s := range keySecrets {
		id, ok := state.NameToKeyID(s.Name)
		if !ok || id <= dropped {
			continue
		}
		raw := s.Annotations[secrets.EncryptionSecretMigratedResources]
		if raw == "" {
			continue
		}
		migrated := &secrets.MigratedGroupResources{}
		if err := json.Unmarshal([]byte(raw), migrated); err != nil {
			// A broken annotation is no evidence of anything; it must not fail the gate for other keys.
			continue
		}
		if migrated.HasResource(resource) {
			return true, "", nil
		}
	}
	return false, fmt.Sprintf("no key newer than %s lists %s in %s", keyID, resource, secrets.EncryptionSecretMigratedResources), nil
}
