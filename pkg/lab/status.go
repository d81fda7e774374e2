package lab

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// conditionPrefixes select the operator conditions PrintStatus shows: library-go's encryption and installer
// conditions and kmsguard's.
var conditionPrefixes = []string{"Encrypted", "Encryption", "KMS", "NodeInstaller", "StaticPods", "RevisionController"}

// PrintStatus writes a snapshot of the lab: each node's revisions, each node's KMS plugins as its health
// reporter last saw them, and the operator's encryption, KMS and rollout conditions.
func (l *Lab) PrintStatus(ctx context.Context, w io.Writer) error {
	client, err := operatorclient.NewForConfig(l.restConfig)
	if err != nil {
		return err
	}
	kas, err := client.OperatorV1().KubeAPIServers().Get(ctx, "cluster", metav1.GetOptions{})
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "NODE\tCURRENT\tTARGET\tLAST FAILED\tFALLBACKS\n")
	for _, n := range kas.Status.NodeStatuses {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\n", n.NodeName, n.CurrentRevision, n.TargetRevision, n.LastFailedRevision, n.LastFallbackCount)
	}
	fmt.Fprintf(tw, "(latest available revision %d)\n\n", kas.Status.LatestAvailableRevision)

	reports := kas.Status.EncryptionStatus.HealthReports
	sort.Slice(reports, func(i, j int) bool {
		if reports[i].NodeName != reports[j].NodeName {
			return reports[i].NodeName < reports[j].NodeName
		}
		return reports[i].KeyId < reports[j].KeyId
	})
	fmt.Fprintf(tw, "NODE\tKMS KEY\tPLUGIN\tKEK ID\tCHECKED\n")
	for _, r := range reports {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.NodeName, r.KeyId, r.Status, r.KEKId, r.LastCheckedTime.Format("15:04:05"))
	}
	if len(reports) == 0 {
		fmt.Fprintf(tw, "(no KMS plugin reports)\n")
	}
	fmt.Fprintln(tw)

	fmt.Fprintf(tw, "CONDITION\tSTATUS\tREASON\tMESSAGE\n")
	conditions := kas.Status.Conditions
	sort.Slice(conditions, func(i, j int) bool { return conditions[i].Type < conditions[j].Type })
	for _, c := range conditions {
		for _, prefix := range conditionPrefixes {
			if strings.HasPrefix(c.Type, prefix) {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.Type, c.Status, c.Reason, firstLine(c.Message, 100))
				break
			}
		}
	}
	return tw.Flush()
}

func firstLine(s string, max int) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > max {
		s = s[:max-3] + "..."
	}
	return s
}
