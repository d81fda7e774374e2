package main

import (
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	"github.com/openshift/client-go/operator/clientset/versioned/fake"

	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
)

// TestOperandsAddressOneResource: for each --operator, what health-reporter publishes through the operand's
// statusProvider is what status and recover read back through its read: one registry, one resource per operator.
func TestOperandsAddressOneResource(t *testing.T) {
	if got, want := operatorNames(), []string{"authentication", "kubeapiserver", "openshiftapiserver"}; !slices.Equal(got, want) {
		t.Errorf("--operator values %v, want %v", got, want)
	}
	for _, name := range operatorNames() {
		t.Run(name, func(t *testing.T) {
			operators := fake.NewClientset(
				&operatorv1.KubeAPIServer{ObjectMeta: metav1.ObjectMeta{Name: encryptionstatus.Name}},
				&operatorv1.OpenShiftAPIServer{ObjectMeta: metav1.ObjectMeta{Name: encryptionstatus.Name}},
				&operatorv1.Authentication{ObjectMeta: metav1.ObjectMeta{Name: encryptionstatus.Name}},
			)
			operand := operands[name]
			report := applyoperatorv1.KMSPluginHealthReport().WithNodeName("master-0").WithKeyID("1").
				WithStatus(operatorv1.KMSPluginHealthStatusHealthy).WithLastCheckedTime(metav1.NewTime(time.Unix(0, 0))).WithRemoteKeyID(name)
			if err := operand.statusProvider(operators).ApplyKMSEncryptionStatus(t.Context(), encryptionstatus.ReporterFieldManager("master-0"),
				applyoperatorv1.KMSEncryptionStatus().WithHealthReports(report)); err != nil {
				t.Fatal(err)
			}
			resource, err := operand.read(t.Context(), operators)
			if err != nil {
				t.Fatal(err)
			}
			if reports := resource.encryptionStatus.HealthReports; len(reports) != 1 || reports[0].RemoteKeyID != name {
				t.Errorf("read back the health reports %+v, want the one published with KEK id %q", reports, name)
			}
		})
	}
}
