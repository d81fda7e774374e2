package evidence_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"

	"google.golang.org/protobuf/proto"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kmstypes "k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2/v2"

	"github.com/kmsguard/kmsguard/internal/etcdtest"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"time"
)

// payloadMarker is in every payload these tests store; no report may contain it.
var payloadMarker = []byte("payload-that-must-never-be-reported")

var secrets = evidence.BuiltInResource(evidence.DefaultEtcdPrefix, schema.GroupResource{Resource: "secrets"})

// Keys of these tests.
var (
	currentKey = evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: "kms", KEKID: "key-2"}
	identity   = evidence.WriteKey{Kind: etcdvalue.KindIdentity}
)

// secretsGR is the resource of secrets, and t0 the fixed now of the controller tests.
var (
	secretsGR = secrets.GroupResource
	t0        = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
)

func identityValue() []byte { return append([]byte("k8s\x00"), payloadMarker...) }

func aescbcValue(name string) []byte {
	return append([]byte("k8s:enc:aescbc:v1:"+name+":"), bytes.Repeat(payloadMarker, 2)...)
}

func kmsv2Value(t testing.TB, provider, keyID string, dekType kmstypes.EncryptedDEKSourceType) []byte {
	t.Helper()
	payload, err := proto.Marshal(&kmstypes.EncryptedObject{
		EncryptedData:          payloadMarker,
		KeyID:                  keyID,
		EncryptedDEKSource:     payloadMarker,
		EncryptedDEKSourceType: dekType,
	})
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte("k8s:enc:kms:v2:"+provider+":"), payload...)
}

// current is a value written by currentKey.
func current(t testing.TB) []byte {
	return kmsv2Value(t, currentKey.Name, currentKey.KEKID, kmstypes.EncryptedDEKSourceType_HKDF_SHA256_XNONCE_AES_GCM_SEED)
}

// oldKMS is a value written by the same provider under the previous key id.
func oldKMS(t testing.TB) []byte {
	return kmsv2Value(t, currentKey.Name, "key-1", kmstypes.EncryptedDEKSourceType_HKDF_SHA256_XNONCE_AES_GCM_SEED)
}

func secretKey(name string) string { return secrets.Prefix + "default/" + name }

// storeCounter counts objects the way kube-apiserver does over the same keyspace the Census reads: the keys
// under the resource's prefix at the revision asked for (at the newest for 0). It stands in for the API where
// a test is about the etcd side. A resource not given is counted under its built-in prefix.
type storeCounter struct {
	kv       *etcdtest.KV
	prefixes map[schema.GroupResource]string
}

func newStoreCounter(kv *etcdtest.KV, resources ...evidence.Resource) *storeCounter {
	c := &storeCounter{kv: kv, prefixes: map[schema.GroupResource]string{}}
	for _, r := range resources {
		c.prefixes[r.GroupResource] = r.Prefix
	}
	return c
}

func (c *storeCounter) CountObjects(ctx context.Context, gr schema.GroupResource, rev int64) (evidence.ObjectCount, error) {
	prefix, ok := c.prefixes[gr]
	if !ok {
		prefix = evidence.BuiltInResource(evidence.DefaultEtcdPrefix, gr).Prefix
	}
	resp, err := c.kv.Get(ctx, prefix, clientv3.WithRange(clientv3.GetPrefixRangeEnd(prefix)), clientv3.WithCountOnly(), clientv3.WithRev(rev))
	if errors.Is(err, rpctypes.ErrCompacted) {
		return evidence.ObjectCount{}, fmt.Errorf("410 Gone: %w", evidence.ErrRevisionCompacted)
	}
	if err != nil {
		return evidence.ObjectCount{}, err
	}
	if rev == 0 {
		rev = resp.Header.Revision
	}
	return evidence.ObjectCount{Objects: resp.Count, Revision: rev, Consistent: true}, nil
}
