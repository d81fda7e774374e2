package kmsstate

import (
	"context"
	"fmt"
	"regexp"

	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/apimachinery/pkg/util/sets"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
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

// librarygoKMSEndpoint is where library-go's plugin lifecycle serves the plugin of key <id> on every node
// (encryption/controllers/key_controller.go kmsEndpointFormat, kms/health kmsSocketPattern).
var librarygoKMSEndpoint = regexp.MustCompile(`^unix:///var/run/kmsplugin/kms-(\d+)\.sock$`)

// KeyIDFromEndpoint is the key id of a KMS plugin endpoint: the <id> of library-go's
// unix:///var/run/kmsplugin/kms-<id>.sock, the id its health reporters report under.
func KeyIDFromEndpoint(endpoint string) (string, bool) {
	m := librarygoKMSEndpoint.FindStringSubmatch(endpoint)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// KeyIDOf is the key id of a KMS provider: the <id> of its endpoint when that is one of library-go's, else the
// provider name (KeysFromConfig).
func KeyIDOf(name, endpoint string) string {
	if id, ok := KeyIDFromEndpoint(endpoint); ok {
		return id
	}
	return name
}

// KeysFromConfig lists the KMS v2 keys of an EncryptionConfiguration. A provider whose endpoint is one of
// library-go's is the key of that endpoint; any other provider is its own key, named by the provider name
// (so a hand-written config works too, if its reporters report under the provider names).
func KeysFromConfig(config *apiserverv1.EncryptionConfiguration) Keys {
	ids := sets.New[string]()
	keys := Keys{Providers: map[string]string{}}
	if config == nil {
		return keys
	}
	for _, r := range config.Resources {
		for _, p := range r.Providers {
			if p.KMS == nil || p.KMS.APIVersion != "v2" {
				continue
			}
			id := KeyIDOf(p.KMS.Name, p.KMS.Endpoint)
			ids.Insert(id)
			keys.Providers[p.KMS.Name] = id
		}
	}
	keys.IDs = sets.List(ids)
	return keys
}
