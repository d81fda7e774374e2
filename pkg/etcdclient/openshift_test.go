package etcdclient

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
)

func TestOpenShiftEndpoints(t *testing.T) {
	for _, s := range []struct {
		name        string
		data        map[string]string
		annotations map[string]string
		missing     bool
		want        string
		wantErr     string
	}{
		{name: "three members, IPv4", data: map[string]string{"13b1a0e0ba8c4a2f": "10.0.0.5", "1a2b": "10.0.0.3", "9f": "10.0.0.4"},
			want: "https://10.0.0.3:2379 https://10.0.0.4:2379 https://10.0.0.5:2379"},
		{name: "IPv6 members are bracketed", data: map[string]string{"a": "fd00::3", "b": "fd00:0::4"},
			want: "https://[fd00::3]:2379 https://[fd00::4]:2379"},
		{name: "the bootstrap member while there is one", data: map[string]string{"a": "10.0.0.3"},
			annotations: map[string]string{bootstrapIPAnnotation: "10.0.0.2"}, want: "https://10.0.0.2:2379 https://10.0.0.3:2379"},
		{name: "an address that is not an IP is left out", data: map[string]string{"a": "10.0.0.3", "b": "master-1"},
			want: "https://10.0.0.3:2379"},
		{name: "the installer's placeholders are left out", data: map[string]string{"a": "10.0.0.3", "b": "192.0.2.7", "c": "2001:db8::5"},
			want: "https://10.0.0.3:2379"},
		{name: "nothing usable", data: map[string]string{"b": "master-1", "c": "192.0.2.7"},
			wantErr: `openshift-etcd/etcd-endpoints lists no usable etcd member: "master-1" is not an IP address; 192.0.2.7 is a reserved documentation address`},
		{name: "no member", data: map[string]string{}, wantErr: "openshift-etcd/etcd-endpoints lists no etcd member"},
		{name: "not published", missing: true, wantErr: `configmaps "etcd-endpoints" not found`},
	} {
		t.Run(s.name, func(t *testing.T) {
			client := fake.NewClientset()
			if !s.missing {
				client = fake.NewClientset(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
					Namespace: OpenShiftEndpointsNamespace, Name: OpenShiftEndpointsConfigMap, Annotations: s.annotations}, Data: s.data})
			}
			got, err := OpenShiftEndpoints(client.CoreV1())(context.Background())
			if s.wantErr != "" {
				if err == nil || err.Error() != s.wantErr {
					t.Fatalf("endpoints %v, error %v; want error %q", got, err, s.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, " ") != s.want {
				t.Errorf("endpoints %v, want %s", got, s.want)
			}
		})
	}
}
