package kmsmigration

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/pkg/internal/pagedlist/pagedlisttest"
)

var (
	secretsGR  = schema.GroupResource{Resource: "secrets"}
	secretsGVR = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
)

// fakeCluster is an apiserver for secrets as a migration sees it: a LIST
// with apiserver paging semantics, and an UPDATE that checks the
// resourceVersion precondition and, like kube-apiserver, only writes when
// the stored value is stale (under an old key); a fresh object comes back
// unchanged.
type fakeCluster struct {
	*pagedlisttest.Store
	stale  map[string]bool
	rv     int
	writes map[string]int
	// updateHook, when set, may fail an update before it is applied.
	updateHook func(key string) error
	updates    int
}

func newFakeCluster(namespaces, perNamespace int) *fakeCluster {
	c := &fakeCluster{Store: pagedlisttest.NewStore(), stale: map[string]bool{}, writes: map[string]int{}, rv: 100}
	for n := 0; n < namespaces; n++ {
		for i := 0; i < perNamespace; i++ {
			obj := &unstructured.Unstructured{Object: map[string]interface{}{"apiVersion": "v1", "kind": "Secret"}}
			obj.SetNamespace(fmt.Sprintf("ns%02d", n))
			obj.SetName(fmt.Sprintf("s%04d", i))
			c.rv++
			obj.SetResourceVersion(strconv.Itoa(c.rv))
			_ = unstructured.SetNestedField(obj.Object, "v0", "data", "value")
			c.Objects[pagedlisttest.Key(obj)] = obj
			c.stale[pagedlisttest.Key(obj)] = true
		}
	}
	return c
}

func (c *fakeCluster) update(obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	key := pagedlisttest.Key(obj)
	c.Lock.Lock()
	c.updates++
	hook := c.updateHook
	c.Lock.Unlock()
	if hook != nil {
		if err := hook(key); err != nil {
			return nil, err
		}
	}
	c.Lock.Lock()
	defer c.Lock.Unlock()
	current, ok := c.Objects[key]
	if !ok {
		return nil, apierrors.NewNotFound(secretsGR, obj.GetName())
	}
	if obj.GetResourceVersion() != current.GetResourceVersion() {
		return nil, apierrors.NewConflict(secretsGR, obj.GetName(), fmt.Errorf("the object has been modified"))
	}
	if !c.stale[key] {
		return current.DeepCopy(), nil
	}
	c.rv++
	updated := obj.DeepCopy()
	updated.SetResourceVersion(strconv.Itoa(c.rv))
	c.Objects[key] = updated
	c.stale[key] = false
	c.writes[key]++
	return updated.DeepCopy(), nil
}

// write is a concurrent writer's update: a new value under the new key.
func (c *fakeCluster) write(key, value string) {
	c.Lock.Lock()
	defer c.Lock.Unlock()
	obj := c.Objects[key].DeepCopy()
	_ = unstructured.SetNestedField(obj.Object, value, "data", "value")
	c.rv++
	obj.SetResourceVersion(strconv.Itoa(c.rv))
	c.Objects[key] = obj
	c.stale[key] = false
}

func (c *fakeCluster) value(key string) string {
	c.Lock.Lock()
	defer c.Lock.Unlock()
	v, _, _ := unstructured.NestedString(c.Objects[key].Object, "data", "value")
	return v
}

func (c *fakeCluster) staleCount() int {
	c.Lock.Lock()
	defer c.Lock.Unlock()
	n := 0
	for _, stale := range c.stale {
		if stale {
			n++
		}
	}
	return n
}

func (c *fakeCluster) updateCount() int {
	c.Lock.Lock()
	defer c.Lock.Unlock()
	return c.updates
}

// client serves LISTs from the store and UPDATEs through client-go's fake
// dynamic client. The LISTs bypass the fake because it drops Limit and
// Continue from cluster-wide lists (testing.NewRootListActionWithOptions),
// which makes paging impossible to test through it.
func (c *fakeCluster) client() dynamic.Interface {
	client := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{secretsGVR: "SecretList"})
	client.PrependReactor("update", "secrets", func(action clienttesting.Action) (bool, runtime.Object, error) {
		updated, err := c.update(action.(clienttesting.UpdateAction).GetObject().(*unstructured.Unstructured))
		if err != nil {
			return true, nil, err
		}
		return true, updated, nil
	})
	return pagingClient{Interface: client, cluster: c}
}

type pagingClient struct {
	dynamic.Interface
	cluster *fakeCluster
}

func (p pagingClient) Resource(gvr schema.GroupVersionResource) dynamic.NamespaceableResourceInterface {
	return pagingResource{NamespaceableResourceInterface: p.Interface.Resource(gvr), cluster: p.cluster}
}

type pagingResource struct {
	dynamic.NamespaceableResourceInterface
	cluster *fakeCluster
}

func (p pagingResource) List(ctx context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	return p.cluster.List(ctx, opts)
}

func testMapper() meta.RESTMapper {
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(secretsGVR.GroupVersion().WithKind("Secret"), meta.RESTScopeNamespace)
	return mapper
}

// fastClock is a fake clock that a background goroutine moves forward by
// step every millisecond, so that pauses, backoffs and intervals of minutes
// pass in milliseconds while the code under test waits on the clock it is
// given, never on the wall clock.
func fastClock(t *testing.T, step time.Duration) *clocktesting.FakeClock {
	c := clocktesting.NewFakeClock(time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC))
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ticker := time.NewTicker(time.Millisecond)
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
				c.Step(step)
			}
		}
	}()
	t.Cleanup(func() { cancel(); wg.Wait() })
	return c
}

func testOptions(t *testing.T, c *fakeCluster) Options {
	return Options{
		Dynamic:     c.client(),
		Mapper:      testMapper(),
		PageSize:    7,
		Concurrency: 4,
		QPS:         -1,
		Clock:       fastClock(t, 100*time.Millisecond),
	}
}

func newTestMigrator(t *testing.T, opts Options) *Migrator {
	t.Helper()
	m, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
