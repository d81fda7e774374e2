package main

import (
	"github.com/spf13/pflag"

	"github.com/kmsguard/kmsguard/pkg/etcdclient"
)

// addEtcdFlags registers the etcd connection flags verify and recover share. defaultEndpoints is nil where etcd
// is optional.
func addEtcdFlags(f *pflag.FlagSet, c *etcdclient.Config, defaultEndpoints []string, purpose string) {
	f.StringSliceVar(&c.Endpoints, "etcd-endpoints", defaultEndpoints, "etcd client URLs (https://host:2379; http:// only for a local etcd without TLS)"+purpose)
	f.StringVar(&c.CAFile, "etcd-cacert", "", "CA bundle that signed etcd's serving certificates")
	f.StringVar(&c.CertFile, "etcd-cert", "", "etcd client certificate")
	f.StringVar(&c.KeyFile, "etcd-key", "", "etcd client key")
	f.DurationVar(&c.DialTimeout, "etcd-dial-timeout", etcdclient.DefaultDialTimeout, "how long to wait for each etcd endpoint before giving up with the reason")
}
