// Package recoverytest is a fake cluster for tests of lost-key recovery: a dynamic client whose LIST, GET and
// DELETE answer as kube-apiserver does with AllowUnsafeMalformedObjectDeletion on, and the raw etcd values
// behind it.
package recoverytest

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"google.golang.org/protobuf/proto"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	kmstypes "k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2/v2"
	"k8s.io/client-go/dynamic"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
)

// Provider is the KMS v2 provider name of every value the fake stores.
const Provider = "kms"

// Resources the fake serves.
var (
	Secrets    = kmsrecovery.Resource{GroupVersionResource: schema.GroupVersionResource{Version: "v1", Resource: "secrets"}, Namespaced: true}
	ConfigMaps = kmsrecovery.Resource{GroupVersionResource: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Namespaced: true}
	Tokens     = kmsrecovery.Resource{GroupVersionResource: schema.GroupVersionResource{Group: "oauth.openshift.io", Version: "v1", Resource: "oauthaccesstokens"}, Namespaced: false}
)

var listKinds = map[schema.GroupVersionResource]string{
	Secrets.GroupVersionResource:    "SecretList",
	ConfigMaps.GroupVersionResource: "ConfigMapList",
	Tokens.GroupVersionResource:     "OAuthAccessTokenList",
}

type entry struct {
	value    []byte
	readable bool
}

// Cluster is the fake. Its methods are safe for concurrent use.
type Cluster struct {
	// Dynamic is the client to hand to the code under test.
	Dynamic dynamic.Interface
	// Fake is the fake behind Dynamic; its Actions() record every request. (client-go's fake drops the limit
	// and continue of a LIST, so Dynamic serves LISTs itself and records them in Fake.)
	Fake *dynamicfake.FakeDynamicClient

	mu sync.Mutex
	// objects maps a resource to "<namespace>/<name>" (or "<name>") to its stored value.
	objects map[schema.GroupVersionResource]map[string]*entry
	// forbidden makes every unsafe delete fail with 403, as without the RBAC verb.
	forbidden bool
	// beforeDelete runs right before a DELETE is served.
	beforeDelete  func(gvr schema.GroupVersionResource, key string)
	unsafeDeleted []string
}

// NewCluster returns an empty fake cluster serving Secrets, ConfigMaps and OAuthAccessTokens.
func NewCluster() *Cluster {
	c := &Cluster{objects: map[schema.GroupVersionResource]map[string]*entry{}}
	c.Fake = dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), listKinds)
	c.Fake.PrependReactor("list", "*", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, &unstructured.UnstructuredList{Object: map[string]interface{}{}}, nil // recorded only
	})
	c.Fake.PrependReactor("get", "*", c.get)
	c.Fake.PrependReactor("delete", "*", c.delete)
	c.Dynamic = pagingClient{c}
	return c
}

// pagingClient serves cluster-wide LISTs with their options; everything else goes to Fake.
type pagingClient struct{ c *Cluster }

func (p pagingClient) Resource(gvr schema.GroupVersionResource) dynamic.NamespaceableResourceInterface {
	return pagingResource{NamespaceableResourceInterface: p.c.Fake.Resource(gvr), c: p.c, gvr: gvr}
}

type pagingResource struct {
	dynamic.NamespaceableResourceInterface
	c   *Cluster
	gvr schema.GroupVersionResource
}

// Namespace serves DELETEs as a real client does when its context ends while the request is in flight: the
// apiserver deletes the object, the client returns the context's error.
func (r pagingResource) Namespace(ns string) dynamic.ResourceInterface {
	return contextDeletes{ResourceInterface: r.NamespaceableResourceInterface.Namespace(ns)}
}

type contextDeletes struct{ dynamic.ResourceInterface }

func (c contextDeletes) Delete(ctx context.Context, name string, opts metav1.DeleteOptions, subresources ...string) error {
	err := c.ResourceInterface.Delete(ctx, name, opts, subresources...)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	return err
}

