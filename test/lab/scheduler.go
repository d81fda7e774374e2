package lab

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
)

// nodeLabels are the labels a lab node registers with.
func nodeLabels(name string) map[string]string {
	return map[string]string{
		"node-role.kubernetes.io/master":        "",
		"node-role.kubernetes.io/control-plane": "",
		"kubernetes.io/hostname":                name,
	}
}

// schedule is the lab's scheduler: it binds each pod of the operand namespace that names no node to a node its
// node selector admits, taking the nodes in turn, until ctx ends. The lab's nodes have no taints and no resource
// limits, and the scheduler reads neither priorities nor node readiness: nothing else keeps a pod off a node.
func (l *Lab) schedule(ctx context.Context) {
	factory := informers.NewSharedInformerFactoryWithOptions(l.kube, 10*time.Minute,
		informers.WithNamespace(TargetNamespace),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) {
			o.FieldSelector = fields.OneTermEqualSelector("spec.nodeName", "").String()
		}))
	pods := factory.Core().V1().Pods()
	kick := make(chan struct{}, 1)
	notify := func(any) {
		select {
		case kick <- struct{}{}:
		default:
		}
	}
	_, _ = pods.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: notify, UpdateFunc: func(_, obj any) { notify(obj) }})
	factory.Start(ctx.Done())
	defer factory.Shutdown()
	if !cache.WaitForCacheSync(ctx.Done(), pods.Informer().HasSynced) {
		return
	}
	next := 0
	for {
		unscheduled, _ := pods.Lister().Pods(TargetNamespace).List(labels.Everything())
		for _, pod := range unscheduled {
			if pod.DeletionTimestamp == nil {
				next = l.bind(ctx, pod, next)
			}
		}
		// A bind that failed is retried on the next event or after a while.
		select {
		case <-ctx.Done():
			return
		case <-kick:
		case <-time.After(5 * time.Second):
		}
	}
}

// bind binds pod to the first node from index next on whose labels its node selector matches, and returns the
// index to start from next time.
func (l *Lab) bind(ctx context.Context, pod *corev1.Pod, next int) int {
	for i := range l.nodes {
		node := l.nodes[(next+i)%len(l.nodes)]
		if !labels.SelectorFromSet(pod.Spec.NodeSelector).Matches(labels.Set(nodeLabels(node.name))) {
			continue
		}
		binding := &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID},
			Target: corev1.ObjectReference{Kind: "Node", Name: node.name}}
		if err := l.kube.CoreV1().Pods(pod.Namespace).Bind(ctx, binding, metav1.CreateOptions{}); err != nil {
			l.logf("scheduler: binding pod %s to %s: %v", pod.Name, node.name, err)
			return next
		}
		l.logf("scheduler: pod %s bound to %s", pod.Name, node.name)
		return (next + i + 1) % len(l.nodes)
	}
	l.logf("scheduler: no node matches pod %s's node selector %v", pod.Name, pod.Spec.NodeSelector)
	return next
}
