package lab

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func prunerPod(args ...string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: prunerPodPrefix + "7-master-0"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "pruner", Args: args}}}}
}

// TestPruneKeepsWhatTheControllerProtects: the node agent's pruner removes the installed revisions the prune
// controller made eligible, keeps the protected ones and the one the node runs, and refuses arguments it cannot
// read rather than guessing.
func TestPruneKeepsWhatTheControllerProtects(t *testing.T) {
	dir := t.TempDir()
	n := &Node{name: "master-0", dir: dir, running: 3}
	for _, r := range []int32{0, 1, 2, 3, 4, 5, 6, 7} {
		if err := os.MkdirAll(n.revisionDir(r), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := n.prune(context.Background(), prunerPod("-v=4", "--max-eligible-revision=6", "--protected-revisions=4,5,6", "--resource-dir=/etc/kubernetes/static-pod-resources", "--static-pod-name=kube-apiserver-pod")); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "resources"))
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	sort.Strings(left)
	// 0 is the bootstrap manifest the startup monitor falls back to, 3 runs, 4-6 are protected, 7 is above the
	// eligible revision.
	want := []string{"kube-apiserver-pod-0", "kube-apiserver-pod-3", "kube-apiserver-pod-4", "kube-apiserver-pod-5", "kube-apiserver-pod-6", "kube-apiserver-pod-7"}
	if diff := cmp.Diff(want, left); diff != "" {
		t.Errorf("installed revisions after pruning (-want +got):\n%s", diff)
	}

	for _, bad := range []*corev1.Pod{
		prunerPod("--max-eligible-revision=6", "--static-pod-name=kube-apiserver-pod"),
		prunerPod("--max-eligible-revision=six", "--protected-revisions=4", "--static-pod-name=kube-apiserver-pod"),
		prunerPod("--max-eligible-revision=6", "--protected-revisions=4", "--static-pod-name=etcd-pod"),
	} {
		if err := n.prune(context.Background(), bad); err == nil {
			t.Errorf("prune(%v) = nil, want an error", bad.Spec.Containers[0].Args)
		}
	}
}
