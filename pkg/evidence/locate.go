package evidence

import (
	"context"
	"fmt"
	"strings"

	clientv3 "go.etcd.io/etcd/client/v3"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ServingLookup tells from the API how a resource is served, which decides where it is stored.
type ServingLookup interface {
	// IsCustomResource reports whether a CustomResourceDefinition defines gr.
	IsCustomResource(ctx context.Context, gr schema.GroupResource) (bool, error)
	// IsAggregated reports whether group is served by an aggregated apiserver (an APIService with a service).
	IsAggregated(ctx context.Context, group string) (bool, error)
}

// ResolveStoragePath finds which apiserver stores gr and so its storage path: a custom resource when a
// CustomResourceDefinition defines it, else OpenShift's apiservers for their groups, else kube-apiserver's
// own. A group served by another aggregated apiserver is an error: its storage is that server's business and
// a guessed path would scan nothing.
func ResolveStoragePath(ctx context.Context, lookup ServingLookup, gr schema.GroupResource) (StoragePath, error) {
	if gr.Group == "" {
		return KubePath(gr), nil
	}
	custom, err := lookup.IsCustomResource(ctx, gr)
	if err != nil {
		return StoragePath{}, fmt.Errorf("looking up a CustomResourceDefinition for %s: %w", gr, err)
	}
	if custom {
		return CustomResourcePath(gr), nil
	}
	if p, ok := OpenShiftPath(gr); ok {
		return p, nil
	}
	aggregated, err := lookup.IsAggregated(ctx, gr.Group)
	if err != nil {
		return StoragePath{}, fmt.Errorf("looking up the APIService of %s: %w", gr.Group, err)
	}
	if aggregated {
		return StoragePath{}, fmt.Errorf("%s is served by an aggregated apiserver kmsguard does not know the storage of", gr)
	}
	return KubePath(gr), nil
}

// Detection is the etcd prefix DetectRoot chose for a resource, and why.
type Detection struct {
	Resource Resource
	Root     string
	// HasKeys says that keys were found under Resource.Prefix. When false, Why says how Root was chosen.
	HasKeys bool
	Why     string
}

// DetectRoot finds which of p's roots holds p's keys, with one keys-only read of at most one key per root.
// Keys under more than one root are an error: the scan would count only one of them. When no root holds any
// of the resource's keys (an empty resource, or one stored elsewhere), it chooses the first root that holds
// any key at all, the apiserver's prefix as far as etcd shows; the API's object count then decides whether
// the empty prefix verifies.
func DetectRoot(ctx context.Context, kv clientv3.KV, p StoragePath) (Detection, error) {
	if len(p.Roots) == 0 {
		return Detection{}, fmt.Errorf("%s: no etcd prefix to try", p.GroupResource)
	}
	var found []string
	for _, root := range p.Roots {
		ok, err := hasKeys(ctx, kv, p.Under(root).Prefix)
		if err != nil {
			return Detection{}, err
		}
		if ok {
			found = append(found, root)
		}
	}
	switch len(found) {
	case 1:
		return Detection{Resource: p.Under(found[0]), Root: found[0], HasKeys: true, Why: "its keys are there"}, nil
	case 0:
	default:
		return Detection{}, fmt.Errorf("%s has keys under each of %s: give --etcd-prefix", p.GroupResource, strings.Join(found, ", "))
	}
	for _, root := range p.Roots {
		ok, err := hasKeys(ctx, kv, joinPrefix(root, ""))
		if err != nil {
			return Detection{}, err
		}
		if ok {
			return Detection{Resource: p.Under(root), Root: root, Why: "no keys of the resource under any known prefix; " + root + " holds other keys"}, nil
		}
	}
	return Detection{Resource: p.Under(p.Roots[0]), Root: p.Roots[0], Why: "no keys under any known prefix (" + strings.Join(p.Roots, ", ") + ")"}, nil
}

// hasKeys reports whether any key starts with prefix.
func hasKeys(ctx context.Context, kv clientv3.KV, prefix string) (bool, error) {
	resp, err := kv.Get(ctx, prefix, clientv3.WithRange(clientv3.GetPrefixRangeEnd(prefix)), clientv3.WithKeysOnly(), clientv3.WithLimit(1))
	if err != nil {
		return false, fmt.Errorf("looking for keys under %s: %w", prefix, err)
	}
	return len(resp.Kvs) > 0, nil
}
