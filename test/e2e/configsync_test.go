package e2e

import (
	"context"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/resourcesynccontroller"
	"github.com/openshift/library-go/pkg/operator/revisioncontroller"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"

	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
)

// TestKMSChangeHeldWhileCABundleRollsOut runs library-go's real resource sync and revision controller against a real
// apiserver, with kmsguard's gate in front of the sync of encryption-config (HoldEncryptionConfigSync), the revision
// carrying a CA bundle beside the encryption config as kube-apiserver-operator's revisions do:
//  1. library-go's state controller writes a config that adds KMS key 1 as a read key, while a node reports key 1's
//     plugin failing: the gate refuses it, and encryption-config is not written;
//  2. the CA bundle changes meanwhile: its revision is made, without the refused config, and the test, playing the
//     installer, rolls it out to every node;
//  3. the plugin comes back: encryption-config is written and the next revision carries key 1.
//
// KMSRolloutGateDegraded stays False throughout: a change that waits for a plugin is not an admin's business
// before DegradedAfter.
func TestKMSChangeHeldWhileCABundleRollsOut(t *testing.T) {
	const keyID = "1"
	ctx, g, plugins := startGateFixture(t, keyID)
	kubeClient := g.kube
	if _, err := kubeClient.CoreV1().ConfigMaps(operandNamespace).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "kubelet-serving-ca"}, Data: map[string]string{"ca-bundle.crt": "CA 1"},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	// library-go's resource sync, with the rule encryption.NewControllers registers, then kmsguard's in front.
	recorder := events.NewInMemoryRecorder("resource-sync-e2e", clock.RealClock{})
	syncer := resourcesynccontroller.NewResourceSyncController("kube-apiserver", g.Operator, g.Informers, kubeClient.CoreV1(), kubeClient.CoreV1(), recorder)
	if err := syncer.SyncSecretConditionally(
		resourcesynccontroller.ResourceLocation{Namespace: operandNamespace, Name: "encryption-config"},
		resourcesynccontroller.ResourceLocation{Namespace: "openshift-config-managed", Name: "encryption-config-" + operandNamespace},
		func() (bool, error) { return true, nil }); err != nil {
		t.Fatal(err)
	}
	if err := g.HoldEncryptionConfigSync(syncer); err != nil {
		t.Fatal(err)
	}
	revisionController := revisioncontroller.NewRevisionController("kube-apiserver", operandNamespace,
		[]revisioncontroller.RevisionResource{{Name: "kube-apiserver-pod"}, {Name: "kubelet-serving-ca"}},
		[]revisioncontroller.RevisionResource{{Name: "encryption-config", Optional: true}},
		g.Informers.InformersFor(operandNamespace), g.Operator,
		v1helpers.CachedConfigMapGetter(kubeClient.CoreV1(), g.Informers), v1helpers.CachedSecretGetter(kubeClient.CoreV1(), g.Informers),
		events.NewInMemoryRecorder("revision-controller-e2e", clock.RealClock{}), g.Precondition, g.ReadinessCheck)
	g.start(ctx)
	go syncer.Run(ctx, 1)
	go revisionController.Run(ctx, 1)
	waitForLatestRevision(t, g.Operator, 1)
	rollOut(ctx, t, g, 1)

	// 1. library-go's state controller adds KMS key 1 as a read key; master-1 reports its plugin failing.
	withKey := ectest.Marshal(t, ectest.Secrets(ectest.Identity(), ectest.KMS(keyID)))
	if _, err := kubeClient.CoreV1().Secrets("openshift-config-managed").Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "encryption-config-" + operandNamespace}, Data: map[string][]byte{"encryption-config": withKey},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitForCondition(t, g.Operator, kmsprecondition.ConditionProgressing, operatorv1.ConditionTrue, string(kmsprecondition.ReasonKMSPluginsNotHealthy))
	waitForKeyFailingOn(t, g, keyID, "master-1")
	if _, err := kubeClient.CoreV1().Secrets(operandNamespace).Get(ctx, "encryption-config", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("encryption-config was written while the gate refuses it (err %v)", err)
	}

	// 2. The CA bundle changes: its revision is made and rolls out, without the refused config.
	ca, err := kubeClient.CoreV1().ConfigMaps(operandNamespace).Get(ctx, "kubelet-serving-ca", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ca.Data["ca-bundle.crt"] = "CA 2"
	if _, err := kubeClient.CoreV1().ConfigMaps(operandNamespace).Update(ctx, ca, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	waitForLatestRevision(t, g.Operator, 2)
	t.Logf("revision 2 (the CA bundle) made %s after the change, while the KMS change is held", time.Since(start).Round(10*time.Millisecond))
	if copied, err := kubeClient.CoreV1().ConfigMaps(operandNamespace).Get(ctx, "kubelet-serving-ca-2", metav1.GetOptions{}); err != nil || copied.Data["ca-bundle.crt"] != "CA 2" {
		t.Fatalf("kubelet-serving-ca-2 is not the new CA bundle: %v", err)
	}
	if _, err := kubeClient.CoreV1().Secrets(operandNamespace).Get(ctx, "encryption-config-2", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("revision 2 carries an encryption config (err %v); the refused one must not reach it", err)
	}
	rollOut(ctx, t, g, 2)

	// 3. The plugin comes back: the config is copied, and the next revision carries it.
	if err := plugins["master-1"].Start(); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	waitForLatestRevision(t, g.Operator, 3)
	t.Logf("revision 3 (KMS key 1) made %s after the plugin came back", time.Since(start).Round(10*time.Millisecond))
	copied, err := kubeClient.CoreV1().Secrets(operandNamespace).Get(ctx, "encryption-config-3", metav1.GetOptions{})
	if err != nil || string(copied.Data["encryption-config"]) != string(withKey) {
		t.Fatalf("encryption-config-3 is not the config that adds key 1: %v", err)
	}
	if reasons := g.eventReasons(kmsprecondition.EventDegraded); len(reasons) > 0 {
		t.Errorf("KMSRolloutGateDegraded turned True: %v", reasons)
	}
	if degraded := gateCondition(t, g.Operator, kmsprecondition.ConditionDegraded); degraded.Status != operatorv1.ConditionFalse {
		t.Errorf("KMSRolloutGateDegraded = %+v, want False", degraded)
	}
}

// rollOut plays library-go's installer: every node runs revision.
func rollOut(ctx context.Context, t *testing.T, g *guard, revision int32) {
	t.Helper()
	status := applyoperatorv1.StaticPodOperatorStatus()
	for _, node := range g.nodes {
		status.WithNodeStatuses(applyoperatorv1.NodeStatus().WithNodeName(node).WithCurrentRevision(revision))
	}
	if err := g.Operator.ApplyStaticPodOperatorStatus(ctx, "e2e-installer", status); err != nil {
		t.Fatal(err)
	}
}
