package encryptionstatus

import (
	"crypto/sha256"
	"fmt"
)

// reporterName is library-go's health.Subcommand, the name of its kms-health-reporter, which starts every
// reporter field manager.
const reporterName = "kms-health-reporter"

// ReporterFieldManager is the server-side apply field manager of the KMS health reporter on nodeName.
// library-go's reporter and `kmsguard health-reporter` both use it, so whichever runs as the sidecar owns,
// updates and prunes the node's report entries that the other wrote, and kmsstate removes a gone node's
// entries by applying as it. The node name is hashed because a field manager is limited to 128 characters.
//
// It repeats library-go's unexported health.fieldManagerForNode (kms/health/options.go);
// hack/upstream/library-go/0005 exports it, which removes this copy.
func ReporterFieldManager(nodeName string) string {
	return fmt.Sprintf("%s-%x", reporterName, sha256.Sum256([]byte(nodeName)))
}
