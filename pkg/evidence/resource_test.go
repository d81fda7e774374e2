package evidence_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kmsguard/kmsguard/pkg/evidence"
)

func TestResourcePrefixes(t *testing.T) {
	scenarios := []struct {
		name   string
		got    evidence.Resource
		prefix string
	}{
		{name: "core", got: evidence.BuiltInResource("/registry", schema.GroupResource{Resource: "secrets"}), prefix: "/registry/secrets/"},
		{name: "built-in group resources are stored without the group", got: evidence.BuiltInResource("/registry", schema.GroupResource{Group: "apps", Resource: "deployments"}), prefix: "/registry/deployments/"},
		{name: "special path", got: evidence.BuiltInResource("/registry", schema.GroupResource{Resource: "services"}), prefix: "/registry/services/specs/"},
		{name: "ingresses", got: evidence.BuiltInResource("/registry", schema.GroupResource{Group: "networking.k8s.io", Resource: "ingresses"}), prefix: "/registry/ingress/"},
		{name: "OpenShift's etcd prefix, any slashes", got: evidence.BuiltInResource("kubernetes.io/", schema.GroupResource{Resource: "configmaps"}), prefix: "/kubernetes.io/configmaps/"},
		{name: "custom resource", got: evidence.CustomResource("/registry", schema.GroupResource{Group: "example.com", Resource: "widgets"}), prefix: "/registry/example.com/widgets/"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			if s.got.Prefix != s.prefix {
				t.Errorf("prefix %q, want %q", s.got.Prefix, s.prefix)
			}
		})
	}
}
