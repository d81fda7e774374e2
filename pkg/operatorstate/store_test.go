package operatorstate

import (
	"errors"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/client-go/operator/clientset/versioned/fake"
)

type record struct {
	Hash  string   `json:"hash"`
	Nodes []string `json:"nodes,omitempty"`
}

// typedResources are the operator resources, each on a fake clientset that does server-side apply.
func typedResources(t *testing.T) map[string]Resource {
	meta := metav1.ObjectMeta{Name: Name, Annotations: map[string]string{"release.openshift.io/create-only": "true"}}
	objects := []runtime.Object{
		&operatorv1.KubeAPIServer{ObjectMeta: meta},
		&operatorv1.OpenShiftAPIServer{ObjectMeta: meta},
		&operatorv1.Authentication{ObjectMeta: meta},
	}
	cs := fake.NewClientset(objects...)
	return map[string]Resource{
		"kubeapiserver":      KubeAPIServer(cs.OperatorV1().KubeAPIServers()),
		"openshiftapiserver": OpenShiftAPIServer(cs.OperatorV1().OpenShiftAPIServers()),
		"authentication":     Authentication(cs.OperatorV1().Authentications()),
	}
}

func TestStoreOnEachOperatorResource(t *testing.T) {
	for name, resource := range typedResources(t) {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			holds := NewStore[[]record](resource, "rollback-holds")
			memory := NewStore[record](resource, "kek-memory")

			if v, found, err := holds.Load(ctx); err != nil || found || v != nil {
				t.Fatalf("Load before any Save = %v, %v, %v; want nothing found", v, found, err)
			}
			want := []record{{Hash: "a", Nodes: []string{"master-0"}}, {Hash: "b"}}
			if err := holds.Save(ctx, want); err != nil {
				t.Fatal(err)
			}
			if err := memory.Save(ctx, record{Hash: "m"}); err != nil {
				t.Fatal(err)
			}
			got, found, err := holds.Load(ctx)
			if err != nil || !found || len(got) != 2 || got[0].Hash != "a" || got[0].Nodes[0] != "master-0" || got[1].Hash != "b" {
				t.Fatalf("Load = %v, %v, %v; want %v", got, found, err, want)
			}

			// Clearing one store leaves the other store's annotation and the operator's own alone.
			if err := holds.Clear(ctx); err != nil {
				t.Fatal(err)
			}
			annotations, err := resource.Annotations(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := annotations[holds.Key()]; ok {
				t.Errorf("annotation %s still there after Clear: %v", holds.Key(), annotations)
			}
			if annotations[memory.Key()] != `{"hash":"m"}` || annotations["release.openshift.io/create-only"] != "true" {
				t.Errorf("annotations after clearing %s = %v; want the other store's and the operator's kept", holds.Key(), annotations)
			}
		})
	}
}

func TestStoreRefusesWhatItCannotKeep(t *testing.T) {
	resource := NewFakeResource()
	store := NewStore[record](resource, "recovery")

	err := store.Save(t.Context(), record{Hash: strings.Repeat("x", MaxValueBytes)})
	var tooLarge *TooLargeError
	if !errors.As(err, &tooLarge) || resource.Writes() != 0 {
		t.Fatalf("Save of a value over MaxValueBytes = %v after %d writes; want a TooLargeError and no write", err, resource.Writes())
	}

	if err := resource.ApplyAnnotations(t.Context(), "someone", map[string]string{store.Key(): "{not json"}); err != nil {
		t.Fatal(err)
	}
	_, found, err := store.Load(t.Context())
	var corrupt *CorruptValueError
	if !errors.As(err, &corrupt) || found || !strings.Contains(err.Error(), "annotation kmsguard.openshift.io/recovery of the fake operator resource") {
		t.Fatalf("Load of a corrupt value = found %v, %v; want a CorruptValueError naming the store", found, err)
	}

	readErr := errors.New("the server is currently unable to handle the request")
	resource.FailReads(readErr)
	if _, _, err := store.Load(t.Context()); !errors.Is(err, readErr) {
		t.Fatalf("Load with the resource unreadable = %v; want its error", err)
	}
}
