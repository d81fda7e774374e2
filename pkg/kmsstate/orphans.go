package kmsstate

import (
	"context"
	"errors"
	"fmt"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	"github.com/openshift/library-go/pkg/operator/events"

	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"k8s.io/apimachinery/pkg/util/sets"
)

// removeOrphans removes the reports of nodes and keys that no longer exist. For each node with orphans it
// applies, as that node's reporter, the node's reports without them.
func (c *Controller) removeOrphans(ctx context.Context, recorder events.Recorder, reports []operatorv1.KMSPluginHealthReport, orphans []ReportRef) error {
	if len(orphans) == 0 {
		return nil
	}
	orphaned := sets.New(orphans...)
	byNode := map[string][]*applyoperatorv1.KMSPluginHealthReportApplyConfiguration{}
	for _, ref := range orphans {
		byNode[ref.Node] = nil
	}
	for _, r := range reports {
		ref := ReportRef{Node: r.NodeName, KeyID: r.KeyID}
		if _, ok := byNode[r.NodeName]; !ok || orphaned.Has(ref) {
			continue
		}
		byNode[r.NodeName] = append(byNode[r.NodeName], reportApplyConfiguration(r))
	}
	var errs []error
	for node, keep := range byNode {
		status := applyoperatorv1.KMSEncryptionStatus().WithHealthReports(keep...)
		if err := c.options.StatusProvider.ApplyKMSEncryptionStatus(ctx, encryptionstatus.ReporterFieldManager(node), status); err != nil {
			errs = append(errs, fmt.Errorf("removing orphaned health reports of node %s: %w", node, err))
			continue
		}
		for _, ref := range orphans {
			if ref.Node == node {
				recorder.Eventf(EventHealthReportRemoved, "removed the stale health report of node %s for KMS key %s: the node or key is no longer in use", ref.Node, ref.KeyID)
			}
		}
	}
	return errors.Join(errs...)
}

func reportApplyConfiguration(r operatorv1.KMSPluginHealthReport) *applyoperatorv1.KMSPluginHealthReportApplyConfiguration {
	a := applyoperatorv1.KMSPluginHealthReport().
		WithNodeName(r.NodeName).
		WithKeyID(r.KeyID).
		WithStatus(r.Status).
		WithLastCheckedTime(r.LastCheckedTime)
	if r.RemoteKeyID != "" {
		a.WithRemoteKeyID(r.RemoteKeyID)
	}
	if r.Detail != "" {
		a.WithDetail(r.Detail)
	}
	return a
}
