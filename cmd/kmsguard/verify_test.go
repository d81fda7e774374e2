package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kmsguard/kmsguard/internal/cli"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kmsguard/kmsguard/pkg/etcdclient"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
)

const verifyTestConfig = `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
- resources: [secrets]
  providers:
  - kms:
      apiVersion: v2
      name: vault
      endpoint: unix:///var/run/kmsplugin/kms-1.sock
  - identity: {}
- resources: [configmaps]
  providers:
  - aescbc:
      keys:
      - name: "7"
        secret: MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTI=
  - identity: {}
`

// TestVerifyResolveWriteKey: the write key comes from --write-provider or from --encryption-config and --kek-id,
// never both, and what is wrong is said in terms of the flags and the file. How a config resolves to a write key
// is evidence's (TestWriteKeyFromConfig).
func TestVerifyResolveWriteKey(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "encryption-config.yaml")
	if err := os.WriteFile(config, []byte(verifyTestConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	invalid := filepath.Join(dir, "invalid.yaml")
	if err := os.WriteFile(invalid, []byte(strings.Replace(verifyTestConfig, "endpoint:", "endpont:", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.yaml")
	scenarios := []struct {
		name      string
		opts      verifyOptions
		resources []string
		want      evidence.WriteKey
		// wantErr is the whole message for the errors that name a flag or the file; wantErrIn is in the others.
		wantErr   string
		wantErrIn string
	}{
		{name: "flag", opts: verifyOptions{writeProvider: "kms-v2:vault:key-9"}, resources: []string{"secrets"}, want: evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: "vault", KEKID: "key-9"}},
		{name: "config and KEK id", opts: verifyOptions{encryptionConfig: config, kekID: "key-9"}, resources: []string{"secrets"}, want: evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: "vault", KEKID: "key-9"}},
		{name: "config, aescbc", opts: verifyOptions{encryptionConfig: config}, resources: []string{"configmaps"}, want: evidence.WriteKey{Kind: etcdvalue.KindAESCBC, Name: "7"}},
		{
			name: "config, KMS v2 without --kek-id", opts: verifyOptions{encryptionConfig: config}, resources: []string{"secrets"},
			wantErr: `secrets (entry "secrets"): the write provider is KMS v2 "vault": give its current KEK id with --kek-id (kmsguard status shows it)`,
		},
		{
			name: "config, --kek-id for a non-KMS provider", opts: verifyOptions{encryptionConfig: config, kekID: "x"}, resources: []string{"configmaps"},
			wantErr: "--kek-id given, but the write provider is aescbc:7",
		},
		{
			name: "config, a resource it does not encrypt", opts: verifyOptions{encryptionConfig: config, kekID: "key-9"}, resources: []string{"secrets", "deployments.apps"},
			wantErr: config + " does not encrypt deployments.apps",
		},
		{
			name: "config, resources with different writers", opts: verifyOptions{encryptionConfig: config, kekID: "key-9"}, resources: []string{"secrets", "configmaps"},
			wantErr: "the resources have different write providers (kms-v2:vault:key-9, aescbc:7): verify them one at a time",
		},
		{name: "config file missing", opts: verifyOptions{encryptionConfig: missing}, resources: []string{"secrets"}, wantErrIn: missing + ": no such file"},
		{name: "config invalid", opts: verifyOptions{encryptionConfig: invalid, kekID: "key-9"}, resources: []string{"secrets"}, wantErrIn: invalid + ": decoding EncryptionConfiguration"},
		{name: "both", opts: verifyOptions{encryptionConfig: config, writeProvider: "identity"}, resources: []string{"secrets"}, wantErr: "give --write-provider or --encryption-config, not both"},
		{name: "neither", resources: []string{"secrets"}, wantErr: "the write key is required: --write-provider, or --encryption-config"},
		{
			name: "--kek-id with --write-provider", opts: verifyOptions{writeProvider: "kms-v2:vault:key-9", kekID: "key-9"}, resources: []string{"secrets"},
			wantErr: "--kek-id goes with --encryption-config; --write-provider carries the KEK id",
		},
		{name: "bad flag", opts: verifyOptions{writeProvider: "kms-v2:vault"}, resources: []string{"secrets"}, wantErrIn: "needs a provider name and a KEK id"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			var grs []schema.GroupResource
			for _, r := range s.resources {
				grs = append(grs, schema.ParseGroupResource(r))
			}
			got, err := s.opts.resolveWriteKey(grs)
			switch {
			case s.wantErr != "":
				if err == nil || err.Error() != s.wantErr {
					t.Fatalf("got %v, %v; want the error %q", got, err, s.wantErr)
				}
			case s.wantErrIn != "":
				if err == nil || !strings.Contains(err.Error(), s.wantErrIn) {
					t.Fatalf("got %v, %v; want an error containing %q", got, err, s.wantErrIn)
				}
			case err != nil:
				t.Fatal(err)
			case got != s.want:
				t.Errorf("got %+v, want %+v", got, s.want)
			}
		})
	}
}

func TestVerifyRunFailsBeforeConnecting(t *testing.T) {
	scenarios := []struct {
		name    string
		opts    verifyOptions
		wantErr string
	}{
		{name: "unknown output", opts: verifyOptions{output: "xml", resources: []string{"secrets"}, writeProvider: "identity"}, wantErr: "unknown output format"},
		{name: "no resources", opts: verifyOptions{writeProvider: "identity"}, wantErr: "--resources is empty"},
		{name: "a wildcard resource", opts: verifyOptions{writeProvider: "identity", resources: []string{"*.apps"}}, wantErr: "name one resource"},
		{name: "missing CA file", opts: verifyOptions{resources: []string{"secrets"}, writeProvider: "identity", etcd: etcdclient.Config{Endpoints: []string{"https://127.0.0.1:2379"}, CAFile: "/nonexistent/ca.crt"}}, wantErr: "no such file"},
		{name: "plaintext endpoint with certificates", opts: verifyOptions{resources: []string{"secrets"}, writeProvider: "identity", etcd: etcdclient.Config{Endpoints: []string{"http://127.0.0.1:2379"}, CAFile: "ca.crt"}}, wantErr: "plaintext http"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			code, err := s.opts.run(context.Background(), &bytes.Buffer{}, &bytes.Buffer{})
			if code != cli.ExitError || err == nil || !strings.Contains(err.Error(), s.wantErr) {
				t.Fatalf("got %d, %v; want %d and an error containing %q", code, err, cli.ExitError, s.wantErr)
			}
		})
	}
}

