package kmsrollback

import (
	"context"

	"github.com/openshift/library-go/pkg/operator/encryption/statemachine"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// HoldingDeployer wraps the statemachine.Deployer given to library-go's encryption controllers
// (encryption.NewControllers) and reports the rollout as not converged while a Hold is active.
//
// Why: the state controller computes the desired encryption config from the deployed one and the key secrets
// alone (statemachine.GetEncryptionConfigAndState). After a revert the deployed config is the last known good
// one and the failed KMS key's secret still exists, so it would compute the failed config again and the next
// revision would fail the same way. Not converged is the only state in which every encryption controller stands
// still ("APIServerRevisionNotConverged", retried every 2 minutes): the state controller leaves the reverted
// config alone, the migration controller migrates nothing to a key that does not work, and the prune
// controller keeps every key. The key controller stands still too, which is why the Controller releases a
// Hold as soon as the admin's encryption configuration changes.
//
// Upstream, this adapter would be replaced by a hook in library-go's encryption controllers: an optional
// `DesiredConfigHold` (say, `func(ctx, desired *encryptiondata.Config) (held bool, reason string, err error)`)
// consulted by statemachine.GetEncryptionConfigAndState after it computed the desired state, returning a
// transitioning reason such as "EncryptionConfigHeld" that all five controllers already honour like
// APIServerRevisionNotConverged; the state controller could then write the last known good config itself, and
// the key controller would keep reacting to config changes.
type HoldingDeployer struct {
	inner statemachine.Deployer
	store *HoldStore
	// informer watches the store's ConfigMap, so that a release wakes the encryption controllers at once instead
	// of after their 2 minute retry. Optional, and a wake-up only: the Hold is read live.
	informer cache.SharedIndexInformer
}

var _ statemachine.Deployer = &HoldingDeployer{}

// NewHoldingDeployer wraps inner. configMaps is an informer on the store's namespace (nil to rely on the
// controllers' own retries).
func NewHoldingDeployer(inner statemachine.Deployer, store *HoldStore, configMaps cache.SharedIndexInformer) *HoldingDeployer {
	return &HoldingDeployer{inner: inner, store: store, informer: configMaps}
}

// DeployedEncryptionConfigSecret is inner's, except that it is not converged while a Hold is active. The Hold
// is read live on every call, like the revisioned deployer reads pods: a lagging cache would let the state
// controller run right after a revert.
func (d *HoldingDeployer) DeployedEncryptionConfigSecret(ctx context.Context) (*corev1.Secret, bool, error) {
	holds, _, err := d.store.Load(ctx)
	if err != nil {
		return nil, false, err
	}
	if h := holds.Active(); h != nil {
		klog.V(2).Infof("encryption config %s of revision %d is held out after a KMS failure: reporting the rollout as not converged", h.Hash, h.FailedRevision)
		return nil, false, nil
	}
	return d.inner.DeployedEncryptionConfigSecret(ctx)
}

// AddEventHandler registers handler with inner and, for the store's ConfigMap, with the informer.
func (d *HoldingDeployer) AddEventHandler(handler cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error) {
	registration, err := d.inner.AddEventHandler(handler)
	if err != nil || d.informer == nil {
		return registration, err
	}
	_, err = d.informer.AddEventHandler(cache.FilteringResourceEventHandler{
		FilterFunc: func(obj interface{}) bool {
			if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tombstone.Obj
			}
			cm, ok := obj.(*corev1.ConfigMap)
			return ok && cm.Namespace == d.store.Namespace() && cm.Name == d.store.Name()
		},
		Handler: handler,
	})
	return registration, err
}

// HasSynced is inner's. The informer is not waited for: it lists every ConfigMap of the operator namespace, which
// the failing KMS may encrypt, and one it cannot decrypt would keep it from ever syncing, and library-go's
// encryption controllers, which wait for their deployer, from ever starting. The Hold is read live anyway; without
// the informer a release reaches them on their own 2 minute retry.
func (d *HoldingDeployer) HasSynced() bool {
	return d.inner.HasSynced()
}
