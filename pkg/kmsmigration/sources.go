package kmsmigration

import (
	"context"

	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	"github.com/openshift/library-go/pkg/operator/encryption/statemachine"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
)

// WriteKeysFunc returns the library-go key id of the write key of every
// resource encrypted with KMS, or nil while the apiservers are not all on
// one revision of the encryption config (a migration then could write with
// a key some apiserver cannot read yet).
type WriteKeysFunc func(ctx context.Context) (map[schema.GroupResource]string, error)

// WriteKeysFromDeployer reads the write keys the way library-go's migration
// controller does: from the deployed encryption config, only once every
// apiserver has converged on it and the state machine has no transition
// pending.
func WriteKeysFromDeployer(deployer statemachine.Deployer, secrets corev1client.SecretsGetter, keySelector metav1.ListOptions, encryptedGRs []schema.GroupResource) WriteKeysFunc {
	return func(ctx context.Context) (map[schema.GroupResource]string, error) {
		current, _, keySecrets, transitioning, err := statemachine.GetEncryptionConfigAndState(ctx, deployer, secrets, keySelector, encryptedGRs)
		if err != nil || current == nil || transitioning != "" {
			return nil, err
		}
		grStates, _ := encryptiondata.ToEncryptionState(current, keySecrets)
		keys := map[schema.GroupResource]string{}
		for gr, s := range grStates {
			if s.HasWriteKey() && s.WriteKey.Mode == state.KMS {
				keys[gr] = s.WriteKey.Key.Name
			}
		}
		return keys, nil
	}
}
