package kmsstate

import (
	"context"
	"fmt"

	"github.com/openshift/library-go/pkg/operator/v1helpers"
)

// NodeListerFunc adapts a function to NodeLister.
type NodeListerFunc func(ctx context.Context) ([]string, error)

// Nodes calls f.
func (f NodeListerFunc) Nodes(ctx context.Context) ([]string, error) { return f(ctx) }

// KeyListerFunc adapts a function to KeyLister.
type KeyListerFunc func(ctx context.Context) (Keys, error)

// KMSKeys calls f.
func (f KeyListerFunc) KMSKeys(ctx context.Context) (Keys, error) { return f(ctx) }

// StaticPodNodes lists the nodes of a static-pod operator (kube-apiserver-operator): every node in
// status.nodeStatuses runs a kube-apiserver and so a KMS plugin per key.
func StaticPodNodes(client v1helpers.StaticPodOperatorClient) NodeLister {
	return NodeListerFunc(func(context.Context) ([]string, error) {
		_, status, _, err := client.GetStaticPodOperatorState()
		if err != nil {
			return nil, fmt.Errorf("reading the static pod operator status: %w", err)
		}
		nodes := make([]string, 0, len(status.NodeStatuses))
		for _, n := range status.NodeStatuses {
			nodes = append(nodes, n.NodeName)
		}
		return nodes, nil
	})
}
