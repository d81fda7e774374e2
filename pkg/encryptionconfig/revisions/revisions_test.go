package revisions

import (
	"context"
	"reflect"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

func TestSecretSource(t *testing.T) {
	const ns = "openshift-kube-apiserver"
	secret := func(name, config string) *corev1.Secret {
		return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Data: map[string][]byte{"encryption-config": []byte(config), "kms-plugin.json": []byte("{}")}}
	}
	scenarios := []struct {
		name        string
		latest      int32
		secrets     []runtime.Object
		want        Configs
		wantRev3    Configs
		wantData3   bool
		wantHashOf3 string
	}{
		{
			name:     "no revision yet: nothing deployed",
			secrets:  []runtime.Object{secret("encryption-config", "candidate")},
			want:     Configs{Candidate: []byte("candidate"), CandidateName: ns + "/encryption-config"},
			wantRev3: Configs{CandidateName: ns + "/encryption-config-3"},
		},
		{
			name:    "the deployed config is the latest available revision's",
			latest:  3,
			secrets: []runtime.Object{secret("encryption-config", "candidate"), secret("encryption-config-2", "two"), secret("encryption-config-3", "three")},
			want: Configs{Candidate: []byte("candidate"), CandidateName: ns + "/encryption-config",
				Deployed: []byte("three"), DeployedName: ns + "/encryption-config-3"},
			wantRev3: Configs{Candidate: []byte("three"), CandidateName: ns + "/encryption-config-3",
				Deployed: []byte("three"), DeployedName: ns + "/encryption-config-3"},
			wantData3:   true,
			wantHashOf3: CandidateHash([]byte("three")),
		},
		{
			name:     "a revision without its optional secret runs unencrypted",
			latest:   3,
			secrets:  []runtime.Object{secret("encryption-config", "candidate")},
			want:     Configs{Candidate: []byte("candidate"), CandidateName: ns + "/encryption-config", DeployedName: ns + "/encryption-config-3"},
			wantRev3: Configs{CandidateName: ns + "/encryption-config-3", DeployedName: ns + "/encryption-config-3"},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			operator := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{LatestAvailableRevision: s.latest}, nil)
			source := Secrets(fake.NewClientset(s.secrets...).CoreV1(), ns, operator)
			ctx := context.Background()
			got, err := source.Configs(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, s.want) {
				t.Errorf("Configs: got %+v, want %+v", got, s.want)
			}
			if got, err = source.RevisionConfigs(ctx, 3); err != nil || !reflect.DeepEqual(got, s.wantRev3) {
				t.Errorf("RevisionConfigs(3): got %+v %v, want %+v", got, err, s.wantRev3)
			}
			data, err := source.RevisionConfig(ctx, 3)
			if err != nil {
				t.Fatal(err)
			}
			if (data != nil) != s.wantData3 {
				t.Errorf("RevisionConfig(3): got %v, want data: %v", data, s.wantData3)
			}
			if got := Hash(data); got != s.wantHashOf3 {
				t.Errorf("Hash: got %q, want %q", got, s.wantHashOf3)
			}
		})
	}
}

// TestSynced: the candidate comes from the informer cache of the other namespace, the deployed config from the
// operand's latest revision.
func TestSynced(t *testing.T) {
	const ns, managed = "openshift-kube-apiserver", "openshift-config-managed"
	secret := func(namespace, name, config string) *corev1.Secret {
		return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Data: map[string][]byte{"encryption-config": []byte(config)}}
	}
	operator := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{LatestAvailableRevision: 2}, nil)
	// The API has the newest managed config; the informer cache the resource sync copies from has not seen it yet:
	// what the sync copies next is the cached one, so that is what is judged.
	client := fake.NewClientset(secret(ns, "encryption-config", "copied"), secret(ns, "encryption-config-2", "two"),
		secret(managed, "encryption-config-"+ns, "newer"))
	informerCache := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	if err := informerCache.Add(secret(managed, "encryption-config-"+ns, "computed")); err != nil {
		t.Fatal(err)
	}
	got, err := Secrets(client.CoreV1(), ns, operator).Synced(corev1listers.NewSecretLister(informerCache), managed, "encryption-config-"+ns).Configs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := Configs{Candidate: []byte("computed"), CandidateName: managed + "/encryption-config-" + ns, Deployed: []byte("two"), DeployedName: ns + "/encryption-config-2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Configs = %+v, want %+v", got, want)
	}
}
