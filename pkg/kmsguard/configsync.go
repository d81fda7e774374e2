package kmsguard

import (
	"context"
	"fmt"
	"time"

	configv1listers "github.com/openshift/client-go/config/listers/config/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	"github.com/openshift/library-go/pkg/operator/resourcesynccontroller"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	corev1listers "k8s.io/client-go/listers/core/v1"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
)

// managedNamespace is where library-go's encryption controllers keep their state: the key secrets and the
// encryption config the state controller computes (encryption-config-<component>).
const managedNamespace = encryptionconfig.ManagedNamespace

// configSyncTimeout bounds one judgement of the resource sync's precondition, which library-go calls without a
// context.
const configSyncTimeout = 30 * time.Second

// configSync is what HoldEncryptionConfigSync needs; nil while the feature gate is off.
type configSync struct {
	component string
	gate      *kmsprecondition.Gate
	source    revisions.ConfigSource
	enabled   encryptionEnabled
}

// HoldEncryptionConfigSync makes the rollout gate hold a KMS change before it reaches the revisions, instead of
// holding every revision: library-go's resource sync copies openshift-config-managed/encryption-config-<component>
// (written by library-go's state controller) into <component>/encryption-config, the candidate the revision
// controller copies into each revision with the operand's other resources. With it, that copy waits while the gate
// refuses the change, so certificate and CA rotations, config observations and an upgrade's image still get their
// revisions, and library-go's key controller stays free to react to the admin. Precondition and ReadinessCheck stay
// wired as the second line.
//
// The gate judges the managed config as the resource sync's informer cache holds it, the copy it makes right
// after: a live read judged one version while the sync copied a newer one (seen in the lab's misconfigured-kms
// story, which then left a refused config in encryption-config). What remains is an informer update between the
// two calls of one sync; the second line (Precondition) then refuses that copy's revision until its evidence passes.
//
// Call it after encryption.NewControllers, with the ResourceSyncController passed to it: library-go registers the
// same destination there with a precondition of its own, and the last registration wins. While the feature gate is
// off it does nothing, and library-go's registration stays.
//
// Adapter: library-go's precondition for that sync (newEncryptionEnabledPrecondition in
// pkg/operator/encryption/preconditions.go) is unexported, so encryptionEnabled repeats it in front of the gate. An
// option of encryption.NewControllers for a further sync precondition would remove both the copy and this second
// registration.
func (c *Controllers) HoldEncryptionConfigSync(syncer *resourcesynccontroller.ResourceSyncController) error {
	if c.configSync == nil {
		return nil
	}
	s := c.configSync
	judge := s.gate.ConfigSyncPrecondition(s.source)
	return syncer.SyncSecretConditionally(
		resourcesynccontroller.ResourceLocation{Namespace: s.component, Name: encryptiondata.EncryptionConfSecretName},
		resourcesynccontroller.ResourceLocation{Namespace: managedNamespace, Name: managedConfigName(s.component)},
		func() (bool, error) {
			if enabled, err := s.enabled.wasEnabled(); err != nil || !enabled {
				return false, err
			}
			ctx, cancel := context.WithTimeout(context.Background(), configSyncTimeout)
			defer cancel()
			return judge(ctx)
		})
}

// managedConfigName is the encryption config library-go's state controller writes for component.
func managedConfigName(component string) string {
	return fmt.Sprintf("%s-%s", encryptiondata.EncryptionConfSecretName, component)
}

// encryptionEnabled is library-go's precondition of the encryption config sync, as encryption.NewControllers
// registers it: nothing is synced until encryption was enabled once (the APIServer's encryption type is set and not
// identity, or the managed encryption config or a key secret of the component exists). Without it, a sync of a
// missing source would delete the operand's encryption-config on a cluster that never encrypted.
type encryptionEnabled struct {
	component string
	apiServer configv1listers.APIServerLister
	managed   corev1listers.SecretNamespaceLister
}

func (e encryptionEnabled) wasEnabled() (bool, error) {
	apiServer, err := e.apiServer.Get("cluster")
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if mode := state.Mode(apiServer.Spec.Encryption.Type); mode != "" && mode != state.Identity {
		return true, nil
	}
	if _, err := e.managed.Get(managedConfigName(e.component)); err == nil {
		return true, nil
	} else if !apierrors.IsNotFound(err) {
		return false, err
	}
	keys, err := e.managed.List(labels.SelectorFromSet(labels.Set{secrets.EncryptionKeySecretsLabel: e.component}))
	if err != nil {
		return false, err
	}
	return len(keys) > 0, nil
}
