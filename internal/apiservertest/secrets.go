// Package apiservertest is kube-apiserver serving Secrets as kmsguard's paging and rewriting code sees it,
// for unit tests: LISTs page, expire continue tokens and fail on unreadable objects like kube-apiserver's etcd3
// store, and UPDATEs check the resourceVersion precondition and write only objects stored under an old key.
//
// client-go's fake dynamic client cannot stand in for it: it drops Limit and Continue from cluster-wide lists
// (testing.NewRootListActionWithOptions), and stores every update. Dynamic serves LISTs from a Secrets and
// UPDATEs through the fake client, so that tests still see the fake's recorded actions.
package apiservertest

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/client-go/dynamic"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"
)

// EtcdPrefix is the resource prefix Secrets puts in front of unreadable keys.
const EtcdPrefix = "/kubernetes.io/secrets/"

var (
	GR  = schema.GroupResource{Resource: "secrets"}
	GVR = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
)

// Secrets holds namespaced Secrets by "<namespace>/<name>". With AllowUnsafeMalformedObjectDeletion's
// semantics, a page collects Limit readable objects; an unreadable one fails the whole page with its etcd key
// in the causes (at most 100, then a TooMany cause). Continue tokens are storage.EncodeContinue tokens
// relative to the resource. Tests may change the exported maps while holding Lock, or before any call.
type Secrets struct {
	Lock    sync.Mutex
	Objects map[string]*unstructured.Unstructured
	// Stale objects are stored under an old key: an update rewrites them. Others are current: an unchanged
	// update writes nothing and keeps their resourceVersion.
	Stale      map[string]bool
	Unreadable map[string]bool
	// ExpireOnce fails the first use of every consistent continue token with 410 Expired, carrying an
	// inconsistent token as the apiserver does.
	ExpireOnce bool
	// BeforeList, when set, runs before every LIST (with Lock held) with the number of LISTs so far; an error
	// fails the LIST.
	BeforeList func(n int) error
	// BeforeUpdate, when set, runs before every update (without Lock) with the object's key and the number of
	// updates so far; an error fails the update.
	BeforeUpdate func(key string, n int) error

	// Lists counts LIST calls; Continues records the tokens they carried. Updates counts UPDATE calls,
	// Writes the updates that stored something, per key.
	Lists     int
	Continues []string
	Updates   int
	Writes    map[string]int

	rv      int
	expired map[string]bool
}

// NewSecrets returns an empty Secrets.
func NewSecrets() *Secrets {
	return &Secrets{Objects: map[string]*unstructured.Unstructured{}, Stale: map[string]bool{}, Unreadable: map[string]bool{},
		Writes: map[string]int{}, rv: 100, expired: map[string]bool{}}
}

// NewStaleSecrets holds namespaces times perNamespace stale Secrets ns00/s0000, ns00/s0001, ... with
// data.value "v0".
func NewStaleSecrets(namespaces, perNamespace int) *Secrets {
	s := NewSecrets()
	for n := range namespaces {
		for i := range perNamespace {
			obj := &unstructured.Unstructured{Object: map[string]interface{}{"apiVersion": "v1", "kind": "Secret"}}
			obj.SetNamespace(fmt.Sprintf("ns%02d", n))
			obj.SetName(fmt.Sprintf("s%04d", i))
			_ = unstructured.SetNestedField(obj.Object, "v0", "data", "value")
			s.Add(obj, true)
		}
	}
	return s
}

// Key is the Secrets key of obj.
func Key(obj *unstructured.Unstructured) string { return obj.GetNamespace() + "/" + obj.GetName() }

// Add stores obj at a new resourceVersion.
func (s *Secrets) Add(obj *unstructured.Unstructured, stale bool) {
	s.Lock.Lock()
	defer s.Lock.Unlock()
	s.rv++
	obj = obj.DeepCopy()
	obj.SetResourceVersion(strconv.Itoa(s.rv))
	s.Objects[Key(obj)] = obj
	s.Stale[Key(obj)] = stale
}

