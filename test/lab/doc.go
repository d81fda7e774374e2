// Package lab runs an OpenShift-style kube-apiserver control plane on one machine, with library-go's own
// static-pod and encryption controllers and kmsguard's controllers in the loop: the reference for how
// kube-apiserver-operator authors wire kmsguard, and the stage for its end-to-end tests and `kmsguard-lab`.
//
// What runs, and what it stands for in a cluster:
//
//   - etcd and one real kube-apiserver per control-plane node master-0..N-1 (test/kmsenv), all on the same
//     etcd, with the AllowUnsafeMalformedObjectDeletion feature gate on;
//   - what the rest of an OpenShift cluster publishes around kube-apiserver-operator, the same objects its own
//     end-to-end test stands on (package openshift): openshift/api's CRDs, the cluster-version operator's
//     KubeAPIServer, ClusterOperator, ClusterVersion and FeatureGate, the installer's config resources
//     (Infrastructure with the topology, APIServer, ...), a Node per control-plane node, and etcd-operator's
//     endpoints and credentials; and, besides, what the lab's stand-in operator does not make itself: the operand
//     namespace and the static pod's manifest (the "kube-apiserver-pod" ConfigMap that kube-apiserver-operator's
//     target config controller writes);
//   - a node agent per node (node.go) that plays the kubelet, the installer and, on a single node only, the
//     startup monitor: it carries out the installer pods library-go's installer controller creates, one
//     revision at a time, by installing that revision's manifest and encryption config into the node's
//     directory and replacing the node's pod: the KMS plugin sidecars and health reporter sidecar library-go's
//     builder put in the installed manifest (sidecars.go), each plugin a fake KMS v2 plugin (pkg/kmsplugin/fake)
//     configured from its sidecar's arguments, serving in the pod's own socket directory and backed by one
//     simulated KMS, then the node's kube-apiserver; a container of the operator's image (the kms-health-reporter
//     sidecar, library-go's kms-preflight pod) runs kube-apiserver-operator's binary itself, built from the carried
//     source with hack/integration's patch (Options.OperatorBinary), with the container's own arguments,
//     environment and volumes (container.go); it mirrors the process as the kube-apiserver Pod the
//     static-pod controllers read, and restarts an apiserver that does not become healthy with the kubelet's
//     back-off;
//   - the operator (operator.go): a stand-in for kube-apiserver-operator's target config controller that writes
//     the static pod manifest with library-go's KMS sidecar builder (targetconfig.go), library-go's static-pod
//     controllers (revision, installer, installer state,
//     node, static pod state, ...) built with staticpod.NewBuilder and its encryption controllers (key, state,
//     prune, migration, condition) built with encryption.NewControllers, wired as kube-apiserver-operator
//     wires them, plus kmsguard's controllers: kmsstate (fed by a kmsguard health reporter per node and by each
//     kube-apiserver's /healthz/kms-providers and metrics), the rollout gate (kmsprecondition, as the revision
//     controller's precondition and readiness check composed with the operator's own KMS sidecar check, and as the
//     hold on the resource sync of the encryption config, judging dropped read keys by the census), kmsmigration's
//     Migrator in place of library-go's migrator with its controller and the census of etcd
//     (CensusController), kmsrollback (its HoldingDeployer around library-go's deployer, and its
//     controller) and lost-key recovery.
//
// Faults (faults.go) go into a running lab through Inject, or from another process through the control
// socket in its directory (`kmsguard-lab inject`); Snapshot and Watch are the live view; APIServerStarts,
// OneAtATime and ReadKeyFirst judge a rollout from the apiservers' own history. test/lab/tour plays the user
// stories on a lab.
//
// Clients of the lab (the operator, the node agents) reach the apiservers through kmsenv's failover config, as
// they would through the load balancer of a cluster, so that they keep working while one apiserver restarts.
//
// What the lab and the tour read of the operator, they read through the API, as an admin does (observe.go).
package lab
