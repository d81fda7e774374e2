package kmsrecovery_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	clienttesting "k8s.io/client-go/testing"

	"github.com/kmsguard/kmsguard/internal/recoverytest"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
)

// lostKey and liveKey are the KEK ids of these tests: lostKey was destroyed, liveKey still works.
const (
	lostKey = "key-lost"
	liveKey = "key-live"
)

// addSecrets stores n Secrets default/<prefix>-NNNN under keyID.
func addSecrets(c *recoverytest.Cluster, namespace, prefix string, n int, keyID string, readable bool) {
	for i := 0; i < n; i++ {
		c.Add(recoverytest.Secrets, namespace, fmt.Sprintf("%s-%04d", prefix, i), keyID, readable)
	}
}

func etcdKeys(objects []kmsrecovery.Object) []string {
	keys := make([]string, 0, len(objects))
	for _, o := range objects {
		keys = append(keys, o.EtcdKey)
	}
	return keys
}

// TestScanFindsEveryUnreadableObject: more than 100 unreadable objects (the cap of one StorageReadError), in
// runs between readable ones, namespaced and cluster-scoped, each reported once with the key it is stored
// under when etcd is readable, and UnknownConsentID when it is not.
func TestScanFindsEveryUnreadableObject(t *testing.T) {
	cluster := recoverytest.NewCluster()
	addSecrets(cluster, "app", "a-readable", 40, liveKey, true)
	addSecrets(cluster, "app", "b-lost", 230, lostKey, false)
	addSecrets(cluster, "app", "c-readable", 3, liveKey, true)
	addSecrets(cluster, "openshift-etcd", "lost", 7, lostKey, false)
	cluster.Add(recoverytest.Tokens, "", "sha256~lost", lostKey, false)
	cluster.Add(recoverytest.Tokens, "", "sha256~live", liveKey, true)
	resources := []kmsrecovery.Resource{recoverytest.Secrets, recoverytest.ConfigMaps, recoverytest.Tokens}

	var want []string
	for i := 0; i < 230; i++ {
		want = append(want, recoverytest.EtcdKey(recoverytest.Secrets, "app", fmt.Sprintf("b-lost-%04d", i)))
	}
	for i := 0; i < 7; i++ {
		want = append(want, recoverytest.EtcdKey(recoverytest.Secrets, "openshift-etcd", fmt.Sprintf("lost-%04d", i)))
	}
	want = append(want, recoverytest.EtcdKey(recoverytest.Tokens, "", "sha256~lost"))

	for _, withEtcd := range []bool{true, false} {
		t.Run(fmt.Sprintf("etcd readable %v", withEtcd), func(t *testing.T) {
			scanner := &kmsrecovery.Scanner{Client: cluster.Dynamic, PageSize: 50}
			wantKeyID := kmsrecovery.UnknownConsentID
			if withEtcd {
				scanner.Raw, wantKeyID = cluster.Raw(), recoverytest.Provider+":"+lostKey
			}
			progress := map[string][2]int{}
			scanner.Progress = func(gr schema.GroupResource, readable, unreadable int) {
				progress[gr.String()] = [2]int{readable, unreadable}
			}
			findings, err := scanner.Scan(context.Background(), resources, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, etcdKeys(findings.Objects())); diff != "" {
				t.Errorf("unreadable objects (-want +got):\n%s", diff)
			}
			readable := map[string]int{}
			for _, r := range findings.Resources {
				readable[r.Resource.String()] = r.Readable
			}
			if diff := cmp.Diff(map[string]int{"secrets": 43, "configmaps": 0, "oauthaccesstokens.oauth.openshift.io": 1}, readable); diff != "" {
				t.Errorf("readable counts (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(map[string][2]int{"secrets": {43, 237}, "oauthaccesstokens.oauth.openshift.io": {1, 1}}, progress); diff != "" {
				t.Errorf("last progress per resource (-want +got):\n%s", diff)
			}
			if got := findings.ConsentIDs(); !cmp.Equal(got, []string{wantKeyID}) {
				t.Errorf("key ids %v, want [%s]", got, wantKeyID)
			}
			for _, o := range findings.Objects() {
				if wantManaged := o.Namespace == "openshift-etcd"; o.OperatorManaged != wantManaged {
					t.Errorf("%s: OperatorManaged %v, want %v", o.ObjectRef, o.OperatorManaged, wantManaged)
				}
				if withEtcd && o.Provider != recoverytest.Provider {
					t.Errorf("%s: provider %q, want %q", o.ObjectRef, o.Provider, recoverytest.Provider)
				}
			}
			token := findings.Objects()[len(findings.Objects())-1]
			if token.Namespace != "" || token.Name != "sha256~lost" {
				t.Errorf("cluster-scoped object parsed as %+v", token.ObjectRef)
			}
			wantSummary := fmt.Sprintf("secrets: 237 of 280 (key %s: 237); oauthaccesstokens.oauth.openshift.io: 1 of 2 (key %s: 1)", wantKeyID, wantKeyID)
			if got := findings.Summary(); got != wantSummary {
				t.Errorf("summary %q, want %q", got, wantSummary)
			}
		})
	}
}

// TestScanTracksObjects: tracked objects that are listed readable are reported back.
func TestScanTracksObjects(t *testing.T) {
	cluster := recoverytest.NewCluster()
	cluster.Add(recoverytest.Secrets, "openshift-x", "back", liveKey, true)
	back := kmsrecovery.ObjectRef{Resource: recoverytest.Secrets.GroupResource(), Namespace: "openshift-x", Name: "back"}
	missing := kmsrecovery.ObjectRef{Resource: recoverytest.Secrets.GroupResource(), Namespace: "openshift-x", Name: "missing"}
	findings, err := (&kmsrecovery.Scanner{Client: cluster.Dynamic}).Scan(context.Background(), []kmsrecovery.Resource{recoverytest.Secrets}, sets.New(back, missing))
	if err != nil {
		t.Fatal(err)
	}
	if !findings.Tracked.Equal(sets.New(back)) {
		t.Errorf("tracked %v, want only %v", findings.Tracked.UnsortedList(), back)
	}
}

// TestScanReturnsListErrors: a LIST failing without naming objects (the feature gate off) is an error.
func TestScanReturnsListErrors(t *testing.T) {
	cluster := recoverytest.NewCluster()
	gateOff := apierrors.NewInternalError(errors.New("failed to decrypt DEK"))
	cluster.Fake.PrependReactor("list", "secrets", func(clienttesting.Action) (bool, runtimeObject, error) { return true, nil, gateOff })
	_, err := (&kmsrecovery.Scanner{Client: cluster.Dynamic}).Scan(context.Background(), []kmsrecovery.Resource{recoverytest.Secrets}, nil)
	if err == nil || !strings.Contains(err.Error(), "listing secrets") || !errors.Is(err, gateOff) {
		t.Fatalf("got %v, want the LIST error wrapped", err)
	}
}

// TestScanTellsWhatEachValueWasWrittenUnder: every kind of stored value gets the consent id a consent must name,
// and only a KMS v2 value has a KEK id.
func TestScanTellsWhatEachValueWasWrittenUnder(t *testing.T) {
	aescbc := append([]byte("k8s:enc:aescbc:v1:key-2:"), make([]byte, 48)...)
	scenarios := []struct {
		name          string
		add           func(c *recoverytest.Cluster)
		want          kmsrecovery.Object
		wantDetailHas string
	}{
		{
			name: "kms v2",
			add:  func(c *recoverytest.Cluster) { c.AddKMS(recoverytest.Secrets, "app", "s", "vault", "kek-7", false) },
			want: kmsrecovery.Object{Kind: etcdvalue.KindKMSv2, Provider: "vault", KEKID: "kek-7", ConsentID: "vault:kek-7"},
		},
		{
			name: "aescbc",
			add:  func(c *recoverytest.Cluster) { c.AddRaw(recoverytest.Secrets, "app", "s", aescbc, false) },
			want: kmsrecovery.Object{Kind: etcdvalue.KindAESCBC, Provider: "key-2", ConsentID: "aescbc:key-2"},
		},
		{
			name:          "corrupt plaintext",
			add:           func(c *recoverytest.Cluster) { c.AddRaw(recoverytest.Secrets, "app", "s", corruptPlaintext, false) },
			want:          kmsrecovery.Object{Kind: etcdvalue.KindIdentity, ConsentID: "identity"},
			wantDetailHas: "does not decode",
		},
		{
			name: "a value of no known format",
			add: func(c *recoverytest.Cluster) {
				c.AddRaw(recoverytest.Secrets, "app", "s", []byte("k8s:enc:unheard-of:v9:x:"), false)
			},
			want:          kmsrecovery.Object{ConsentID: kmsrecovery.UnknownConsentID},
			wantDetailHas: "unknown value format",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			cluster := recoverytest.NewCluster()
			s.add(cluster)
			findings, err := (&kmsrecovery.Scanner{Client: cluster.Dynamic, Raw: cluster.Raw()}).Scan(context.Background(), []kmsrecovery.Resource{recoverytest.Secrets}, nil)
			if err != nil {
				t.Fatal(err)
			}
			objects := findings.Objects()
			if len(objects) != 1 {
				t.Fatalf("found %d undecryptable objects, want 1", len(objects))
			}
			got := objects[0]
			if !strings.Contains(got.Detail, s.wantDetailHas) {
				t.Errorf("detail %q does not contain %q", got.Detail, s.wantDetailHas)
			}
			got.ObjectRef, got.EtcdKey, got.Detail = kmsrecovery.ObjectRef{}, "", ""
			if diff := cmp.Diff(s.want, got); diff != "" {
				t.Errorf("object (-want +got):\n%s", diff)
			}
		})
	}
}
