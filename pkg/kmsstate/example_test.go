package kmsstate_test

import (
	"errors"
	"fmt"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// Example evaluates the health reports of KMS key 1 on two nodes through a KEK rotation. The controller is built by
// kmsguard.NewStaticPodControllers (see kmsguard's Example); this shows instead Evaluate, the pure rule it runs
// on every sync, and the State readers the rollout gate, the rollback, the census and the migrator ask.
func Example() {
	start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	nodes, keys := []string{"master-0", "master-1"}, []string{"1"}
	// What the node-side reporters write to status.encryptionStatus.healthReports.
	report := func(node, kekID string, status operatorv1.KMSPluginHealthStatus, detail string, at time.Time) operatorv1.KMSPluginHealthReport {
		return operatorv1.KMSPluginHealthReport{NodeName: node, KeyID: "1", Status: status, RemoteKeyID: kekID, Detail: detail,
			LastCheckedTime: metav1.NewTime(at)}
	}
	healthy := operatorv1.KMSPluginHealthStatusHealthy

	// Both plugins serve KEK arn:kek-7: kmsstate settles on it.
	at := start
	state, memory := kmsstate.Evaluate(kmsstate.Config{}, kmsstate.Memory{}, kmsstate.Observation{Now: at, Nodes: nodes, KeyIDs: keys,
		Reports: []operatorv1.KMSPluginHealthReport{report("master-0", "arn:kek-7", healthy, "", at), report("master-1", "arn:kek-7", healthy, "", at)}})
	fmt.Println(state.Healthy(nodes, keys))
	fmt.Println(state.SettledKEKID("1"))

	// The KMS rotated: master-0's plugin serves arn:kek-8, master-1's stops answering.
	at = start.Add(time.Minute)
	state, memory = kmsstate.Evaluate(kmsstate.Config{}, memory, kmsstate.Observation{Now: at, Nodes: nodes, KeyIDs: keys,
		Reports: []operatorv1.KMSPluginHealthReport{report("master-0", "arn:kek-8", healthy, "", at),
			report("master-1", "", operatorv1.KMSPluginHealthStatusError, "connection refused", at)}})
	err := state.Healthy(nodes, keys)
	fmt.Println(err)
	var unhealthy *kmsstate.UnhealthyError
	fmt.Println(errors.As(err, &unhealthy) && unhealthy.Reason().KMSFault())
	fmt.Println(state.Healthy([]string{"master-0"}, keys))
	fmt.Println(state.Rotations)

	// Both plugins serve arn:kek-8: the rotation is complete, and the KEK id settles on it.
	at = start.Add(2 * time.Minute)
	state, _ = kmsstate.Evaluate(kmsstate.Config{}, memory, kmsstate.Observation{Now: at, Nodes: nodes, KeyIDs: keys,
		Reports: []operatorv1.KMSPluginHealthReport{report("master-0", "arn:kek-8", healthy, "", at), report("master-1", "arn:kek-8", healthy, "", at)}})
	degraded, reason, _ := state.Degraded()
	fmt.Println(degraded, reason)
	fmt.Println(state.SettledKEKID("1"))
	rotation, _ := state.LatestRotation("1")
	fmt.Println(rotation, rotation.Completed.Sub(rotation.Started))

	// Output:
	// <nil>
	// arn:kek-7 true
	// KMS plugins not healthy: PluginUnreachable: node master-1 key 1: connection refused
	// true
	// <nil>
	// [key 1: arn:kek-7 -> arn:kek-8]
	// false AsExpected
	// arn:kek-8 true
	// key 1: arn:kek-7 -> arn:kek-8 1m0s
}
