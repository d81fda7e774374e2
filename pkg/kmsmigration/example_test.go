package kmsmigration_test

import (
	"context"
	"fmt"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/controllers/migrators"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
)

// The Migrator is library-go's migrator: kube-apiserver-operator passes it
// to encryption.NewControllers in place of migrators.NewInProcessMigrator.
var _ migrators.Migrator = (*kmsmigration.Migrator)(nil)

// Example shows the wiring in an operator starter. Dynamic, Mapper and the
// kube client are what the starter already has (in a cluster: a
// restmapper.NewDeferredDiscoveryRESTMapper over a cached discovery client);
// Health is kmsstate's verdict on the write key, here always healthy.
func Example() {
	scheme := runtime.NewScheme()
	_ = corev1.AddToScheme(scheme)
	dynamicClient := dynamicfake.NewSimpleDynamicClient(scheme,
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-etcd", Name: "etcd-client"}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "app"}})
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(corev1.SchemeGroupVersion.WithKind("Secret"), meta.RESTScopeNamespace)
	kubeClient := kubefake.NewClientset()
	operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)
	recorder := events.NewInMemoryRecorder("kms-migration", clock.RealClock{})

	// The wiring.
	migrator, err := kmsmigration.New(kmsmigration.Options{
		Dynamic: dynamicClient,
		Mapper:  mapper,
		// Progress survives operator restarts in a ConfigMap of the operator's namespace.
		Checkpoints: kmsmigration.ConfigMapCheckpoints{Client: kubeClient.CoreV1(), Namespace: "openshift-kube-apiserver-operator", Name: "kmsguard-migration"},
		// kmsState.Healthy(nodes, []string{writeKeyID}) in an operator.
		Health: func(context.Context) error { return nil },
	})
	if err != nil {
		panic(err)
	}
	// Publishes KMSMigrationProgressing/Degraded and migrates again after
	// kmsstate sees a remote key rotation complete; run it with the other
	// controllers: go controller.Run(ctx, 1).
	_ = kmsmigration.NewController("kube-apiserver", kmsmigration.ControllerOptions{
		Migrator:       migrator,
		OperatorClient: operatorClient,
		Recorder:       recorder,
		// WriteKeys: kmsmigration.WriteKeysFromDeployer(deployer, kubeClient.CoreV1(), keySelector, encryptedGRs),
		// Rotations: kmsmigration.RotationsFromState(kmsState),
	})

	// What library-go's migration controller does on each sync.
	gr := schema.GroupResource{Resource: "secrets"}
	for {
		finished, result, _, err := migrator.EnsureMigration(gr, "2")
		if err != nil || finished {
			fmt.Println(result, err)
			break
		}
	}
	progress := migrator.Progress()[0]
	// The fake client does not model the apiserver's stale-value check: it
	// stores nothing on a no-op update, so both objects count as current.
	fmt.Println(progress.Counts.Listed, progress.Counts.Done())
	// Output:
	// <nil> <nil>
	// 2 2
}
