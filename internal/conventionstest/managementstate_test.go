package conventionstest

import (
	"slices"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/management"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
)

func TestSetManagementState(t *testing.T) {
	for _, state := range []operatorv1.ManagementState{operatorv1.Unmanaged, operatorv1.Removed, operatorv1.Managed} {
		t.Run(string(state), func(t *testing.T) {
			client := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{ManagementState: operatorv1.Force, LogLevel: operatorv1.Debug}, &operatorv1.OperatorStatus{}, nil)
			SetManagementState(t, client, state)
			spec, _, _, err := client.GetOperatorState()
			if err != nil {
				t.Fatal(err)
			}
			if spec.ManagementState != state || spec.LogLevel != operatorv1.Debug {
				t.Errorf("spec %+v, want managementState %s and the rest kept", spec, state)
			}
		})
	}
}

func TestSetStaticPodManagementState(t *testing.T) {
	for _, state := range []operatorv1.ManagementState{operatorv1.Unmanaged, operatorv1.Removed, operatorv1.Managed} {
		t.Run(string(state), func(t *testing.T) {
			client := v1helpers.NewFakeStaticPodOperatorClient(&operatorv1.StaticPodOperatorSpec{
				OperatorSpec:           operatorv1.OperatorSpec{ManagementState: operatorv1.Force},
				FailedRevisionLimit:    3,
				SucceededRevisionLimit: 5,
			}, &operatorv1.StaticPodOperatorStatus{}, nil, nil)
			SetStaticPodManagementState(t, client, state)
			spec, _, _, err := client.GetStaticPodOperatorState()
			if err != nil {
				t.Fatal(err)
			}
			if spec.ManagementState != state || spec.FailedRevisionLimit != 3 || spec.SucceededRevisionLimit != 5 {
				t.Errorf("spec %+v, want managementState %s and the rest kept", spec, state)
			}
		})
	}
}

// TestNotManagedStates: the states are exactly those library-go does not treat as Managed, so that a conventions
// test covers each state in which its controller must not act.
func TestNotManagedStates(t *testing.T) {
	states := NotManagedStates()
	for _, state := range []operatorv1.ManagementState{operatorv1.Managed, operatorv1.Force, "", operatorv1.Unmanaged, operatorv1.Removed} {
		if managed, listed := management.IsOperatorManaged(state), slices.Contains(states, state); managed == listed {
			t.Errorf("%q: managed by library-go %v, listed as not managed %v", state, managed, listed)
		}
	}
}
