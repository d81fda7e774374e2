package encryptionconfig

import (
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	const header = "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n"
	scenarios := []struct {
		name    string
		yaml    string
		wantErr string
		check   func(t *testing.T, providers int, timeout string)
	}{
		{
			name: "kms v2 then identity, timeout defaulted",
			yaml: header + `resources:
- resources: [secrets]
  providers:
  - kms: {apiVersion: v2, name: vault, endpoint: unix:///var/run/kmsplugin/kms.sock}
  - identity: {}
`,
			check: func(t *testing.T, providers int, timeout string) {
				if providers != 2 || timeout != "3s" {
					t.Errorf("got %d providers and timeout %s, want 2 and the apiserver default 3s", providers, timeout)
				}
			},
		},
		{
			name:    "tcp endpoint",
			yaml:    header + "resources:\n- resources: [secrets]\n  providers:\n  - kms: {apiVersion: v2, name: vault, endpoint: tcp://10.0.0.1:80}\n",
			wantErr: "unsupported scheme",
		},
		{
			name:    "colon in a v2 name",
			yaml:    header + "resources:\n- resources: [secrets]\n  providers:\n  - kms: {apiVersion: v2, name: 'a:b', endpoint: unix:///k.sock}\n",
			wantErr: "a:b",
		},
		{
			name: "duplicate v2 names",
			yaml: header + `resources:
- resources: [secrets]
  providers:
  - kms: {apiVersion: v2, name: vault, endpoint: unix:///a.sock}
- resources: [configmaps]
  providers:
  - kms: {apiVersion: v2, name: vault, endpoint: unix:///b.sock}
`,
			wantErr: "duplicate",
		},
		{
			name:    "cachesize on v2",
			yaml:    header + "resources:\n- resources: [secrets]\n  providers:\n  - kms: {apiVersion: v2, name: vault, endpoint: unix:///k.sock, cachesize: 10}\n",
			wantErr: "cachesize",
		},
		{
			name:    "negative timeout",
			yaml:    header + "resources:\n- resources: [secrets]\n  providers:\n  - kms: {apiVersion: v2, name: vault, endpoint: unix:///k.sock, timeout: -1s}\n",
			wantErr: "timeout",
		},
		{
			name:    "misspelt field is not dropped silently",
			yaml:    header + "resources:\n- resources: [secrets]\n  providers:\n  - kms: {apiVersion: v2, name: vault, endpont: unix:///k.sock}\n",
			wantErr: "endpont",
		},
		{name: "not yaml", yaml: "{{{", wantErr: "decoding EncryptionConfiguration"},
		{name: "wrong kind", yaml: "apiVersion: v1\nkind: ConfigMap\n", wantErr: "decoding EncryptionConfiguration"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			config, err := Decode([]byte(s.yaml))
			if s.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantErr) {
					t.Fatalf("want an error containing %q, got %v", s.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			providers := config.Resources[0].Providers
			s.check(t, len(providers), providers[0].KMS.Timeout.Duration.String())
		})
	}
}
