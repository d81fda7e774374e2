package apiservertest

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"
)

// DecryptError is what kube-apiserver answers a GET of an object it cannot decrypt, the KMS being down or the
// object's KEK destroyed: an internal error, with or without the AllowUnsafeMalformedObjectDeletion feature gate.
func DecryptError() error {
	return apierrors.NewInternalError(errors.New("failed to decrypt DEK, error: rpc error: code = Unavailable desc = connection error: dial unix /var/run/kmsplugin/kms-1.sock: connect: no such file or directory"))
}

// EncryptError is what kube-apiserver answers a write of an object it cannot encrypt, the KMS being down.
func EncryptError() error {
	return apierrors.NewInternalError(errors.New("failed to encrypt DEK, error: rpc error: code = Unavailable desc = connection error: dial unix /var/run/kmsplugin/kms-1.sock: connect: no such file or directory"))
}

// Reactors is the part of a fake clientset that takes reactors.
type Reactors interface {
	PrependReactor(verb, resource string, reaction clienttesting.ReactionFunc)
}

// FailEncrypted makes every request for resource fail as kube-apiserver fails it while the KMS that encrypts
// them is down, without the AllowUnsafeMalformedObjectDeletion feature gate: a read cannot decrypt, a write cannot
// encrypt, and a delete, which reads the object first, cannot decrypt either.
func FailEncrypted(kube Reactors, resource string) {
	kube.PrependReactor("*", resource, func(action clienttesting.Action) (bool, runtime.Object, error) {
		switch action.GetVerb() {
		case "create", "update", "patch":
			return true, nil, EncryptError()
		default:
			return true, nil, DecryptError()
		}
	})
}

// Undecryptable makes the objects named (namespace/name) of resource read as kube-apiserver with the
// AllowUnsafeMalformedObjectDeletion gate reads objects whose KEK was destroyed, while the KMS serves the current
// key: a GET, an update or a plain delete fails with DecryptError, a LIST of their namespace with a
// StorageReadError naming them, and the unsafe delete (ignoreStoreReadErrorWithClusterBreakingPotential) deletes
// one. Every other object, and one created again after its deletion, works as usual.
func Undecryptable(kube Reactors, resource string, objects ...string) {
	var mu sync.Mutex
	lost := sets.New(objects...)
	kube.PrependReactor("*", resource, func(action clienttesting.Action) (bool, runtime.Object, error) {
		mu.Lock()
		defer mu.Unlock()
		name := ""
		switch a := action.(type) {
		case clienttesting.ListAction:
			var causes []metav1.StatusCause
			for _, key := range sets.List(lost) {
				if ns, _, _ := strings.Cut(key, "/"); ns == action.GetNamespace() || action.GetNamespace() == "" {
					causes = append(causes, metav1.StatusCause{Type: metav1.CauseTypeUnexpectedServerResponse,
						Field: "/kubernetes.io/" + resource + "/" + key, Message: "data from the storage is not transformable"})
				}
			}
			if len(causes) == 0 {
				return false, nil, nil
			}
			gr := action.GetResource().GroupResource()
			return true, nil, &apierrors.StatusError{ErrStatus: metav1.Status{
				Status: metav1.StatusFailure, Code: http.StatusInternalServerError, Reason: metav1.StatusReasonStoreReadError,
				Details: &metav1.StatusDetails{Group: gr.Group, Kind: gr.Resource, Causes: causes},
				Message: fmt.Sprintf("failed to read one or more %s from the storage", gr),
			}}
		case clienttesting.UpdateAction:
			if o, err := meta.Accessor(a.GetObject()); err == nil {
				name = o.GetName()
			}
		case interface{ GetName() string }: // get, delete, patch
			name = a.GetName()
		}
		key := action.GetNamespace() + "/" + name
		if name == "" || !lost.Has(key) {
			return false, nil, nil
		}
		if d, ok := action.(clienttesting.DeleteAction); ok && ptr.Deref(d.GetDeleteOptions().IgnoreStoreReadErrorWithClusterBreakingPotential, false) {
			lost.Delete(key)
			return false, nil, nil
		}
		return true, nil, DecryptError()
	})
}