func TestPrintVerifyReport(t *testing.T) {
	report := &evidence.Report{
		WriteKey: evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: "vault", KEKID: "key-9"},
		Resources: []evidence.ResourceReport{{
			Resource: "secrets", Prefix: "/registry/secrets/", Total: 3, UnderWriteKey: 1, NotUnderWriteKey: 2,
			Keys: []evidence.KeyCount{
				{Key: evidence.Key{Kind: etcdvalue.KindIdentity}, Count: 2},
				{Key: evidence.Key{Kind: etcdvalue.KindKMSv2, Name: "vault", KEKID: "key-9"}, Count: 1, WriteKey: true},
			},
			NotUnderWriteKeyListed: []string{"/registry/secrets/default/a"},
			Revisions:              []int64{42},
			APICount:               &evidence.APICount{Objects: 3, Comparison: evidence.CompareExact, Revision: 42},
		}, {Resource: "configmaps", Prefix: "/kubernetes.io/configmaps/", Revisions: []int64{42}, APICount: &evidence.APICount{Objects: 2, Comparison: evidence.CompareWithinWrites, Revision: 50, AllowedDifference: 8, Note: "the scan spans revisions"}},
			{Resource: "events", Prefix: "/kubernetes.io/events/", Revisions: []int64{42}, APICount: &evidence.APICount{Comparison: evidence.CompareExact, Revision: 42}}},
	}
	var out bytes.Buffer
	if err := printVerifyReport(&out, "", report, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Write key: kms-v2:vault:key-9",
		"secrets (/registry/secrets/): 3 objects, 1 under the write key, 2 not, 0 unparsable",
		"not under the write key (first 1 of 2):\n    /registry/secrets/default/a",
		"the API lists 3 objects at the scan's revision 42",
		"not verified (NotUnderWriteKey): 2 of 3 values are not under the write key",
		"the API lists 2 objects at revision 50 (the scan spans revisions); the counts may differ by 8 writes",
		"not verified (NoKeysUnderPrefix): no keys under /kubernetes.io/configmaps/, but the API lists 2 objects",
		"verified empty: no keys, and the API lists no objects",
		"Verified: false",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}

	out.Reset()
	if err := printVerifyReport(&out, "json", report, nil); err != nil {
		t.Fatal(err)
	}
	var back evidence.Report
	if err := json.Unmarshal(out.Bytes(), &back); err != nil || back.Resources[0].NotUnderWriteKey != 2 {
		t.Errorf("JSON output does not decode to the report: %v: %s", err, out.String())
	}
}

func TestVerifySamplerResolvesVersions(t *testing.T) {
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(schema.GroupVersionKind{Version: "v1", Kind: "Secret"}, meta.RESTScopeNamespace)
	mapper.Add(schema.GroupVersionKind{Group: "route.openshift.io", Version: "v1", Kind: "Route"}, meta.RESTScopeNamespace)
	secrets := evidence.BuiltInResource("/kubernetes.io", schema.GroupResource{Resource: "secrets"})
	routes := evidence.BuiltInResource("/kubernetes.io", schema.GroupResource{Group: "route.openshift.io", Resource: "routes"})
	sampler, err := samplerFor(nil, mapper, []evidence.Resource{secrets, routes})
	if err != nil {
		t.Fatal(err)
	}
	if got := sampler.Versions; len(got) != 2 || got[secrets.GroupResource] != "v1" || got[routes.GroupResource] != "v1" {
		t.Errorf("versions %v", got)
	}
	unserved := evidence.BuiltInResource("/kubernetes.io", schema.GroupResource{Group: "example.com", Resource: "widgets"})
	if _, err := samplerFor(nil, mapper, []evidence.Resource{unserved}); err == nil || !strings.Contains(err.Error(), "widgets") {
		t.Errorf("an unserved resource gave %v, want an error naming it", err)
	}
}
