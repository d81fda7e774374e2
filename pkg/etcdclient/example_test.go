package etcdclient_test

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kmsguard/kmsguard/pkg/etcdclient"
)

// An operator builds kmsguard's etcd access from its operand namespace's etcd-client Secret and etcd-serving-ca
// ConfigMap, at the members that cluster-etcd-operator lists, and passes it as kmsguard.EtcdOptions.KV. While the
// Secret cannot be read (here it does not exist; in a cluster, the KEK that encrypted it may be lost), every read
// says so and names it.
func ExampleNewSecretKV() {
	kube := fake.NewClientset(&corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: etcdclient.OpenShiftEndpointsNamespace, Name: etcdclient.OpenShiftEndpointsConfigMap},
		Data:       map[string]string{"8e1f2a": "10.0.0.2", "43bd07": "10.0.0.3", "c4d27e": "10.0.0.4"},
	})
	kv, err := etcdclient.NewSecretKV(etcdclient.SecretKVOptions{
		Secrets:       kube.CoreV1(),
		ConfigMaps:    kube.CoreV1(),
		Namespace:     "openshift-kube-apiserver",
		EndpointsFrom: etcdclient.OpenShiftEndpoints(kube.CoreV1()),
	})
	if err != nil {
		panic(err)
	}
	defer kv.Close()

	_, err = kv.Get(context.Background(), "/kubernetes.io/secrets/")
	var credentials *etcdclient.CredentialsError
	fmt.Println(errors.As(err, &credentials), credentials.Object)
	fmt.Println(err)
	// Output:
	// true openshift-kube-apiserver/etcd-client
	// the etcd client credentials cannot be read from openshift-kube-apiserver/etcd-client: secrets "etcd-client" not found
}