// List answers one LIST. The returned items are deep copies.
func (s *Secrets) List(_ context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	s.Lock.Lock()
	defer s.Lock.Unlock()
	s.Lists++
	s.Continues = append(s.Continues, opts.Continue)
	if s.BeforeList != nil {
		if err := s.BeforeList(s.Lists); err != nil {
			return nil, err
		}
	}
	if opts.Continue != "" {
		key, tokenRV, err := storage.DecodeContinue(opts.Continue, "/")
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		if s.ExpireOnce && tokenRV > 0 && !s.expired[opts.Continue] {
			s.expired[opts.Continue] = true
			inconsistent, _ := storage.EncodeContinue(key, "/", -1)
			err := apierrors.NewResourceExpired("the continue token is too old")
			err.ErrStatus.ListMeta.Continue = inconsistent
			return nil, err
		}
	}
	keys := make([]string, 0, len(s.Objects))
	for key := range s.Objects {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return Page(opts, Store{
		Resource: GR, Keys: keys, ResourceVersion: int64(s.rv),
		Unreadable: func(key string) (string, bool) { return EtcdPrefix + key, s.Unreadable[key] },
		Item:       func(key string) unstructured.Unstructured { return *s.Objects[key].DeepCopy() },
	})
}

// Update answers an unchanged UPDATE of obj as kube-apiserver does: NotFound, Conflict on a resourceVersion
// other than the stored one, the stored object when it is current (nothing written), and a rewrite at a new
// resourceVersion when it is stale.
func (s *Secrets) Update(obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	key := Key(obj)
	s.Lock.Lock()
	s.Updates++
	n, hook := s.Updates, s.BeforeUpdate
	s.Lock.Unlock()
	if hook != nil {
		if err := hook(key, n); err != nil {
			return nil, err
		}
	}
	s.Lock.Lock()
	defer s.Lock.Unlock()
	current, ok := s.Objects[key]
	switch {
	case !ok:
		return nil, apierrors.NewNotFound(GR, obj.GetName())
	case obj.GetResourceVersion() != current.GetResourceVersion():
		return nil, apierrors.NewConflict(GR, obj.GetName(), fmt.Errorf("the object has been modified"))
	case !s.Stale[key]:
		return current.DeepCopy(), nil
	}
	s.rv++
	updated := obj.DeepCopy()
	updated.SetResourceVersion(strconv.Itoa(s.rv))
	s.Objects[key] = updated
	s.Stale[key] = false
	s.Writes[key]++
	return updated.DeepCopy(), nil
}

// Write is a concurrent writer's update of key: a new data.value, stored under the current key.
func (s *Secrets) Write(key, value string) {
	s.Lock.Lock()
	defer s.Lock.Unlock()
	obj := s.Objects[key].DeepCopy()
	_ = unstructured.SetNestedField(obj.Object, value, "data", "value")
	s.rv++
	obj.SetResourceVersion(strconv.Itoa(s.rv))
	s.Objects[key] = obj
	s.Stale[key] = false
}

// Value is key's data.value.
func (s *Secrets) Value(key string) string {
	s.Lock.Lock()
	defer s.Lock.Unlock()
	v, _, _ := unstructured.NestedString(s.Objects[key].Object, "data", "value")
	return v
}

// StaleCount is the number of objects still under an old key.
func (s *Secrets) StaleCount() int {
	s.Lock.Lock()
	defer s.Lock.Unlock()
	n := 0
	for _, stale := range s.Stale {
		if stale {
			n++
		}
	}
	return n
}

// UpdateCount is the number of UPDATE calls so far.
func (s *Secrets) UpdateCount() int {
	s.Lock.Lock()
	defer s.Lock.Unlock()
	return s.Updates
}

// Dynamic returns a dynamic client whose Secrets LISTs are served by s and UPDATEs by s through client-go's
// fake (which records them as actions).
func (s *Secrets) Dynamic() *Client {
	fake := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{GVR: "SecretList"})
	fake.PrependReactor("update", "secrets", func(action clienttesting.Action) (bool, runtime.Object, error) {
		updated, err := s.Update(action.(clienttesting.UpdateAction).GetObject().(*unstructured.Unstructured))
		if err != nil {
			return true, nil, err
		}
		return true, updated, nil
	})
	return &Client{Interface: fake, Fake: fake, secrets: s}
}

// Mapper maps Secrets, namespaced, at v1.
func Mapper() meta.RESTMapper {
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(GVR.GroupVersion().WithKind("Secret"), meta.RESTScopeNamespace)
	return mapper
}

// Client is the dynamic client Dynamic returns.
type Client struct {
	dynamic.Interface
	Fake    *dynamicfake.FakeDynamicClient
	secrets *Secrets
}

func (c *Client) Resource(gvr schema.GroupVersionResource) dynamic.NamespaceableResourceInterface {
	return pagingResource{NamespaceableResourceInterface: c.Interface.Resource(gvr), secrets: c.secrets}
}

type pagingResource struct {
	dynamic.NamespaceableResourceInterface
	secrets *Secrets
}

func (p pagingResource) List(ctx context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	return p.secrets.List(ctx, opts)
}
