package evidence

import (
	"context"
	"fmt"
	"sort"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// KEKIDSource gives the KEK id a KMS v2 key's plugins agreed on, by library-go key id (encryptionconfig.KMSKeyID);
// *kmsstate.Controller implements it.
type KEKIDSource interface {
	SettledKEKID(keyID string) (string, error)
}

var _ KEKIDSource = (*kmsstate.Controller)(nil)

// TargetOptions tune TargetsFromConfig.
type TargetOptions struct {
	// EtcdPrefix is the apiservers' --etcd-prefix; DefaultEtcdPrefix when empty.
	EtcdPrefix string
	// Resources are resources to verify besides those the config names one by one: the resources a wildcard
	// entry ("*.*", "*.apps") covers, which the config cannot enumerate (library-go's encryptedGRs).
	Resources []schema.GroupResource
	// Storage says where a resource is stored in etcd; BuiltInResource under EtcdPrefix when nil.
	Storage func(gr schema.GroupResource) Resource
}

// TargetsFromConfig is the TargetsFunc of an operator: it reads the deployed encryption config from the
// same ConfigSource as the rollout gate (the config of the latest revision, what the apiservers write with) and
// verifies every resource it encrypts against its write key, resolved the way kube-apiserver resolves it. The
// write key of a KMS v2 provider is its KEK id as keks (kmsstate) settled it; a KMS v2 write key whose KEK id is
// not settled yet is an error, not a guess, so the condition turns Unknown rather than counting every value of
// the provider as current.
func TargetsFromConfig(configs revisions.ConfigSource, keks KEKIDSource, opts TargetOptions) TargetsFunc {
	if opts.EtcdPrefix == "" {
		opts.EtcdPrefix = DefaultEtcdPrefix
	}
	if opts.Storage == nil {
		opts.Storage = func(gr schema.GroupResource) Resource { return BuiltInResource(opts.EtcdPrefix, gr) }
	}
	return func(ctx context.Context) ([]Target, error) {
		raw, err := configs.Configs(ctx)
		if err != nil {
			return nil, err
		}
		config, err := encryptionconfig.DecodeUnvalidated(raw.Deployed)
		if err != nil {
			return nil, fmt.Errorf("the deployed encryption config %s: %w", raw.DeployedName, err)
		}
		grs := sets.New(opts.Resources...)
		for _, r := range encryptionconfig.ReadKeys(config) {
			if !encryptionconfig.IsWildcard(r.Resource) {
				grs.Insert(schema.ParseGroupResource(r.Resource))
			}
		}
		var targets []Target
		index := map[WriteKey]int{}
		ordered := grs.UnsortedList()
		sort.Slice(ordered, func(i, j int) bool { return ordered[i].String() < ordered[j].String() })
		for _, gr := range ordered {
			keys, found := encryptionconfig.KeysFor(config, gr)
			if !found {
				continue // not encrypted: kube-apiserver stores it in plaintext and nothing is to be proven
			}
			write, _ := keys.WriteKey()
			want, err := writeKeyOf(write, keks)
			if err != nil {
				return nil, fmt.Errorf("the write key of %s: %w", gr, err)
			}
			i, ok := index[want]
			if !ok {
				i = len(targets)
				index[want] = i
				targets = append(targets, Target{WriteKey: want})
			}
			targets[i].Resources = append(targets[i].Resources, opts.Storage(gr))
		}
		return targets, nil
	}
}

// writeKeyOf is the evidence write key of a config's write key, the KEK id of a KMS v2 one as kmsstate settled
// it.
func writeKeyOf(k encryptionconfig.StorageKey, keks KEKIDSource) (WriteKey, error) {
	if k.Kind != etcdvalue.KindKMSv2 {
		return WriteKeyOf(k, ""), nil
	}
	keyID := k.KeyID()
	kek, err := keks.SettledKEKID(keyID)
	if err != nil {
		// Not settled, or kmsstate's verdict is stale: no KEK id is known to be current.
		return WriteKey{}, fmt.Errorf("KMS key %s (provider %s): %w", keyID, k.Name, err)
	}
	return WriteKeyOf(k, kek), nil
}
