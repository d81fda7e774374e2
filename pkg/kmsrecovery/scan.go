package kmsrecovery

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/pager"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/kmsguard/kmsguard/internal/pagedlist"
	"github.com/kmsguard/kmsguard/pkg/etcdclient"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
)

// UnknownConsentID is the ConsentID of an undecryptable object whose stored value could not be read or classified:
// no RawValueReader was given, etcd no longer holds the key, or the value is of no known format.
const UnknownConsentID = "unknown"

// DefaultPageSize is the LIST page size of a scan, the one kube-storage-version-migrator uses.
const DefaultPageSize = 500

// RawValueReader reads the bytes kube-apiserver stored in etcd under an etcd key, as the key appears in a
// StorageReadError (with the apiserver's --etcd-prefix). A key that does not exist returns (nil, nil).
type RawValueReader interface {
	RawValue(ctx context.Context, etcdKey string) ([]byte, error)
}

// EtcdValues is the RawValueReader of an etcd client. It reads one key at a time and never logs or keeps the
// values: etcdvalue.Parse only reads their prefix and KMS v2 envelope.
func EtcdValues(kv clientv3.KV) RawValueReader { return etcdValues{kv: kv} }

type etcdValues struct{ kv clientv3.KV }

func (e etcdValues) RawValue(ctx context.Context, etcdKey string) ([]byte, error) {
	resp, err := e.kv.Get(ctx, etcdKey)
	if err != nil {
		return nil, fmt.Errorf("reading %s from etcd: %w", etcdKey, err)
	}
	if len(resp.Kvs) == 0 {
		return nil, nil
	}
	return resp.Kvs[0].Value, nil
}

// ObjectRef names an object of a resource.
type ObjectRef struct {
	Resource  schema.GroupResource `json:"resource"`
	Namespace string               `json:"namespace,omitempty"`
	Name      string               `json:"name"`
}

func (r ObjectRef) String() string {
	if r.Namespace == "" {
		return r.Resource.String() + " " + r.Name
	}
	return r.Resource.String() + " " + r.Namespace + "/" + r.Name
}

// Object is an object kube-apiserver cannot read: its stored value does not decrypt or decode.
type Object struct {
	ObjectRef
	// EtcdKey is the key the apiserver named in its StorageReadError.
	EtcdKey string `json:"etcdKey"`
	// Kind is the stored value's format (etcdvalue.Kind: kms-v2, aescbc, identity, ...), empty when the value
	// could not be read or classified (Detail says why).
	Kind etcdvalue.Kind `json:"kind,omitempty"`
	// Provider is the provider name (KMS) or key name (aescbc, aesgcm, secretbox) in the value's prefix
	// (k8s:enc:kms:v2:<provider>:, k8s:enc:aescbc:v1:<name>:); empty for identity and unclassified values.
	Provider string `json:"provider,omitempty"`
	// KEKID is the KEK id a KMS v2 value's DEK was encrypted with, as stored in the value; empty for every other
	// kind.
	KEKID string `json:"kekID,omitempty"`
	// Detail says why a value could not be classified, or what is wrong with a plaintext one.
	Detail string `json:"detail,omitempty"`
	// ConsentID is what a consent names to delete the object: <provider>:<KEK id> for a KMS v2 value,
	// <kind>:<name> for the other providers, and the unprovable "identity" and UnknownConsentID (consentIDOf).
	ConsentID string `json:"consentID"`
	// OperatorManaged is the expectation that an operator recreates the object once it is deleted; see
	// ExpectRecreated.
	OperatorManaged bool `json:"operatorManaged"`
}

// consentIDOf is what a consent names to delete an object, the key its value was written under:
//
//	kms-v2                      <provider>:<KEK id>   two KMS providers whose KMSs happen to issue the same
//	                                                  KEK id never share a consent
//	aescbc, aesgcm, secretbox   <kind>:<name>         aescbc:1
//	identity                    identity              unprovable: corruption, not a lost key
//	not read or classified      UnknownConsentID      unprovable: nothing shows which key
func consentIDOf(kind etcdvalue.Kind, provider, kekID string) string {
	switch kind {
	case "":
		return UnknownConsentID
	case etcdvalue.KindIdentity:
		return string(etcdvalue.KindIdentity)
	case etcdvalue.KindKMSv2:
		return provider + ":" + kekID
	default:
		return string(kind) + ":" + provider
	}
}