func (r pagingResource) List(ctx context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	if _, err := r.NamespaceableResourceInterface.List(ctx, opts); err != nil {
		return nil, err
	}
	return r.c.list(r.gvr, opts)
}

// EtcdKey is where the fake's apiserver stores an object: /registry/<resource>/[<namespace>/]<name>, with the
// group for resources of a group, as for custom resources.
func EtcdKey(r kmsrecovery.Resource, namespace, name string) string {
	prefix := "/registry/" + r.Resource + "/"
	if r.Group != "" {
		prefix = "/registry/" + r.Group + "/" + r.Resource + "/"
	}
	if namespace == "" {
		return prefix + name
	}
	return prefix + namespace + "/" + name
}

// Add stores an object written under KEK id kekID of the KMS v2 provider Provider; readable says whether the
// apiserver can decrypt it.
func (c *Cluster) Add(r kmsrecovery.Resource, namespace, name, kekID string, readable bool) {
	c.AddKMS(r, namespace, name, Provider, kekID, readable)
}

// AddKMS stores an object written under KEK id kekID of the named KMS v2 provider.
func (c *Cluster) AddKMS(r kmsrecovery.Resource, namespace, name, provider, kekID string, readable bool) {
	payload, err := proto.Marshal(&kmstypes.EncryptedObject{
		EncryptedData: []byte("ciphertext"), KeyID: kekID, EncryptedDEKSource: []byte("dek"),
		EncryptedDEKSourceType: kmstypes.EncryptedDEKSourceType_HKDF_SHA256_XNONCE_AES_GCM_SEED,
	})
	if err != nil {
		panic(err)
	}
	c.AddRaw(r, namespace, name, append([]byte("k8s:enc:kms:v2:"+provider+":"), payload...), readable)
}

// AddRaw stores an object with the given stored value.
func (c *Cluster) AddRaw(r kmsrecovery.Resource, namespace, name string, value []byte, readable bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.objects[r.GroupVersionResource] == nil {
		c.objects[r.GroupVersionResource] = map[string]*entry{}
	}
	c.objects[r.GroupVersionResource][objectKey(namespace, name)] = &entry{value: value, readable: readable}
}

// SetReadable changes whether the apiserver can read an object (its key came back).
func (c *Cluster) SetReadable(r kmsrecovery.Resource, namespace, name string, readable bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.objects[r.GroupVersionResource][objectKey(namespace, name)].readable = readable
}

// ForbidUnsafeDelete makes unsafe deletes fail with 403, as for a client without unsafe-delete-ignore-read-errors.
func (c *Cluster) ForbidUnsafeDelete() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forbidden = true
}

// BeforeDelete sets a hook that runs, without the fake's lock, right before each DELETE is served.
func (c *Cluster) BeforeDelete(hook func(r kmsrecovery.Resource, namespace, name string)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.beforeDelete = func(gvr schema.GroupVersionResource, key string) {
		ns, name := splitKey(key)
		hook(kmsrecovery.Resource{GroupVersionResource: gvr, Namespaced: ns != ""}, ns, name)
	}
}

// UnsafeDeleted returns the etcd keys deleted with ignoreStoreReadErrorWithClusterBreakingPotential, in order.
func (c *Cluster) UnsafeDeleted() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.unsafeDeleted...)
}

// Exists tells whether an object is stored.
func (c *Cluster) Exists(r kmsrecovery.Resource, namespace, name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.objects[r.GroupVersionResource][objectKey(namespace, name)]
	return ok
}

// Raw is the RawValueReader of the fake's etcd.
func (c *Cluster) Raw() kmsrecovery.RawValueReader { return rawReader{c} }

type rawReader struct{ c *Cluster }

func (r rawReader) RawValue(_ context.Context, etcdKey string) ([]byte, error) {
	r.c.mu.Lock()
	defer r.c.mu.Unlock()
	for gvr, objects := range r.c.objects {
		res := kmsrecovery.Resource{GroupVersionResource: gvr}
		for key, e := range objects {
			ns, name := splitKey(key)
			if EtcdKey(res, ns, name) == etcdKey {
				return e.value, nil
			}
		}
	}
	return nil, nil
}

