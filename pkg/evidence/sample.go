package evidence

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// Sampler reads one object through the API. Counting stored values proves which key each object is under;
// reading a few through the API proves that the apiserver can still decrypt them, which the bytes alone
// cannot (a key may be under the right id and yet be disabled in the KMS).
type Sampler interface {
	// Read returns nil when the API returned the object, and the API's error otherwise. A NotFound error
	// means the object was deleted after the scan read it.
	Read(ctx context.Context, resource schema.GroupResource, namespace, name string) error
}

// DynamicSampler reads objects with a dynamic client. Versions gives the API version to read each resource
// with (for example secrets: v1); a resource without one is reported as a failed sample rather than guessed.
type DynamicSampler struct {
	Client   dynamic.Interface
	Versions map[schema.GroupResource]string
}

// Read implements Sampler.
func (s *DynamicSampler) Read(ctx context.Context, gr schema.GroupResource, namespace, name string) error {
	version, ok := s.Versions[gr]
	if !ok {
		return fmt.Errorf("no API version configured to read %s", gr)
	}
	_, err := s.Client.Resource(gr.WithVersion(version)).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	return err
}

// reservoir draws a uniform random sample of at most size etcd keys from a stream of unknown length
// (Vitter's algorithm R), so that sampling costs size strings whatever the number of keys.
type reservoir struct {
	size int
	seen int64
	keys []string
	rand *rand.Rand
}

func newReservoir(size int, r *rand.Rand) *reservoir {
	return &reservoir{size: size, rand: r}
}

func (r *reservoir) offer(key []byte) {
	r.seen++
	if len(r.keys) < r.size {
		r.keys = append(r.keys, string(key))
		return
	}
	if j := r.rand.Int64N(r.seen); j < int64(r.size) {
		r.keys[j] = string(key)
	}
}

// readSample reads the sampled objects of resource through the sampler, in key order.
func readSample(ctx context.Context, sampler Sampler, resource Resource, keys []string) []SampleResult {
	keys = slices.Clone(keys)
	slices.Sort(keys)
	results := make([]SampleResult, 0, len(keys))
	for _, key := range keys {
		result := SampleResult{Key: key}
		namespace, name, err := resource.objectName(key)
		if err == nil {
			err = sampler.Read(ctx, resource.GroupResource, namespace, name)
		}
		switch {
		case apierrors.IsNotFound(err):
			result.Gone = true
		case err != nil:
			result.Error = err.Error()
		}
		results = append(results, result)
	}
	return results
}
