package encryptionconfig

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestKMSProvidersOfUnvalidatedConfig(t *testing.T) {
	const header = "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n"
	scenarios := []struct {
		name    string
		yaml    string
		want    []KMSProvider
		wantErr string
	}{
		{
			name: "no data is no encryption",
		},
		{
			name: "the first provider writes, timeouts defaulted as kube-apiserver does",
			yaml: header + `resources:
- resources: [secrets, configmaps]
  providers:
  - kms: {apiVersion: v2, name: 2_secrets, endpoint: unix:///var/run/kmsplugin/kms-2.sock, timeout: 10s}
  - kms: {apiVersion: v2, name: 1_secrets, endpoint: unix:///var/run/kmsplugin/kms-1.sock}
  - identity: {}
`,
			want: []KMSProvider{
				{Resource: "secrets", Writes: true, Name: "2_secrets", Endpoint: "unix:///var/run/kmsplugin/kms-2.sock", APIVersion: "v2", Timeout: 10 * time.Second},
				{Resource: "secrets", Name: "1_secrets", Endpoint: "unix:///var/run/kmsplugin/kms-1.sock", APIVersion: "v2", Timeout: 3 * time.Second},
				{Resource: "configmaps", Writes: true, Name: "2_secrets", Endpoint: "unix:///var/run/kmsplugin/kms-2.sock", APIVersion: "v2", Timeout: 10 * time.Second},
				{Resource: "configmaps", Name: "1_secrets", Endpoint: "unix:///var/run/kmsplugin/kms-1.sock", APIVersion: "v2", Timeout: 3 * time.Second},
			},
		},
		{
			// Validation rejects this config; kube-apiserver's first-match rule still says which entry counts.
			name: "a resource listed twice takes the first entry, even one without KMS",
			yaml: header + `resources:
- resources: [secrets]
  providers:
  - identity: {}
  - kms: {apiVersion: v2, name: read, endpoint: unix:///tmp/read.sock}
- resources: [secrets, configmaps]
  providers:
  - kms: {apiVersion: v2, name: ignored-for-secrets, endpoint: unix:///tmp/second.sock}
`,
			want: []KMSProvider{
				{Resource: "secrets", Name: "read", Endpoint: "unix:///tmp/read.sock", APIVersion: "v2", Timeout: 3 * time.Second},
				{Resource: "configmaps", Writes: true, Name: "ignored-for-secrets", Endpoint: "unix:///tmp/second.sock", APIVersion: "v2", Timeout: 3 * time.Second},
			},
		},
		{
			name: "invalid but decodable: judged, not refused",
			yaml: header + `resources:
- resources: [secrets]
  providers:
  - kms: {apiVersion: v2, name: "has:colon", endpoint: "tcp://not-unix", cachesize: 10}
`,
			want: []KMSProvider{{Resource: "secrets", Writes: true, Name: "has:colon", Endpoint: "tcp://not-unix", APIVersion: "v2", Timeout: 3 * time.Second}},
		},
		{
			name:    "no kind",
			yaml:    "resources: []\n",
			wantErr: "got /, Kind=",
		},
		{
			name:    "not YAML",
			yaml:    header + "resources: {\n",
			wantErr: "decoding EncryptionConfiguration",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			config, err := DecodeUnvalidated([]byte(s.yaml))
			if s.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, s.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(s.want, KMSProviders(config)); diff != "" {
				t.Errorf("KMS providers differ (-want +got):\n%s", diff)
			}
		})
	}
	if got := KMSProviders(nil); got != nil {
		t.Errorf("KMSProviders(nil) = %v", got)
	}
}
