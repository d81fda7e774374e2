package lab

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// conditionPrefixes select the operator conditions the view shows: library-go's encryption and installer
// conditions and kmsguard's.
var conditionPrefixes = []string{"Encrypted", "Encryption", "KMS", "NodeInstaller", "StaticPods", "RevisionController"}

// View is a snapshot of the lab: what the live view of `kmsguard-lab` shows.
type View struct {
	Time time.Time
	// Nodes are the operator's node statuses, with the readiness of each node's kube-apiserver pod.
	Nodes                   []NodeView
	LatestAvailableRevision int32
	// Plugins are the health reports of every node's KMS plugins, by node and key id.
	Plugins []operatorv1.KMSPluginHealthReport
	// Conditions are the operator's encryption, rollout and kmsguard conditions, by type.
	Conditions []operatorv1.OperatorCondition
	// Migrations are kmsguard's latest migration of each resource, as its checkpoints record it; whether one is
	// paused is in KMSMigrationProgressing, and what the census proved in KMSEncryptionVerified.
	Migrations []Migration
}

// NodeView is one node as the operator and its kube-apiserver pod show it.
type NodeView struct {
	operatorv1.NodeStatus
	// Ready is the Ready condition of the node's kube-apiserver pod; Phase its phase.
	Ready bool
	Phase corev1.PodPhase
}

// Snapshot reads the lab's view from the KubeAPIServer resource, the kube-apiserver pods and kmsguard's
// migration checkpoints.
func (l *Lab) Snapshot(ctx context.Context) (*View, error) {
	kas, err := l.operators.OperatorV1().KubeAPIServers().Get(ctx, "cluster", metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	pods, err := l.kube.CoreV1().Pods(TargetNamespace).List(ctx, metav1.ListOptions{LabelSelector: "apiserver=true"})
	if err != nil {
		return nil, err
	}
	v := &View{Time: time.Now(), LatestAvailableRevision: kas.Status.LatestAvailableRevision}
	for _, n := range kas.Status.NodeStatuses {
		nv := NodeView{NodeStatus: n}
		for _, pod := range pods.Items {
			if pod.Spec.NodeName != n.NodeName {
				continue
			}
			nv.Phase = pod.Status.Phase
			for _, c := range pod.Status.Conditions {
				if c.Type == corev1.PodReady {
					nv.Ready = c.Status == corev1.ConditionTrue
				}
			}
		}
		v.Nodes = append(v.Nodes, nv)
	}
	v.Plugins = append(v.Plugins, kas.Status.EncryptionStatus.HealthReports...)
	sort.Slice(v.Plugins, func(i, j int) bool {
		if v.Plugins[i].NodeName != v.Plugins[j].NodeName {
			return v.Plugins[i].NodeName < v.Plugins[j].NodeName
		}
		return v.Plugins[i].KeyID < v.Plugins[j].KeyID
	})
	for _, c := range kas.Status.Conditions {
		for _, prefix := range conditionPrefixes {
			if strings.HasPrefix(c.Type, prefix) {
				v.Conditions = append(v.Conditions, c)
				break
			}
		}
	}
	sort.Slice(v.Conditions, func(i, j int) bool { return v.Conditions[i].Type < v.Conditions[j].Type })
	if v.Migrations, err = l.Migrations(ctx); err != nil {
		return nil, err
	}
	return v, nil
}

// PrintStatus writes one snapshot of the lab.
func (l *Lab) PrintStatus(ctx context.Context, w io.Writer) error {
	v, err := l.Snapshot(ctx)
	if err != nil {
		return err
	}
	return v.Print(w)
}

// Print writes the view as tables: nodes, KMS plugins, conditions, migrations and the etcd census.
func (v *View) Print(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "NODE\tCURRENT\tTARGET\tAPISERVER\tLAST FAILED\tFALLBACKS\n")
	for _, n := range v.Nodes {
		apiserver := "not ready"
		if n.Ready {
			apiserver = "ready"
		}
		if n.Phase != "" && n.Phase != corev1.PodRunning {
			apiserver = string(n.Phase)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%d\n", n.NodeName, n.CurrentRevision, n.TargetRevision, apiserver, orDash(n.LastFailedRevision), n.LastFallbackCount)
	}
	fmt.Fprintf(tw, "(latest available revision %d)\n\n", v.LatestAvailableRevision)

	fmt.Fprintf(tw, "NODE\tKEY ID\tPLUGIN\tKEK ID\tCHECKED\tDETAIL\n")
	for _, r := range v.Plugins {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.NodeName, r.KeyID, r.Status, r.RemoteKeyID, r.LastCheckedTime.Format("15:04:05"), firstLine(r.Detail, 60))
	}
	if len(v.Plugins) == 0 {
		fmt.Fprintf(tw, "(no KMS plugin reports)\n")
	}
	fmt.Fprintln(tw)

	fmt.Fprintf(tw, "CONDITION\tSTATUS\tREASON\tMESSAGE\n")
	for _, c := range v.Conditions {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.Type, c.Status, c.Reason, firstLine(c.Message, 100))
	}
	fmt.Fprintln(tw)

	fmt.Fprintf(tw, "MIGRATION\tTARGET\tDONE\tOF\tSTATE\n")
	for _, p := range v.Migrations {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", p.Resource, p.Target, p.Counts.Done(), orUnknown(p.Total), migrationState(p))
	}
	if len(v.Migrations) == 0 {
		fmt.Fprintf(tw, "(no migration yet)\n")
	}
	return tw.Flush()
}

