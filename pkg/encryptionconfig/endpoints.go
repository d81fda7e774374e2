package encryptionconfig

import (
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
)

// MapKMSEndpoints returns a copy of config in which the endpoint of every KMS provider (v1 and v2) is
// mapEndpoint of it; config itself is not changed. It rewrites every entry, those the first-match rule shadows
// included: it edits the file a kube-apiserver reads, for one that finds the plugins' sockets somewhere else than
// the config says (the lab runs each node's apiserver on one host, with the node's sockets in a directory of its
// own). A nil config is nil.
func MapKMSEndpoints(config *apiserverv1.EncryptionConfiguration, mapEndpoint func(endpoint string) string) *apiserverv1.EncryptionConfiguration {
	if config == nil {
		return nil
	}
	c := config.DeepCopy()
	for i := range c.Resources {
		for j := range c.Resources[i].Providers {
			if kms := c.Resources[i].Providers[j].KMS; kms != nil {
				kms.Endpoint = mapEndpoint(kms.Endpoint)
			}
		}
	}
	return c
}
