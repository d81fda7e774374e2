package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"github.com/openshift/library-go/pkg/operator/resource/resourceread"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/test/kmsenv"
	"github.com/kmsguard/kmsguard/test/openshift"
)

// TestKubeAPIServerOperatorRunsKMSGuard runs kube-apiserver-operator itself, the binary built from
// third_party/cluster-kube-apiserver-operator with hack/integration's patch, as its Deployment runs it (leader
// election on, its environment), against a real kube-apiserver that has what the rest of an OpenShift cluster
// publishes (package openshift), and checks what only the shipped wiring can show: the patched operator starts
// kmsguard's controllers beside its own, they write their conditions on kubeapiservers/cluster, library-go's status
// controller rolls the operator's conditions into clusteroperators/kube-apiserver, and the operator's own target
// config controller writes the static pod manifest that its revisions copy.
func TestKubeAPIServerOperatorRunsKMSGuard(t *testing.T) {
	binary, err := openshift.OperatorBinary()
	if err != nil {
		t.Fatal(err)
	}
	cp := kmsenv.StartForTest(t, kmsenv.Options{EtcdTLS: true})
	api := cp.APIServer(0)
	cfg := api.RESTConfig()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	if err := openshift.InstallCRDs(cfg, filepath.Join(cp.Dir(), "crds")); err != nil {
		t.Fatal(err)
	}
	etcdFiles, _ := cp.EtcdTLSFiles()
	etcd, err := openshift.EtcdOf(etcdFiles, "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	if err := openshift.Publish(ctx, cfg, openshift.Cluster{
		Version: openshift.ReleaseVersion,
		Domain:  "kmsguard-e2e.local",
		Nodes:   []openshift.Node{{Name: "master-0", IP: "127.0.0.1", KubeletVersion: "v" + openshift.KubernetesVersion}},
		Etcd:    etcd,
	}); err != nil {
		t.Fatal(err)
	}
	kubeconfig, err := api.KubeConfig()
	if err != nil {
		t.Fatal(err)
	}
	kubeconfigPath := filepath.Join(cp.Dir(), "operator.kubeconfig")
	if err := os.WriteFile(kubeconfigPath, kubeconfig, 0o600); err != nil {
		t.Fatal(err)
	}

	const podName = "kube-apiserver-operator-e2e"
	operator, err := openshift.StartOperator(openshift.OperatorOptions{
		Binary: binary, KubeConfig: kubeconfigPath, Dir: filepath.Join(cp.Dir(), "operator"),
		Version: openshift.ReleaseVersion, OperandVersion: openshift.KubernetesVersion,
		Image: "kmsguard-e2e/hyperkube", OperatorImage: "kmsguard-e2e/cluster-kube-apiserver-operator", PodName: podName,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := operator.Stop(); err != nil {
			t.Error(err)
		}
		if t.Failed() {
			tailLog(t, operator.LogPath(), 60)
		}
	})

	kube := api.Client()
	operators, err := operatorclient.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	config, err := configclient.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	waitFor := func(what string, done func(ctx context.Context) (bool, string)) {
		t.Helper()
		var last string
		err := wait.PollUntilContextTimeout(ctx, time.Second, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
			select {
			case <-operator.Exited():
				return false, fmt.Errorf("the operator exited")
			default:
			}
			ok, state := done(ctx)
			last = state
			return ok, nil
		})
		if err != nil {
			t.Fatalf("waiting for %s (%s): %v", what, last, err)
		}
		t.Logf("%s: %s", what, last)
	}

	// library-go's leader election names the holder <hostname>_<uuid>: the pod's name on a cluster.
	hostname, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	waitFor("the operator to hold its leader lease", func(ctx context.Context) (bool, string) {
		lease, err := kube.CoordinationV1().Leases(openshift.OperatorNamespace).Get(ctx, "kube-apiserver-operator-lock", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		holder := ""
		if lease.Spec.HolderIdentity != nil {
			holder = *lease.Spec.HolderIdentity
		}
		return strings.HasPrefix(holder, hostname+"_"), "holder " + holder
	})

	// kmsguard's controllers, started by the patch, write their conditions: KMS is not configured yet. Its migration
	// controller runs only where the patch gives kmsguard's migrator (kmsguard.MigrationOptions), the census and
	// lost-key recovery only where it gives etcd (kmsguard.EtcdOptions).
	for _, want := range []struct{ condition, reason string }{
		{kmsstate.ConditionKMSPluginsDegraded, kmsstate.ReasonKMSNotConfigured},
		{kmsstate.ConditionKMSPluginsProgressing, kmsstate.ReasonKMSNotConfigured},
		{kmsrollback.ConditionDegraded, ""},
		{kmsprecondition.ConditionPreflightDegraded, ""},
		{kmsmigration.ConditionDegraded, ""},
		{evidence.ConditionVerified, evidence.ReasonNothingToVerify},
		{kmsrecovery.ConditionDegraded, ""},
	} {
		waitFor("kubeapiservers/cluster "+want.condition, func(ctx context.Context) (bool, string) {
			kas, err := operators.OperatorV1().KubeAPIServers().Get(ctx, "cluster", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			c := v1helpers.FindOperatorCondition(kas.Status.Conditions, want.condition)
			if c == nil {
				return false, "no such condition yet"
			}
			state := fmt.Sprintf("%s %s: %s", c.Status, c.Reason, c.Message)
			return c.Status == operatorv1.ConditionFalse && (want.reason == "" || c.Reason == want.reason), state
		})
	}

	// library-go's status controller, wired by the operator, rolls the conditions into the ClusterOperator.
	waitFor("clusteroperators/kube-apiserver", func(ctx context.Context) (bool, string) {
		co, err := config.ConfigV1().ClusterOperators().Get(ctx, openshift.ClusterOperator, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		var have []string
		for _, c := range co.Status.Conditions {
			have = append(have, fmt.Sprintf("%s=%s", c.Type, c.Status))
		}
		for _, t := range []configv1.ClusterStatusConditionType{configv1.OperatorDegraded, configv1.OperatorProgressing, configv1.OperatorAvailable} {
			found := false
			for _, c := range co.Status.Conditions {
				found = found || c.Type == t
			}
			if !found {
				return false, strings.Join(have, ", ")
			}
		}
		return true, strings.Join(have, ", ")
	})

	// The operator's own target config controller writes the static pod manifest: upstream's kube-apiserver
	// started with OpenShift's --openshift-config, which a revision copies and an installer installs.
	waitFor("the static pod manifest kube-apiserver-pod", func(ctx context.Context) (bool, string) {
		cm, err := kube.CoreV1().ConfigMaps(openshift.TargetNamespace).Get(ctx, "kube-apiserver-pod", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		pod, err := resourceread.ReadPodV1([]byte(cm.Data["pod.yaml"]))
		if err != nil {
			return false, err.Error()
		}
		for _, c := range pod.Spec.Containers {
			if c.Name == "kube-apiserver" {
				command := strings.Join(append(c.Command, c.Args...), " ")
				return strings.Contains(command, "--openshift-config="), command
			}
		}
		return false, "no kube-apiserver container"
	})
}

// tailLog logs the last lines of a file.
func tailLog(t *testing.T, path string, lines int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Logf("%s: %v", path, err)
		return
	}
	all := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	t.Logf("last %d lines of %s:\n%s", min(lines, len(all)), path, strings.Join(all[max(0, len(all)-lines):], "\n"))
}
