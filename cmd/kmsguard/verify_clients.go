package main

import (
	clientv3 "go.etcd.io/etcd/client/v3"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"

	"github.com/kmsguard/kmsguard/pkg/evidence"
)

// verifyClients are what verify reads: etcd, and the API for the object counts, the storage paths and the
// sample. Tests pass fakes.
type verifyClients struct {
	kv      clientv3.KV
	counter evidence.ObjectCounter
	lookup  evidence.ServingLookup
	// dynamic and mapper read the sample; nil without --sample.
	dynamic dynamic.Interface
	mapper  meta.RESTMapper
	// migrationFinished says when the migration of a resource finished, for --can-drop; nil without it.
	migrationFinished evidence.MigrationFinishedFunc
}

// apiClients builds the API side of verifyClients from config.
func apiClients(config *rest.Config, kv clientv3.KV, pageSize int64) (verifyClients, error) {
	disc, err := discovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		return verifyClients{}, err
	}
	dyn, err := dynamic.NewForConfig(config)
	if err != nil {
		return verifyClients{}, err
	}
	meta, err := metadata.NewForConfig(config)
	if err != nil {
		return verifyClients{}, err
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))
	return verifyClients{
		kv:      kv,
		counter: &evidence.MetadataCounter{Client: meta, Mapper: mapper, PageSize: pageSize},
		lookup:  &evidence.DynamicServingLookup{Client: dyn},
		dynamic: dyn,
		mapper:  mapper,
	}, nil
}
