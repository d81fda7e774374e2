package overrides

import (
	"strings"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func TestFromSpec(t *testing.T) {
	scenarios := []struct {
		name    string
		spec    *operatorv1.OperatorSpec
		want    KMSGuard
		wantErr string
	}{
		{name: "no spec"},
		{name: "no overrides", spec: &operatorv1.OperatorSpec{}},
		{name: "other overrides only", spec: spec(`{"other":{"x":1}}`)},
		{
			name: "both fields, whitespace dropped",
			spec: spec(`{"kmsguard":{"forceRevision":" sha256:ab\n","confirmDataLoss":"1_secrets:kek-1 "}}`),
			want: KMSGuard{ForceRevision: "sha256:ab", ConfirmDataLoss: "1_secrets:kek-1"},
		},
		{name: "not a JSON object", spec: spec(`["kmsguard"]`), wantErr: "parsing spec.unsupportedConfigOverrides"},
		{name: "a field of the wrong type", spec: spec(`{"kmsguard":{"forceRevision":true}}`), wantErr: "parsing spec.unsupportedConfigOverrides"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			got, err := FromSpec(s.spec)
			switch {
			case s.wantErr != "" && (err == nil || !strings.Contains(err.Error(), s.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, s.wantErr)
			case s.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			}
			if got != s.want {
				t.Errorf("got %+v, want %+v", got, s.want)
			}
		})
	}
}

func spec(raw string) *operatorv1.OperatorSpec {
	return &operatorv1.OperatorSpec{UnsupportedConfigOverrides: runtime.RawExtension{Raw: []byte(raw)}}
}
