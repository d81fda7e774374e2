package kmsrollback_test

import (
	"context"
	"fmt"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/v1helpers"

	"github.com/kmsguard/kmsguard/pkg/kmsrollback"
)

// ExampleStaticPodRollout reads a failed rollout of revision 5 the way the rollback does before it asks kmsstate
// whether KMS is to blame. The rollback is built by kmsguard.NewStaticPodControllers (see kmsguard's Example); this
// shows instead which of library-go's installer records count as a node failing the newest revision, and the last
// good revision a revert goes back to.
func ExampleStaticPodRollout() {
	// kube-apiserver-operator's status after revision 5 (which added KMS key 2) went out; the static-pod
	// operator client is the operator's own.
	operatorClient := v1helpers.NewFakeStaticPodOperatorClient(&operatorv1.StaticPodOperatorSpec{},
		&operatorv1.StaticPodOperatorStatus{OperatorStatus: operatorv1.OperatorStatus{LatestAvailableRevision: 5}, NodeStatuses: []operatorv1.NodeStatus{
			// The apiserver of revision 5 did not start: library-go's installer fell back and recorded it.
			{NodeName: "master-0", CurrentRevision: 4, LastFailedRevision: 5, LastFailedReason: "OperandFailed",
				LastFailedRevisionErrors: []string{"kube-apiserver did not become ready: /healthz/kms-providers failed"}},
			// The installer pod itself failed: revision 5's apiserver never ran here.
			{NodeName: "master-1", CurrentRevision: 4, LastFailedRevision: 5, LastFailedReason: "InstallerFailed",
				LastFailedRevisionErrors: []string{"pod installer-5-master-1 failed"}},
			// Revision 3 failed here once; the node has since run revision 4, so that failure is over.
			{NodeName: "master-2", CurrentRevision: 4, TargetRevision: 5, LastFailedRevision: 3, LastFailedReason: "OperandFailed"},
		}}, nil, nil)

	// Without a pod lister (nil) only the installer's records count, not the startup monitor's pod annotations or
	// a pod's readiness; kmsguard passes the operand's mirror pods.
	rollout, err := kmsrollback.StaticPodRollout(operatorClient, nil, nil, 0, nil).Rollout(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Println("latest available revision:", rollout.LatestAvailableRevision)
	for _, f := range rollout.Failures {
		// Only failures of the apiserver itself (not SourceInstallerFailed) can be attributed to KMS.
		fmt.Printf("%v; last good %d\n", f, f.LastGood)
	}
	// Output:
	// latest available revision: 5
	// node master-0 revision 5 (OperandFailed): kube-apiserver did not become ready: /healthz/kms-providers failed; last good 4
	// node master-1 revision 5 (InstallerFailed): pod installer-5-master-1 failed; last good 4
}