func objectKey(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

func splitKey(key string) (namespace, name string) {
	if ns, n, ok := strings.Cut(key, "/"); ok {
		return ns, n
	}
	return "", key
}

func item(gvr schema.GroupVersionResource, key string) *unstructured.Unstructured {
	ns, name := splitKey(key)
	u := &unstructured.Unstructured{Object: map[string]interface{}{}}
	u.SetAPIVersion(gvr.GroupVersion().String())
	u.SetKind(strings.TrimSuffix(listKinds[gvr], "List"))
	u.SetNamespace(ns)
	u.SetName(name)
	return u
}

// list answers as kube-apiserver's etcd3 store with the gate on (apiservertest.Page).
func (c *Cluster) list(gvr schema.GroupVersionResource, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := make([]string, 0, len(c.objects[gvr]))
	for key := range c.objects[gvr] {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	list, err := apiservertest.Page(opts, apiservertest.Store{
		Resource: gvr.GroupResource(), Keys: keys, ResourceVersion: 7,
		Unreadable: func(key string) (string, bool) {
			ns, name := splitKey(key)
			return EtcdKey(kmsrecovery.Resource{GroupVersionResource: gvr}, ns, name), !c.objects[gvr][key].readable
		},
		Item: func(key string) unstructured.Unstructured { return *item(gvr, key) },
	})
	if err != nil {
		return nil, err
	}
	list.SetAPIVersion(gvr.GroupVersion().String())
	list.SetKind(listKinds[gvr])
	return list, nil
}

func (c *Cluster) get(action clienttesting.Action) (bool, runtime.Object, error) {
	get := action.(clienttesting.GetAction)
	gvr := action.GetResource()
	key := objectKey(get.GetNamespace(), get.GetName())
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.objects[gvr][key]
	switch {
	case !ok:
		return true, nil, apierrors.NewNotFound(gvr.GroupResource(), get.GetName())
	case !e.readable:
		return true, nil, apierrors.NewInternalError(fmt.Errorf("corrupt object: data from the storage is not transformable"))
	}
	return true, item(gvr, key), nil
}

// delete answers as registry.corruptObjectDeleter: the option deletes an unreadable object, and is refused with
// 422 for a readable one; without it an unreadable object cannot be deleted.
func (c *Cluster) delete(action clienttesting.Action) (bool, runtime.Object, error) {
	del := action.(clienttesting.DeleteAction)
	gvr := action.GetResource()
	key := objectKey(del.GetNamespace(), del.GetName())
	c.mu.Lock()
	hook := c.beforeDelete
	c.mu.Unlock()
	if hook != nil {
		hook(gvr, key)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	unsafe := ptr.Deref(del.GetDeleteOptions().IgnoreStoreReadErrorWithClusterBreakingPotential, false)
	e, ok := c.objects[gvr][key]
	switch {
	case unsafe && c.forbidden:
		return true, nil, apierrors.NewForbidden(gvr.GroupResource(), del.GetName(), fmt.Errorf("missing verb unsafe-delete-ignore-read-errors"))
	case !ok:
		return true, nil, apierrors.NewNotFound(gvr.GroupResource(), del.GetName())
	case unsafe && e.readable:
		return true, nil, apierrors.NewInvalid(schema.GroupKind{Group: gvr.Group, Kind: gvr.Resource}, del.GetName(), field.ErrorList{
			field.Invalid(field.NewPath("ignoreStoreReadErrorWithClusterBreakingPotential"), true, "is exclusively used to delete corrupt object(s), try again by removing this option"),
		})
	case !unsafe && !e.readable:
		return true, nil, apierrors.NewInternalError(fmt.Errorf("corrupt object"))
	}
	delete(c.objects[gvr], key)
	if unsafe {
		ns, name := splitKey(key)
		c.unsafeDeleted = append(c.unsafeDeleted, EtcdKey(kmsrecovery.Resource{GroupVersionResource: gvr}, ns, name))
	}
	return true, nil, nil
}
