package conventionstest

import (
	"context"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
)

// SetManagementState sets spec.managementState of the operator behind client, as an admin would.
func SetManagementState(t testing.TB, client v1helpers.OperatorClient, state operatorv1.ManagementState) {
	t.Helper()
	spec, _, rv, err := client.GetOperatorState()
	if err != nil {
		t.Fatal(err)
	}
	spec = spec.DeepCopy()
	spec.ManagementState = state
	if _, _, err := client.UpdateOperatorSpec(context.Background(), rv, spec); err != nil {
		t.Fatal(err)
	}
}

// SetStaticPodManagementState is SetManagementState for a static pod operator. It is a function of its own
// because library-go's fake static pod operator client panics in UpdateOperatorSpec: only its static pod spec can
// be updated.
func SetStaticPodManagementState(t testing.TB, client v1helpers.StaticPodOperatorClient, state operatorv1.ManagementState) {
	t.Helper()
	spec, _, rv, err := client.GetStaticPodOperatorState()
	if err != nil {
		t.Fatal(err)
	}
	spec = spec.DeepCopy()
	spec.ManagementState = state
	if _, _, err := client.UpdateStaticPodOperatorSpec(context.Background(), rv, spec); err != nil {
		t.Fatal(err)
	}
}

// NotManagedStates are the values of spec.managementState in which library-go's management.IsOperatorManaged is
// false, and so a controller must write nothing: Unmanaged and Removed. Force and an empty state count as Managed.
func NotManagedStates() []operatorv1.ManagementState {
	return []operatorv1.ManagementState{operatorv1.Unmanaged, operatorv1.Removed}
}
