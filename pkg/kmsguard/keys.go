package kmsguard

import (
	"context"
	"fmt"

	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// heldKeys are the KMS keys of configs kmsrollback reverted (kmsrollback.HoldStore).
type heldKeys interface {
	HeldKeyIDs(ctx context.Context) ([]string, error)
}

// configKeys is the kmsstate.KeyLister of a library-go operator: the KMS keys of the deployed config (the latest
// revision's), of the candidate the next revision copies and of the config library-go's resource sync copies into
// it (the rollout gate asks about those), and of the configs kmsrollback holds out (a hold is released by their
// health). Holds that cannot be read give the configs' keys
// with a kmsstate.IncompleteKeysError.
//
// Adapter: kmsstate takes the keys as a list, and the configs and the holds come from two packages it does not
// import; a kmsstate.KeyLister in kmsrollback, over a revisions.ConfigSource and the HoldStore, would remove it.
type configKeys struct {
	configs revisions.ConfigSource
	// synced is the config library-go's resource sync copies into the candidate (revisions.SecretSource.Synced),
	// which the rollout gate judges first when HoldEncryptionConfigSync is wired: its keys must be evaluated
	// before that judgement. Nil leaves it out.
	synced revisions.ConfigSource
	// holds is nil where kmsguard runs no rollback.
	holds heldKeys
}

func (k configKeys) KMSKeys(ctx context.Context) (kmsstate.Keys, error) {
	configs, err := k.configs.Configs(ctx)
	if err != nil {
		return kmsstate.Keys{}, err
	}
	sources := []struct {
		name string
		data []byte
	}{{configs.DeployedName, configs.Deployed}, {configs.CandidateName, configs.Candidate}}
	if k.synced != nil {
		synced, err := k.synced.Configs(ctx)
		if err != nil {
			return kmsstate.Keys{}, err
		}
		sources = append(sources, struct {
			name string
			data []byte
		}{synced.CandidateName, synced.Candidate})
	}
	ids := sets.New[string]()
	keys := kmsstate.Keys{Providers: map[string]string{}}
	for _, c := range sources {
		if c.data == nil {
			continue
		}
		config, err := encryptionconfig.Decode(c.data)
		if err != nil {
			return kmsstate.Keys{}, fmt.Errorf("%s: %w", c.name, err)
		}
		of := encryptionconfig.KMSKeysOf(config)
		ids.Insert(of.IDs...)
		for provider, id := range of.Providers {
			keys.Providers[provider] = id
		}
	}
	var heldErr error
	if k.holds != nil {
		held, err := k.holds.HeldKeyIDs(ctx)
		if err != nil {
			// The holds live in a ConfigMap the failing KMS may encrypt: the health of the configs' keys is still
			// worth evaluating.
			heldErr = &kmsstate.IncompleteKeysError{What: "the encryption configs kmsrollback holds out", Err: err}
		}
		ids.Insert(held...)
	}
	keys.IDs = sets.List(ids)
	return keys, heldErr
}

// staticPodRunningKeys is the kmsstate.RunningKeyLister of a static-pod operator: each node in
// status.nodeStatuses runs encryption-config-<currentRevision>, and its KMS plugin sidecars are that config's
// (library-go's kms/pluginlifecycle injects them into the revision's pod). A node at revision 0 runs none yet.
//
// Adapter: the revision a node runs and the config of a revision come from two places kmsstate does not read; it
// would move to kmsrollback beside configKeys (F13).
type staticPodRunningKeys struct {
	operator v1helpers.StaticPodOperatorClient
	configs  revisions.Reader
}

func (k staticPodRunningKeys) RunningKMSKeys(ctx context.Context) (map[string][]string, error) {
	_, status, _, err := k.operator.GetStaticPodOperatorState()
	if err != nil {
		return nil, fmt.Errorf("reading the static pod operator status: %w", err)
	}
	byRevision := map[int32][]string{}
	running := make(map[string][]string, len(status.NodeStatuses))
	for _, node := range status.NodeStatuses {
		rev := node.CurrentRevision
		if rev <= 0 {
			continue
		}
		ids, ok := byRevision[rev]
		if !ok {
			data, err := k.configs.RevisionConfig(ctx, rev)
			if err != nil {
				return nil, err
			}
			if raw := data[encryptiondata.EncryptionConfSecretKey]; raw != nil {
				config, err := encryptionconfig.Decode(raw)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", revisions.SecretName(rev), err)
				}
				ids = encryptionconfig.KMSKeysOf(config).IDs
			}
			byRevision[rev] = ids
		}
		running[node.NodeName] = ids
	}
	return running, nil
}
