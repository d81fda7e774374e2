package evidence

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	corev1listers "k8s.io/client-go/listers/core/v1"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
)

// MigrationRecord is what library-go's record (KeySecretMigrations) says of one key of one resource: the rollout
// gate's fallback evidence where no etcd access is configured (kmsprecondition.MigrationEvidence).
type MigrationRecord struct {
	// Rewritten is true when a newer key records the resource as migrated.
	Rewritten bool
	// Finished is when that migration finished, as recorded; zero when no time was recorded.
	Finished time.Time
	// Missing says what evidence is missing when Rewritten is false.
	Missing string
}

// KeySecretMigrations reads library-go's record of finished migrations from its key secrets: a key's data has been rewritten when
// a newer key of the component (any mode) lists the resource in its migrated-resources annotation. library-go
// sets that annotation only after its migrator rewrote every object of the resource with that key, and key ids
// only grow, so nothing written before can still be under an older key. This mirrors library-go's own pruning
// rule (state.KeysWithPotentiallyPersistedDataAndNextReadKey). A key that is not one of library-go's numeric ids
// (identity, a hand-written provider) has no such evidence and stays in use.
//
// Finished is the migrated-timestamp of the newest key that lists the resource. library-go stamps a key each
// time it records a resource as migrated for the first time, so the newest stamp is never earlier than the
// migration that moved the resource off the dropped key: measuring the rollback window from it errs on the
// side of waiting longer.
func KeySecretMigrations(lister corev1listers.SecretLister, component string) *KeySecretRecords {
	return &KeySecretRecords{lister: lister, component: component}
}

// KeySecretRecords is library-go's record of finished migrations of one component (KeySecretMigrations).
type KeySecretRecords struct {
	lister    corev1listers.SecretLister
	component string
}

// Rewritten says whether a key newer than keyID records resource as migrated, and when.
func (m *KeySecretRecords) Rewritten(_ context.Context, resource schema.GroupResource, keyID string) (MigrationRecord, error) {
	dropped, err := strconv.ParseUint(keyID, 10, 64)
	if err != nil {
		return MigrationRecord{Missing: fmt.Sprintf("key %q is not a library-go key id, so no migration evidence can exist for it", keyID)}, nil
	}
	keySecrets, err := m.lister.Secrets(encryptionconfig.ManagedNamespace).List(labels.SelectorFromSet(labels.Set{secrets.EncryptionKeySecretsLabel: m.component}))
	if err != nil {
		return MigrationRecord{}, fmt.Errorf("listing the encryption key secrets of %s: %w", m.component, err)
	}
	var record MigrationRecord
	var newest uint64
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
		if !migrated.HasResource(resource) || (record.Rewritten && id < newest) {
			continue
		}
		record.Rewritten, newest, record.Finished = true, id, time.Time{}
		if ts, err := time.Parse(time.RFC3339, s.Annotations[secrets.EncryptionSecretMigratedTimestamp]); err == nil {
			record.Finished = ts
		}
	}
	if !record.Rewritten {
		record.Missing = fmt.Sprintf("no key newer than %s lists %s in %s", keyID, resource, secrets.EncryptionSecretMigratedResources)
	}
	return record, nil
}
