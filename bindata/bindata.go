// Package bindata holds the manifests kmsguard embeds in its binaries.
package bindata

import (
	"embed"
	"fmt"
)

//go:embed lab monitoring rbac
var files embed.FS

// LabKMSEncryption is the path of the APIServer spec.encryption `kmsguard-lab` (make run) switches to KMS with.
const LabKMSEncryption = "lab/kms-encryption.yaml"

// RecoveryClusterRole is the path of the ClusterRole lost-key recovery needs (pkg/kmsrecovery): get,
// list, delete and unsafe-delete-ignore-read-errors on the resources OpenShift encrypts.
const RecoveryClusterRole = "rbac/kmsguard-recovery-clusterrole.yaml"

// CachesRole is the path of the Role, in the operator's namespace, that lets kmsguard delete its own caches the
// apiserver cannot read (kmsguard.CacheConfigMapNames) with unsafe-delete-ignore-read-errors, by name.
const CachesRole = "rbac/kmsguard-caches-role.yaml"

// PrometheusRule is the path of kmsguard's alerting rules, a monitoring.coreos.com/v1 PrometheusRule for the
// namespace openshift-kube-apiserver-operator: one alert per KMS failure kmsguard's metrics show, each linking
// its own runbook, docs/runbooks/alerts/<alert>.md.
const PrometheusRule = "monitoring/kmsguard-prometheusrule.yaml"

// Asset returns the embedded file at path.
func Asset(path string) ([]byte, error) {
	data, err := files.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("bindata: %w", err)
	}
	return data, nil
}

// MustAsset returns the embedded file at path and panics when it is missing: for the fixed paths of this
// package, which a test reads.
func MustAsset(path string) []byte {
	data, err := Asset(path)
	if err != nil {
		panic(err)
	}
	return data
}
