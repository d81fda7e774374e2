package conformance_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/server/options/encryptionconfig"
	"k8s.io/apiserver/pkg/storage/value"
	kmsservice "k8s.io/kms/pkg/service"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
)

// encryptionConfig gives every provider that can be tested in-process its
// own resource. KMS v1 is left out: it is disabled by default and its
// service factory cannot be replaced from outside k8s.io/apiserver.
const encryptionConfig = `
apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
- resources: [secrets]
  providers:
  - kms: {apiVersion: v2, name: kms-seed, endpoint: "unix:///unused/kms-seed.sock"}
- resources: [leases.coordination.k8s.io]
  providers:
  - kms: {apiVersion: v2, name: kms-legacy-dek, endpoint: "unix:///unused/kms-legacy-dek.sock"}
- resources: [configmaps]
  providers:
  - aescbc: {keys: [{name: "1", secret: MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=}]}
- resources: [pods]
  providers:
  - aesgcm: {keys: [{name: "key with spaces/ü", secret: MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=}]}
- resources: [services]
  providers:
  - secretbox: {keys: [{name: "2", secret: MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=}]}
- resources: [namespaces]
  providers:
  - identity: {}
`

// TestParseValuesWrittenByKubeAPIServer parses values written by the
// transformers kube-apiserver builds from its encryption configuration, so
// that the prefixes and minimum payload sizes Parse assumes are checked
// against the code that writes them rather than restated.
func TestParseValuesWrittenByKubeAPIServer(t *testing.T) {
	// kube-apiserver has derived per-write DEKs from a seed since 1.29;
	// this switches one provider back to a single DEK.
	t.Cleanup(encryptionconfig.SetKDFForTests("kms-legacy-dek", false))
	replaced := encryptionconfig.EnvelopeKMSv2ServiceFactory
	encryptionconfig.EnvelopeKMSv2ServiceFactory = func(_ context.Context, _, providerName string, _ time.Duration) (kmsservice.Service, error) {
		return fakeKMSv2{keyID: "key-for-" + providerName}, nil
	}
	t.Cleanup(func() { encryptionconfig.EnvelopeKMSv2ServiceFactory = replaced })

	path := filepath.Join(t.TempDir(), "encryption-config.yaml")
	if err := os.WriteFile(path, []byte(encryptionConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	config, err := encryptionconfig.LoadEncryptionConfig(t.Context(), path, false, "test-apiserver")
	if err != nil {
		t.Fatalf("LoadEncryptionConfig: %v", err)
	}

	scenarios := []struct {
		name     string
		resource schema.GroupResource
		want     etcdvalue.Value
	}{
		{
			name:     "kms v2 with a seed",
			resource: schema.GroupResource{Resource: "secrets"},
			want: etcdvalue.Value{
				Kind:          etcdvalue.KindKMSv2,
				Name:          "kms-seed",
				KEKID:         "key-for-kms-seed",
				DEKSourceType: etcdvalue.DEKSourceHKDFSeed,
			},
		},
		{
			name:     "kms v2 with a DEK",
			resource: schema.GroupResource{Group: "coordination.k8s.io", Resource: "leases"},
			want: etcdvalue.Value{
				Kind:          etcdvalue.KindKMSv2,
				Name:          "kms-legacy-dek",
				KEKID:         "key-for-kms-legacy-dek",
				DEKSourceType: etcdvalue.DEKSourceAESGCMKey,
			},
		},
		{
			name:     "aescbc",
			resource: schema.GroupResource{Resource: "configmaps"},
			want:     etcdvalue.Value{Kind: etcdvalue.KindAESCBC, Name: "1"},
		},
		{
			name:     "aesgcm",
			resource: schema.GroupResource{Resource: "pods"},
			want:     etcdvalue.Value{Kind: etcdvalue.KindAESGCM, Name: "key with spaces/ü"},
		},
		{
			name:     "secretbox",
			resource: schema.GroupResource{Resource: "services"},
			want:     etcdvalue.Value{Kind: etcdvalue.KindSecretbox, Name: "2"},
		},
		{
			name:     "identity",
			resource: schema.GroupResource{Resource: "namespaces"},
			want:     etcdvalue.Value{Kind: etcdvalue.KindIdentity},
		},
	}

	plaintexts := map[string][]byte{
		// The shortest object; each encrypting provider then writes the
		// smallest payload it can, which Parse must still accept.
		"empty":    nil,
		"protobuf": []byte("k8s\x00\n\x0c\n\x02v1\x12\x06Secret\x12\x04data"),
	}

	for _, scenario := range scenarios {
		for plaintextName, plaintext := range plaintexts {
			if scenario.want.Kind == etcdvalue.KindIdentity && len(plaintext) == 0 {
				continue // stored as an empty value, which Parse rejects
			}
			t.Run(scenario.name+" of "+plaintextName+" object", func(t *testing.T) {
				transformer, ok := config.Transformers[scenario.resource]
				if !ok {
					t.Fatalf("no transformer for %v", scenario.resource)
				}
				stored, err := transformer.TransformToStorage(t.Context(), plaintext, value.DefaultContext("/registry/key"))
				if err != nil {
					t.Fatalf("TransformToStorage: %v", err)
				}

				got, err := etcdvalue.Parse(stored)
				if err != nil {
					t.Fatalf("Parse() error = %v", err)
				}
				if got != scenario.want {
					t.Errorf("Parse() = %+v, want %+v", got, scenario.want)
				}
			})
		}
	}
}

// fakeKMSv2 is the smallest KMS v2 service kube-apiserver will write
// through: healthy, one key, and a "wrapped" DEK that is a fixed string.
type fakeKMSv2 struct {
	keyID string
}

func (f fakeKMSv2) Encrypt(context.Context, string, []byte) (*kmsservice.EncryptResponse, error) {
	return &kmsservice.EncryptResponse{
		Ciphertext:  []byte("wrapped-dek"),
		KeyID:       f.keyID,
		Annotations: map[string][]byte{"version.kms.example.com": []byte("1")},
	}, nil
}

func (f fakeKMSv2) Decrypt(context.Context, string, *kmsservice.DecryptRequest) ([]byte, error) {
	return nil, errors.New("fakeKMSv2 does not decrypt")
}

func (f fakeKMSv2) Status(context.Context) (*kmsservice.StatusResponse, error) {
	return &kmsservice.StatusResponse{Version: "v2", Healthz: "ok", KeyID: f.keyID}, nil
}
