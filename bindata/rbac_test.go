package bindata

import (
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"sigs.k8s.io/yaml"

	"github.com/kmsguard/kmsguard/pkg/kmsguard"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
)

// TestRecoveryClusterRole: the role grants what the recovery calls on every default resource, the KEP-3926
// verb included, and nothing kube-apiserver would not use for it (no deletecollection, no wildcard).
func TestRecoveryClusterRole(t *testing.T) {
	role := &rbacv1.ClusterRole{}
	if err := yaml.UnmarshalStrict(MustAsset(RecoveryClusterRole), role); err != nil {
		t.Fatal(err)
	}
	if role.Kind != "ClusterRole" || role.APIVersion != rbacv1.SchemeGroupVersion.String() || role.Name == "" {
		t.Fatalf("not a named rbac/v1 ClusterRole: %+v", role.TypeMeta)
	}
	want := sets.New("get", "list", "delete", "unsafe-delete-ignore-read-errors")
	granted := map[string]sets.Set[string]{}
	for _, rule := range role.Rules {
		if !sets.New(rule.Verbs...).Equal(want) {
			t.Errorf("rule %+v: verbs %v, want exactly %v", rule, rule.Verbs, sets.List(want))
		}
		for _, g := range rule.APIGroups {
			for _, r := range rule.Resources {
				if g == "*" || r == "*" {
					t.Errorf("rule %+v uses a wildcard", rule)
				}
				if granted[g] == nil {
					granted[g] = sets.New[string]()
				}
				granted[g].Insert(r)
			}
		}
	}
	for _, gr := range kmsrecovery.DefaultResources {
		if !granted[gr.Group].Has(gr.Resource) {
			t.Errorf("%s is not granted", gr)
		}
	}
}

// TestCachesRole: the Role names exactly kmsguard's caches, and grants the unsafe delete on nothing else.
func TestCachesRole(t *testing.T) {
	role := &rbacv1.Role{}
	if err := yaml.UnmarshalStrict(MustAsset(CachesRole), role); err != nil {
		t.Fatal(err)
	}
	if role.Kind != "Role" || role.APIVersion != rbacv1.SchemeGroupVersion.String() || role.Name == "" || role.Namespace == "" {
		t.Fatalf("not a named, namespaced rbac/v1 Role: %+v %+v", role.TypeMeta, role.ObjectMeta)
	}
	if len(role.Rules) != 1 {
		t.Fatalf("%d rules, want the one for the caches", len(role.Rules))
	}
	rule := role.Rules[0]
	if !sets.New(rule.APIGroups...).Equal(sets.New("")) || !sets.New(rule.Resources...).Equal(sets.New("configmaps")) {
		t.Errorf("rule %+v, want core configmaps only", rule)
	}
	if got, want := sets.New(rule.ResourceNames...), sets.New(kmsguard.CacheConfigMapNames...); !got.Equal(want) {
		t.Errorf("resourceNames %v, want kmsguard's caches %v", sets.List(got), sets.List(want))
	}
	if !sets.New(rule.Verbs...).Has("unsafe-delete-ignore-read-errors") || sets.New(rule.Verbs...).Has("*") {
		t.Errorf("verbs %v, want the unsafe delete and no wildcard", rule.Verbs)
	}
}