// ExpectRecreated is the rule that tells which deleted objects an operator will recreate. The object's
// ownerReferences, labels and annotations are in the very value that cannot be decrypted, so only its name
// is knowable: objects in the namespaces OpenShift's and Kubernetes' own operators manage ("openshift",
// "openshift-*", "kube-*") are expected back, objects anywhere else (user namespaces, "default") and
// cluster-scoped ones (OAuth tokens: users log in again) are not. It is an expectation, not a fact: the
// Controller checks after each deletion which objects did come back and lists the ones that did not.
func ExpectRecreated(namespace string) bool {
	return namespace == "openshift" || strings.HasPrefix(namespace, "openshift-") || strings.HasPrefix(namespace, "kube-")
}

// ResourceFindings is what a scan found in one resource.
type ResourceFindings struct {
	Resource schema.GroupResource `json:"resource"`
	// Readable is the number of objects the apiserver listed.
	Readable int `json:"readable"`
	// Unreadable are the objects it could not read, in etcd key order.
	Unreadable []Object `json:"unreadable"`
}

// Findings is the result of a scan, resources in the order they were scanned.
type Findings struct {
	Resources []ResourceFindings `json:"resources"`
	// Tracked are the objects of Scanner.Scan's track argument that were listed as readable.
	Tracked sets.Set[ObjectRef] `json:"-"`
	// EtcdUnreadable says why no stored value could be read, when the etcd client's own credentials could not be
	// (an etcdclient.CredentialsError: the KEK that encrypted their Secret is lost too). Every object is then
	// under "unknown", which no consent can name; a node's copy of the credentials is the way out.
	EtcdUnreadable string `json:"etcdUnreadable,omitempty"`
}

// Objects returns every unreadable object.
func (f *Findings) Objects() []Object {
	var objects []Object
	for _, r := range f.Resources {
		objects = append(objects, r.Unreadable...)
	}
	return objects
}

// Count returns the number of unreadable objects.
func (f *Findings) Count() int {
	n := 0
	for _, r := range f.Resources {
		n += len(r.Unreadable)
	}
	return n
}

// ConsentIDs returns the consent ids (Object.ConsentID) unreadable objects are stored under, sorted: what a consent
// may name.
func (f *Findings) ConsentIDs() []string {
	ids := sets.New[string]()
	for _, o := range f.Objects() {
		ids.Insert(o.ConsentID)
	}
	return sets.List(ids)
}

// Under returns the unreadable objects whose ConsentID is consentID.
func (f *Findings) Under(consentID string) []Object {
	var objects []Object
	for _, o := range f.Objects() {
		if o.ConsentID == consentID {
			objects = append(objects, o)
		}
	}
	return objects
}

// Without returns the findings less the given objects: what a scan would find after they were deleted, for the
// record written before that scan.
func (f *Findings) Without(gone sets.Set[ObjectRef]) *Findings {
	out := &Findings{Tracked: f.Tracked}
	for _, r := range f.Resources {
		kept := ResourceFindings{Resource: r.Resource, Readable: r.Readable, Unreadable: []Object{}}
		for _, o := range r.Unreadable {
			if !gone.Has(o.ObjectRef) {
				kept.Unreadable = append(kept.Unreadable, o)
			}
		}
		out.Resources = append(out.Resources, kept)
	}
	return out
}

