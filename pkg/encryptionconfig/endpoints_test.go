package encryptionconfig

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMapKMSEndpoints: every KMS provider's endpoint is mapped, in every entry and of either API version; nothing
// else changes, and the config given is left as it was.
func TestMapKMSEndpoints(t *testing.T) {
	config, err := DecodeUnvalidated([]byte(`apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
- resources: [secrets]
  providers:
  - kms: {apiVersion: v2, name: "2", endpoint: unix:///var/run/kmsplugin/kms-2.sock}
  - aescbc: {keys: [{name: "1", secret: c2VjcmV0LWtleS0xMjM0NTY3ODkwMTIzNDU2}]}
  - identity: {}
- resources: [configmaps, secrets]
  providers:
  - kms: {name: legacy, endpoint: unix:///tmp/legacy.sock}
  - kms: {apiVersion: v2, name: "1", endpoint: unix:///var/run/kmsplugin/kms-1.sock}
`))
	if err != nil {
		t.Fatal(err)
	}
	before := config.DeepCopy()
	mapped := MapKMSEndpoints(config, func(endpoint string) string {
		return strings.Replace(endpoint, "/var/run/kmsplugin", "/node-0/sockets", 1) + "?mapped"
	})

	var got []string
	for _, p := range mapped.Resources[0].Providers {
		if p.KMS != nil {
			got = append(got, p.KMS.Endpoint)
		}
	}
	for _, p := range mapped.Resources[1].Providers {
		got = append(got, p.KMS.Endpoint)
	}
	want := []string{"unix:///node-0/sockets/kms-2.sock?mapped", "unix:///tmp/legacy.sock?mapped", "unix:///node-0/sockets/kms-1.sock?mapped"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mapped endpoints (-want +got):\n%s", diff)
	}
	// Everything but the endpoints is as it was.
	unmapped := MapKMSEndpoints(mapped, func(endpoint string) string {
		return strings.Replace(strings.TrimSuffix(endpoint, "?mapped"), "/node-0/sockets", "/var/run/kmsplugin", 1)
	})
	if diff := cmp.Diff(before, unmapped); diff != "" {
		t.Errorf("mapping the endpoints back does not give the config (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, config); diff != "" {
		t.Errorf("the config given changed (-before +after):\n%s", diff)
	}
	if MapKMSEndpoints(nil, func(string) string { return "" }) != nil {
		t.Error("a nil config mapped to a config")
	}
}
