package configmapdata

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	clocktesting "k8s.io/utils/clock/testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
)

func TestUpdate(t *testing.T) {
	const namespace, name = "openshift-kube-apiserver-operator", "kmsguard-kms-state"
	existing := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Data: map[string]string{"other": "kept"}}
	cutByDeadline := fmt.Errorf(`Put "https://127.0.0.1:6443/api/v1/...": %w`, context.DeadlineExceeded)
	scenarios := []struct {
		name     string
		existing []runtime.Object
		// failVerb makes every request with this verb fail with failErr.
		failVerb string
		failErr  error
		wantErr  error
		want     map[string]string // the ConfigMap's data afterwards; nil: it does not exist
	}{
		{name: "creates a missing configmap", want: map[string]string{"state.json": "new"}},
		{name: "keeps the other keys", existing: []runtime.Object{existing}, want: map[string]string{"other": "kept", "state.json": "new"}},
		{
			// A write cut by its context is a failure, never a success: the caller would not write it again.
			name: "a write cut by its deadline is reported", existing: []runtime.Object{existing},
			failVerb: "update", failErr: cutByDeadline, wantErr: context.DeadlineExceeded,
			want: map[string]string{"other": "kept"},
		},
		{
			name:     "a read cut by its deadline is reported",
			failVerb: "get", failErr: cutByDeadline, wantErr: context.DeadlineExceeded,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kube := fake.NewClientset(s.existing...)
			if s.failVerb != "" {
				kube.PrependReactor(s.failVerb, "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) {
					return true, nil, s.failErr
				})
			}
			err := Update(context.Background(), kube.CoreV1(), namespace, name, nil, func(data map[string]string) { data["state.json"] = "new" })
			if s.wantErr == nil && err != nil || s.wantErr != nil && !errors.Is(err, s.wantErr) {
				t.Fatalf("Update = %v, want %v", err, s.wantErr)
			}
			if s.failVerb != "" {
				kube.ReactionChain = kube.ReactionChain[1:] // read back what was stored
			}
			cm, err := kube.CoreV1().ConfigMaps(namespace).Get(context.Background(), name, metav1.GetOptions{})
			switch {
			case s.want == nil && err == nil:
				t.Errorf("configmap %v exists, want none", cm.Data)
			case s.want != nil && err != nil:
				t.Errorf("configmap: %v", err)
			case s.want != nil && fmt.Sprint(cm.Data) != fmt.Sprint(s.want):
				t.Errorf("data %v, want %v", cm.Data, s.want)
			}
		})
	}
}

// TestUpdateStartsOverAnUnreadableCache: the KEK a cache was written under is destroyed. With the apiserver's
// AllowUnsafeMalformedObjectDeletion gate the cache is deleted with the unsafe delete, an event says so, and it is
// written afresh; without the gate (a LIST says no more than a GET) nothing is deleted and the error is returned.
func TestUpdateStartsOverAnUnreadableCache(t *testing.T) {
	const namespace, name = "openshift-kube-apiserver-operator", "kmsguard-kms-state"
	existing := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Data: map[string]string{"other": "lost with the key"}}

	t.Run("unsafe deletion allowed", func(t *testing.T) {
		kube := fake.NewClientset(existing.DeepCopy())
		apiservertest.Undecryptable(kube, "configmaps", namespace+"/"+name)
		recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakeClock(time.Now()))
		if err := Update(t.Context(), kube.CoreV1(), namespace, name, recorder, func(data map[string]string) { data["state.json"] = "new" }); err != nil {
			t.Fatal(err)
		}
		cm, err := kube.CoreV1().ConfigMaps(namespace).Get(t.Context(), name, metav1.GetOptions{})
		if err != nil || fmt.Sprint(cm.Data) != fmt.Sprint(map[string]string{"state.json": "new"}) {
			t.Fatalf("configmap %v (%v), want only the new data", cm, err)
		}
		if got := recorder.Events(); len(got) != 1 || got[0].Reason != EventCacheDeleted {
			t.Errorf("events %v, want one %s", got, EventCacheDeleted)
		}
	})

	t.Run("another ConfigMap is unreadable, and this one's GET fails for another reason", func(t *testing.T) {
		kube := fake.NewClientset(existing.DeepCopy())
		apiservertest.Undecryptable(kube, "configmaps", namespace+"/someone-elses")
		kube.PrependReactor("get", "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) {
			return true, nil, apierrors.NewInternalError(errors.New("etcdserver: request timed out"))
		})
		err := Update(t.Context(), kube.CoreV1(), namespace, name, nil, func(data map[string]string) { data["state.json"] = "new" })
		if !apierrors.IsInternalError(err) {
			t.Fatalf("Update = %v, want the apiserver's internal error", err)
		}
		for _, a := range kube.Actions() {
			if a.GetVerb() == "delete" {
				t.Errorf("deleted a readable cache: %v", a)
			}
		}
	})

	t.Run("without the feature gate", func(t *testing.T) {
		kube := fake.NewClientset(existing.DeepCopy())
		apiservertest.FailEncrypted(kube, "configmaps")
		err := Update(t.Context(), kube.CoreV1(), namespace, name, nil, func(data map[string]string) { data["state.json"] = "new" })
		if !apierrors.IsInternalError(err) {
			t.Fatalf("Update = %v, want the apiserver's internal error", err)
		}
		for _, a := range kube.Actions() {
			if a.GetVerb() == "delete" {
				t.Errorf("deleted without a StorageReadError: %v", a)
			}
		}
	})
}
