package conventionstest

import (
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clienttesting "k8s.io/client-go/testing"
)

func TestWrites(t *testing.T) {
	secrets := schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
	nodes := schema.GroupVersionResource{Version: "v1", Resource: "nodes"}
	scenarios := []struct {
		name    string
		actions []clienttesting.Action
		want    []string
	}{
		{name: "no actions"},
		{
			name: "reads only",
			actions: []clienttesting.Action{
				clienttesting.NewGetAction(secrets, "ns", "a"),
				clienttesting.NewListAction(secrets, schema.GroupVersionKind{Version: "v1", Kind: "Secret"}, "ns", metav1.ListOptions{}),
				clienttesting.NewWatchAction(secrets, "ns", metav1.ListOptions{}),
			},
		},
		{
			name: "every write, in order",
			actions: []clienttesting.Action{
				clienttesting.NewCreateAction(secrets, "ns", nil),
				clienttesting.NewGetAction(secrets, "ns", "a"),
				clienttesting.NewUpdateSubresourceAction(secrets, "status", "ns", nil),
				clienttesting.NewPatchAction(secrets, "ns", "a", "application/apply-patch+yaml", nil),
				clienttesting.NewRootDeleteAction(nodes, "master-0"),
				clienttesting.NewDeleteCollectionAction(secrets, "ns", metav1.ListOptions{}),
			},
			want: []string{"create secrets in ns", "update secrets/status in ns", "patch secrets in ns", "delete nodes", "delete-collection secrets in ns"},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			if got := Writes(s.actions); !slices.Equal(got, s.want) {
				t.Errorf("Writes = %q, want %q", got, s.want)
			}
		})
	}
}