// Summary is one line per resource with unreadable objects, with counts per consent id:
// "secrets: 150 of 170 (key kms:1: 150)".
func (f *Findings) Summary() string {
	var parts []string
	for _, r := range f.Resources {
		if len(r.Unreadable) == 0 {
			continue
		}
		perKey := map[string]int{}
		for _, o := range r.Unreadable {
			perKey[o.ConsentID]++
		}
		keys := make([]string, 0, len(perKey))
		for k := range perKey {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		counts := make([]string, 0, len(keys))
		for _, k := range keys {
			counts = append(counts, fmt.Sprintf("key %s: %d", k, perKey[k]))
		}
		parts = append(parts, fmt.Sprintf("%s: %d of %d (%s)", r.Resource, len(r.Unreadable), len(r.Unreadable)+r.Readable, strings.Join(counts, ", ")))
	}
	return strings.Join(parts, "; ")
}

// Scanner finds the objects of encrypted resources that kube-apiserver cannot read. It needs kube-apiserver's
// feature gate AllowUnsafeMalformedObjectDeletion (beta and on by default from Kubernetes 1.37): without it
// a LIST over an undecryptable object fails with a plain 500 that names no object, and Scan returns that
// error.
type Scanner struct {
	Client dynamic.Interface
	// Raw, when set, reads the stored value of each unreadable object to tell the key it was written under.
	Raw RawValueReader
	// PageSize is the LIST limit; DefaultPageSize when zero.
	PageSize int64
	// Progress, when set, is called as the scan goes, after each listed object and each unreadable one found,
	// with the counts of the resource being scanned so far; it must be quick (`kmsguard recover` throttles
	// its lines itself).
	Progress func(resource schema.GroupResource, readable, unreadable int)
}

// Scan lists every object of each resource through pagedlist, which steps over unreadable objects and
// reports each exactly once however many there are (a StorageReadError names at most 100). Objects in track
// that are listed readable are returned in Findings.Tracked.
func (s *Scanner) Scan(ctx context.Context, resources []Resource, track sets.Set[ObjectRef]) (*Findings, error) {
	findings := &Findings{Tracked: sets.New[ObjectRef]()}
	for _, resource := range resources {
		r, err := s.scanResource(ctx, resource, track, findings)
		if err != nil {
			return nil, err
		}
		findings.Resources = append(findings.Resources, r)
	}
	return findings, nil
}

func (s *Scanner) scanResource(ctx context.Context, resource Resource, track sets.Set[ObjectRef], findings *Findings) (ResourceFindings, error) {
	tracked := findings.Tracked
	gr := resource.GroupResource()
	found := ResourceFindings{Resource: gr, Unreadable: []Object{}}
	// The pager fetches pages on a goroutine of its own (Unreadable runs there) while the items are handed to
	// the callback below on this one: mu guards what both touch.
	var (
		mu       sync.Mutex
		keys     []string
		readable int
	)
	progress := func() {
		if s.Progress != nil {
			s.Progress(gr, readable, len(keys))
		}
	}
	p := pager.New(pagedlist.PageFunc(s.Client.Resource(resource.GroupVersionResource).List, resource.Namespaced, pagedlist.Observer{
		Unreadable: func(k []string) {
			mu.Lock()
			defer mu.Unlock()
			keys = append(keys, k...)
			progress()
		},
	}))
	p.PageSize = s.PageSize
	if p.PageSize == 0 {
		p.PageSize = DefaultPageSize
	}
	// pagedlist follows an expired continue token itself; a full list would be one unpaged LIST of a
	// resource that may be huge, and would fail on the first unreadable object anyway.
	p.FullListIfExpired = false
	err := p.EachListItem(ctx, metav1.ListOptions{}, func(obj runtime.Object) error {
		mu.Lock()
		found.Readable++
		readable = found.Readable
		progress()
		mu.Unlock()
		if track.Len() > 0 {
			if m, ok := obj.(metav1.Object); ok {
				ref := ObjectRef{Resource: gr, Namespace: m.GetNamespace(), Name: m.GetName()}
				if track.Has(ref) {
					tracked.Insert(ref)
				}
			}
		}
		return nil
	})
	if err != nil {
		return found, fmt.Errorf("listing %s: %w", gr, err)
	}
	for _, key := range keys {
		object, err := s.object(ctx, resource, key)
		var credentials *etcdclient.CredentialsError
		if errors.As(err, &credentials) {
			// No stored value can be read, this one or any other: the object is listed, under "unknown", and the
			// scan goes on, so that the condition still names what is lost.
			object, err = newObject(resource, key)
			object.Detail, findings.EtcdUnreadable = credentials.Error(), credentials.Error()
		}
		if err != nil {
			return found, err
		}
		found.Unreadable = append(found.Unreadable, object)
	}
	return found, nil
}

// object builds the Object stored at etcdKey, reading its value when a RawValueReader is set.
func (s *Scanner) object(ctx context.Context, resource Resource, etcdKey string) (Object, error) {
	o, err := newObject(resource, etcdKey)
	if err != nil {
		return Object{}, err
	}
	stored, err := classify(ctx, s.Raw, etcdKey)
	if err != nil {
		return Object{}, err
	}
	o.Kind, o.Provider, o.KEKID, o.Detail, o.ConsentID = stored.kind, stored.provider, stored.kekID, stored.detail, stored.consentID()
	return o, nil
}

// newObject is the Object at etcdKey before its stored value is read: under UnknownConsentID.
func newObject(resource Resource, etcdKey string) (Object, error) {
	ref, err := refFromKey(resource, etcdKey)
	if err != nil {
		return Object{}, err
	}
	return Object{ObjectRef: ref, EtcdKey: etcdKey, OperatorManaged: ref.Namespace != "" && ExpectRecreated(ref.Namespace), ConsentID: UnknownConsentID}, nil
}

// storedValue is what the value at an etcd key was written under.
type storedValue struct {
	kind                    etcdvalue.Kind
	provider, kekID, detail string
	// missing: etcd no longer holds the key.
	missing bool
}

func (v storedValue) consentID() string {
	return consentIDOf(v.kind, v.provider, v.kekID)
}

// classify classifies the value stored at etcdKey. Only a failure to talk to etcd is an error; a value that
// cannot be classified has no kind, and the reason in detail.
func classify(ctx context.Context, raw RawValueReader, etcdKey string) (storedValue, error) {
	if raw == nil {
		return storedValue{detail: "no etcd access to read the stored value"}, nil
	}
	value, err := raw.RawValue(ctx, etcdKey)
	if err != nil {
		return storedValue{}, err
	}
	if value == nil {
		return storedValue{detail: "etcd no longer holds the key", missing: true}, nil
	}
	v, err := etcdvalue.Parse(value)
	if err != nil {
		// etcdvalue's errors never contain value bytes.
		return storedValue{detail: err.Error()}, nil // an unparsable value is a verdict (key unknown), not a failure to read it
	}
	switch v.Kind {
	case etcdvalue.KindKMSv2:
		return storedValue{kind: v.Kind, provider: v.Name, kekID: v.KEKID}, nil
	case etcdvalue.KindIdentity:
		return storedValue{kind: v.Kind, detail: "stored unencrypted but does not decode"}, nil
	default:
		return storedValue{kind: v.Kind, provider: v.Name}, nil
	}
}

// refFromKey takes the object's namespace and name from the last segments of its etcd key, as pagedlist
// does: the key's prefix depends on the apiserver's --etcd-prefix and storage paths, its suffix does not.
func refFromKey(resource Resource, etcdKey string) (ObjectRef, error) {
	parts := strings.Split(strings.TrimSuffix(etcdKey, "/"), "/")
	ref := ObjectRef{Resource: resource.GroupResource()}
	switch {
	case resource.Namespaced && len(parts) >= 3:
		ref.Namespace, ref.Name = parts[len(parts)-2], parts[len(parts)-1]
	case !resource.Namespaced && len(parts) >= 2:
		ref.Name = parts[len(parts)-1]
	}
	if ref.Name == "" || (resource.Namespaced && ref.Namespace == "") {
		return ObjectRef{}, fmt.Errorf("etcd key %q names no %s object", etcdKey, ref.Resource)
	}
	return ref, nil
}