// withoutCheckTimes is a copy of v without the plugins' check times.
func (v *View) withoutCheckTimes() *View {
	c := *v
	c.Plugins = make([]operatorv1.KMSPluginHealthReport, len(v.Plugins))
	for i, r := range v.Plugins {
		r.LastCheckedTime = metav1.Time{}
		c.Plugins[i] = r
	}
	return &c
}

func migrationState(m Migration) string {
	switch {
	case m.Finished.IsZero():
		return "running"
	case m.Result != "":
		return "failed: " + firstLine(m.Result, 60)
	default:
		return "finished " + m.Finished.Format("15:04:05")
	}
}

// WatchOptions say how Watch shows the lab.
type WatchOptions struct {
	// Interval between two views.
	Interval time.Duration
	// Terminal redraws the view in place; otherwise the view is written, stamped with its time, only when it
	// changed, so that a log stays readable.
	Terminal bool
	// Title heads each redraw on a terminal.
	Title string
	// Footer, when set, is drawn below each redraw on a terminal: what scrolls by meanwhile (the tour's latest
	// steps).
	Footer func() string
}

// Watch shows the view every interval until ctx is done.
func (l *Lab) Watch(ctx context.Context, w io.Writer, opts WatchOptions) {
	var last string
	ticker := time.NewTicker(opts.Interval)
	defer ticker.Stop()
	for {
		var b, timeless bytes.Buffer
		if v, err := l.Snapshot(ctx); err != nil {
			fmt.Fprintf(&b, "lab: reading the view: %v\n", err)
			timeless.WriteString(b.String())
		} else if err := v.Print(&b); err != nil {
			fmt.Fprintf(&b, "lab: printing the view: %v\n", err)
		} else {
			_ = v.withoutCheckTimes().Print(&timeless)
		}
		switch {
		case opts.Terminal:
			footer := ""
			if opts.Footer != nil {
				footer = "\n" + opts.Footer()
			}
			// Cursor home and clear the screen, then the view: one redraw, no scrolling.
			fmt.Fprintf(w, "\x1b[H\x1b[2J%s  (%s)\n%s%s", opts.Title, time.Now().Format("15:04:05"), b.String(), footer)
		case timeless.String() != last:
			// Every health report renews its check time every few seconds; only a change of anything else is
			// worth a new block in a log.
			fmt.Fprintf(w, "--- %s\n%s", time.Now().Format("15:04:05"), b.String())
		}
		last = timeless.String()
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

func orDash(revision int32) string {
	if revision == 0 {
		return "-"
	}
	return fmt.Sprint(revision)
}

func orUnknown(n int64) string {
	if n == 0 {
		return "?"
	}
	return fmt.Sprint(n)
}

func firstLine(s string, max int) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > max {
		s = string(r[:max-3]) + "..."
	}
	return s
}
