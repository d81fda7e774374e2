package encryptionconfig

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
)

const readKeysConfig = "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n" + `resources:
- resources: [secrets]
  providers:
  - kms: {apiVersion: v2, name: 2_secrets, endpoint: unix:///var/run/kmsplugin/kms-2.sock}
  - aescbc: {keys: [{name: "4", secret: c2VjcmV0LWlzLXNlY3JldC1pcy1zZWNyZXQtaXMtMzI=}, {name: "3", secret: c2VjcmV0LWlzLXNlY3JldC1pcy1zZWNyZXQtaXMtMzI=}]}
  - kms: {name: v1-provider, endpoint: unix:///tmp/v1.sock}
  - identity: {}
- resources: [deployments.apps, "*.apps"]
  providers:
  - aesgcm: {keys: [{name: g1, secret: c2VjcmV0LWlzLXNlY3JldC1pcy1zZWNyZXQtaXMtMzI=}]}
- resources: ["*.*"]
  providers:
  - secretbox: {keys: [{name: sb, secret: c2VjcmV0LWlzLXNlY3JldC1pcy1zZWNyZXQtaXMtMzI=}]}
  - identity: {}
- resources: [secrets]
  providers:
  - identity: {}
`

func TestReadKeys(t *testing.T) {
	config, err := DecodeUnvalidated([]byte(readKeysConfig))
	if err != nil {
		t.Fatal(err)
	}
	kms2 := StorageKey{Kind: etcdvalue.KindKMSv2, Name: "2_secrets", Endpoint: "unix:///var/run/kmsplugin/kms-2.sock"}
	secrets := []StorageKey{
		kms2,
		{Kind: etcdvalue.KindAESCBC, Name: "4"},
		{Kind: etcdvalue.KindAESCBC, Name: "3"},
		{Kind: etcdvalue.KindKMSv1, Name: "v1-provider", Endpoint: "unix:///tmp/v1.sock"},
		{Kind: etcdvalue.KindIdentity},
	}
	apps := []StorageKey{{Kind: etcdvalue.KindAESGCM, Name: "g1"}}
	anything := []StorageKey{{Kind: etcdvalue.KindSecretbox, Name: "sb"}, {Kind: etcdvalue.KindIdentity}}
	// The second "secrets" entry is masked by the first, as kube-apiserver's validation and KMSProviders have it.
	want := []ResourceKeys{{"secrets", secrets}, {"deployments.apps", apps}, {"*.apps", apps}, {"*.*", anything}}
	if diff := cmp.Diff(want, ReadKeys(config)); diff != "" {
		t.Errorf("ReadKeys (-want +got):\n%s", diff)
	}

	scenarios := []struct {
		gr        schema.GroupResource
		wantFrom  string
		want      []StorageKey
		wantFound bool
	}{
		{gr: schema.GroupResource{Resource: "secrets"}, wantFrom: "secrets", want: secrets, wantFound: true},
		{gr: schema.GroupResource{Group: "apps", Resource: "deployments"}, wantFrom: "deployments.apps", want: apps, wantFound: true},
		{gr: schema.GroupResource{Group: "apps", Resource: "statefulsets"}, wantFrom: "*.apps", want: apps, wantFound: true},
		{gr: schema.GroupResource{Group: "apps", Resource: "*"}, wantFrom: "*.apps", want: apps, wantFound: true},
		{gr: schema.GroupResource{Resource: "configmaps"}, wantFrom: "*.*", want: anything, wantFound: true},
		{gr: schema.GroupResource{Group: "route.openshift.io", Resource: "routes"}, wantFrom: "*.*", want: anything, wantFound: true},
	}
	for _, s := range scenarios {
		got, found := KeysFor(config, s.gr)
		if found != s.wantFound || got.Resource != s.wantFrom {
			t.Errorf("KeysFor(%s) from %q (found %v), want %q", s.gr, got.Resource, found, s.wantFrom)
		}
		if diff := cmp.Diff(s.want, got.Keys); diff != "" {
			t.Errorf("KeysFor(%s) (-want +got):\n%s", s.gr, diff)
		}
	}
	if w, _ := (ResourceKeys{Keys: secrets}).WriteKey(); w != kms2 {
		t.Errorf("write key %v, want %v", w, kms2)
	}

	// Nothing covers configmaps without the "*.*" entry: kube-apiserver stores it in plaintext.
	config.Resources = config.Resources[:2]
	got, found := KeysFor(config, schema.GroupResource{Resource: "configmaps"})
	if found || !cmp.Equal(got.Keys, []StorageKey{{Kind: etcdvalue.KindIdentity}}) {
		t.Errorf("KeysFor(configmaps) without an entry = %v (found %v), want identity, not found", got, found)
	}
	for resource, want := range map[string]bool{"secrets": false, "*.apps": true, "*.*": true, "*.": true, "deployments.apps": false} {
		if IsWildcard(resource) != want {
			t.Errorf("IsWildcard(%q) = %v", resource, !want)
		}
	}
	if ReadKeys(nil) != nil {
		t.Error("ReadKeys(nil) is not nil")
	}
}
