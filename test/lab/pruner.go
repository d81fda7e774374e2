package lab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
)

// prunerPodPrefix names library-go's pruner pods, revision-pruner-<revision>-<node>.
const prunerPodPrefix = "revision-pruner-"

// pruneArgs are the arguments library-go's prune controller gives its pruner pod (prune_controller.go,
// ensurePrunePod).
type pruneArgs struct {
	maxEligible int32
	protected   sets.Set[int32]
	prefix      string
}

// prunerArgs reads a pruner pod's arguments as the prune command does.
func prunerArgs(pod *corev1.Pod) (pruneArgs, error) {
	a := pruneArgs{protected: sets.New[int32]()}
	seen := map[string]bool{}
	for _, c := range pod.Spec.Containers {
		for _, arg := range c.Args {
			name, value, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
			switch name {
			case "max-eligible-revision":
				r, err := strconv.ParseInt(value, 10, 32)
				if err != nil {
					return pruneArgs{}, fmt.Errorf("pruner pod %s: bad --max-eligible-revision %q", pod.Name, value)
				}
				a.maxEligible = int32(r)
			case "protected-revisions":
				for _, v := range strings.Split(value, ",") {
					if v == "" {
						continue
					}
					r, err := strconv.ParseInt(v, 10, 32)
					if err != nil {
						return pruneArgs{}, fmt.Errorf("pruner pod %s: bad --protected-revisions %q", pod.Name, value)
					}
					a.protected.Insert(int32(r))
				}
			case "static-pod-name":
				a.prefix = value
			default:
				continue
			}
			seen[name] = true
		}
	}
	for _, required := range []string{"max-eligible-revision", "protected-revisions", "static-pod-name"} {
		if !seen[required] {
			return pruneArgs{}, fmt.Errorf("pruner pod %s has no --%s", pod.Name, required)
		}
	}
	return a, nil
}

// prune is the prune command on this node: it removes the installed revisions up to the eligible one that are
// not protected. The revision the node runs is always protected by the prune controller (a node's current
// revision is kept); the agent refuses to remove it all the same.
func (n *Node) prune(_ context.Context, pod *corev1.Pod) error {
	args, err := prunerArgs(pod)
	if err != nil {
		return err
	}
	if args.prefix != podConfigMapName {
		return fmt.Errorf("pruner pod %s prunes %q, the node's revisions are %s-<revision>", pod.Name, args.prefix, podConfigMapName)
	}
	entries, err := os.ReadDir(filepath.Join(n.dir, "resources"))
	if err != nil {
		return err
	}
	n.mu.Lock()
	running := n.running
	n.mu.Unlock()
	for _, e := range entries {
		v, ok := strings.CutPrefix(e.Name(), args.prefix+"-")
		if !ok {
			continue
		}
		r, err := strconv.ParseInt(v, 10, 32)
		if err != nil || r == 0 || int32(r) > args.maxEligible || args.protected.Has(int32(r)) || int32(r) == running {
			continue
		}
		if err := os.RemoveAll(filepath.Join(n.dir, "resources", e.Name())); err != nil {
			return err
		}
	}
	return nil
}
