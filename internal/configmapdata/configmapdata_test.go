package configmapdata

import (
	"context"
	"errors"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
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
			err := Update(context.Background(), kube.CoreV1(), namespace, name, func(data map[string]string) { data["state.json"] = "new" })
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
