package lab

import (
	"bytes"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// TestViewPrint: the live view shows each node's rollout and apiserver, each plugin with its KEK id, the
// conditions and the migrations; a view that differs only in
// the plugins' check times prints the same without them, so that a log gets no new block for it.
func TestViewPrint(t *testing.T) {
	at := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	v := &View{
		Nodes: []NodeView{
			{NodeStatus: operatorv1.NodeStatus{NodeName: "master-0", CurrentRevision: 5}, Ready: true, Phase: corev1.PodRunning},
			{NodeStatus: operatorv1.NodeStatus{NodeName: "master-2", CurrentRevision: 3, TargetRevision: 4, LastFailedRevision: 4, LastFallbackCount: 1}, Phase: corev1.PodRunning},
		},
		LatestAvailableRevision: 5,
		Plugins: []operatorv1.KMSPluginHealthReport{
			{NodeName: "master-0", KeyID: "2", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "key-1", LastCheckedTime: metav1.NewTime(at)},
			{NodeName: "master-2", KeyID: "2", Status: operatorv1.KMSPluginHealthStatusError, LastCheckedTime: metav1.NewTime(at), Detail: "connection refused\nand more"},
		},
		Conditions: []operatorv1.OperatorCondition{{Type: kmsstate.ConditionKMSPluginsDegraded, Status: operatorv1.ConditionTrue, Reason: string(kmsstate.ReasonPluginUnreachable), Message: "node master-2 key 2"}},
		Migrations: []Migration{
			{Resource: schema.GroupResource{Resource: "secrets"}, Checkpoint: kmsmigration.Checkpoint{Target: kmsmigration.Target{WriteKey: "2"}, Counts: kmsmigration.Counts{Rewritten: 7}, Total: 9, Started: at}},
			{Resource: schema.GroupResource{Resource: "configmaps"}, Checkpoint: kmsmigration.Checkpoint{Target: kmsmigration.Target{WriteKey: "1"}, Counts: kmsmigration.Counts{Rewritten: 3}, Started: at, Finished: at.Add(time.Minute), Result: "the apiserver refused\nmore"}},
		},
	}
	var b bytes.Buffer
	if err := v.Print(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"master-0  5        0       ready      -            0",
		"master-2  3        4       not ready  4            1",
		"master-0  2       Healthy  key-1   09:00:00",
		"master-2  2       Error            09:00:00  connection refused\n",
		"KMSPluginsDegraded  True    PluginUnreachable  node master-2 key 2",
		"secrets     write key 2  7     9   running",
		"configmaps  write key 1  3     ?   failed: the apiserver refused\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the view does not show %q:\n%s", want, out)
		}
	}

	later := *v
	later.Plugins = append([]operatorv1.KMSPluginHealthReport(nil), v.Plugins...)
	later.Plugins[0].LastCheckedTime = metav1.NewTime(at.Add(5 * time.Second))
	var a, c bytes.Buffer
	_ = v.withoutCheckTimes().Print(&a)
	_ = later.withoutCheckTimes().Print(&c)
	if a.String() != c.String() {
		t.Errorf("views that differ in check times only print differently without them:\n%s\n%s", a.String(), c.String())
	}
	if v.Plugins[0].LastCheckedTime.IsZero() {
		t.Error("withoutCheckTimes changed the view it copied")
	}
}
