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
// hack/upstream/library-go/0006 (LG-1) removes this adapter: a Deployer may implement statemachine.DesiredConfigHold,
// asked about the desired config once the rollout converged; a held config makes the state, migration, prune and
// condition controllers stand still (transitioning reason EncryptionConfigHeld) while the key controller keeps
// making the keys a corrected configuration needs. HoldingDeployer would then hold only the config whose hash a
// Hold names and report the rollout's real convergence.
//
// A release wakes the encryption controllers at once: the Holds are an annotation of the operator resource, whose
// informer each of them watches.
type HoldingDeployer struct {
	inner statemachine.Deployer
	store *HoldStore
}

var _ statemachine.Deployer = &HoldingDeployer{}

// NewHoldingDeployer wraps inner.
func NewHoldingDeployer(inner statemachine.Deployer, store *HoldStore) *HoldingDeployer {
	return &HoldingDeployer{inner: inner, store: store}
}

// DeployedEncryptionConfigSecret is inner's, except that it is not converged while a Hold is active. The Hold
// is read live on every call, like the revisioned deployer reads pods: a lagging cache would let the state
// controller run right after a revert.
func (d *HoldingDeployer) DeployedEncryptionConfigSecret(ctx context.Context) (*corev1.Secret, bool, error) {
	holds, err := d.store.Load(ctx)
	if err != nil {
		return nil, false, err
	}
	if h := holds.Active(); h != nil {
		klog.V(2).Infof("encryption config %s of revision %d is held out after a KMS failure: reporting the rollout as not converged", h.Hash, h.FailedRevision)
		return nil, false, nil
	}
	return d.inner.DeployedEncryptionConfigSecret(ctx)
}

// AddEventHandler is inner's.
func (d *HoldingDeployer) AddEventHandler(handler cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error) {
	return d.inner.AddEventHandler(handler)
}

// HasSynced is inner's.
func (d *HoldingDeployer) HasSynced() bool {
	return d.inner.HasSynced()
}
