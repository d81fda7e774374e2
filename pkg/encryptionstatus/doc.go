// Package encryptionstatus reads and writes the KMS encryption status of
// OpenShift's apiserver operator resources, implementing library-go's
// kms.EncryptionStatusProvider for each resource that carries one:
//
//   - kubeapiservers.operator.openshift.io/cluster: status.encryptionStatus
//   - openshiftapiservers.operator.openshift.io/cluster: status.encryptionStatus
//   - authentications.operator.openshift.io/cluster:
//     status.oauthAPIServer.encryptionStatus (oauth-apiserver)
//
// Writes use server-side apply on the status subresource. healthReports is a
// map list keyed by nodeName and keyID, so each reporter owns exactly the
// entries it applies under its field manager and drops the ones it no longer
// applies, without reading the list first or touching other reporters'
// entries.
package encryptionstatus
