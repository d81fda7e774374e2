package e2e

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/client-go/kubernetes"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/test/kmsenv"
	"github.com/kmsguard/kmsguard/test/lab"
)

// providerName is the KMS v2 provider name in every config of these tests; it is part of the etcd prefix.
const providerName = "fake-kms"

func TestMain(m *testing.M) {
	// The lab's kubelet starts a pod's container (the kms-health-reporter sidecar, the kms-preflight check) as a
	// process of this test binary, which enters the container's root and executes the image's binary there.
	lab.ContainerMain()
	// envtest logs through controller-runtime's logger and warns once when none is set.
	ctrllog.SetLogger(zap.New(zap.WriteTo(os.Stderr)))
	os.Exit(m.Run())
}

// startKMSControlPlane starts etcd and one kube-apiserver that writes Secrets with the plugin and reads
// plaintext ones through identity.
func startKMSControlPlane(t *testing.T, plugin *fake.Plugin) *kmsenv.ControlPlane {
	t.Helper()
	return kmsenv.StartForTest(t, kmsenv.Options{APIServerOptions: kmsenv.APIServerOptions{EncryptionConfig: kmsControlPlaneConfig(plugin)}})
}

// kmsControlPlaneConfig is the encryption config of startKMSControlPlane's apiserver.
func kmsControlPlaneConfig(plugin *fake.Plugin) *apiserverv1.EncryptionConfiguration {
	return ectest.Secrets(kmsenv.KMSv2Provider(providerName, plugin.Endpoint()), ectest.Identity())
}

func createSecret(t *testing.T, client kubernetes.Interface, name, value string) *corev1.Secret {
	t.Helper()
	secret, err := client.CoreV1().Secrets("default").Create(context.Background(), &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Data:       map[string][]byte{"value": []byte(value)},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating secret %s: %v", name, err)
	}
	return secret
}

func secretKey(name string) string { return "/registry/secrets/default/" + name }

// storedValue parses what kube-apiserver stored in etcd for the Secret default/name.
func storedValue(t *testing.T, cp *kmsenv.ControlPlane, name string) (etcdvalue.Value, []byte) {
	t.Helper()
	raw, err := cp.RawValue(context.Background(), secretKey(name))
	if err != nil {
		t.Fatal(err)
	}
	value, err := etcdvalue.Parse(raw)
	if err != nil {
		t.Fatalf("parsing the stored value of secret %s: %v", name, err)
	}
	return value, raw
}

// kmsHealth returns the status code of /healthz/kms-providers.
func kmsHealth(ctx context.Context, a *kmsenv.APIServer) (int, error) {
	code, _, err := a.Get(ctx, "/healthz/kms-providers")
	return code, err
}

// waitForKMSHealth polls /healthz/kms-providers until it answers want, and returns how long that took.
// kube-apiserver caches a healthy result for 20 s and a failure for 3 s, and polls Status every minute, so
// the wait allows a few minutes.
func waitForKMSHealth(t *testing.T, a *kmsenv.APIServer, want int) time.Duration {
	t.Helper()
	start := time.Now()
	var last int
	err := wait.PollUntilContextTimeout(context.Background(), time.Second, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		code, err := kmsHealth(ctx, a)
		if err != nil {
			return false, nil // a transient connection error is not an answer
		}
		last = code
		return code == want, nil
	})
	if err != nil {
		t.Fatalf("/healthz/kms-providers never answered %d (last %d): %v", want, last, err)
	}
	return time.Since(start)
}

func uniqueName(prefix string) string { return fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano()) }

// waitForCondition polls the operator status until conditionType has status (and reason, if not empty), and
// returns the condition and how long it took.
func waitForCondition(t *testing.T, operator v1helpers.OperatorClient, conditionType string, status operatorv1.ConditionStatus, reason string) (operatorv1.OperatorCondition, time.Duration) {
	t.Helper()
	return waitForConditionMatching(t, operator, conditionType, func(c *operatorv1.OperatorCondition) bool {
		return c.Status == status && (reason == "" || c.Reason == reason)
	})
}

// waitForConditionMatching polls the operator status for up to 3 minutes until conditionType exists and ok
// accepts it, and returns the condition and how long it took. On a timeout it logs every condition.
func waitForConditionMatching(t *testing.T, operator v1helpers.OperatorClient, conditionType string, ok func(*operatorv1.OperatorCondition) bool) (operatorv1.OperatorCondition, time.Duration) {
	t.Helper()
	start := time.Now()
	var last *operatorv1.OperatorCondition
	var conditions []operatorv1.OperatorCondition
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, 3*time.Minute, true, func(context.Context) (bool, error) {
		_, status, _, err := operator.GetOperatorState()
		if err != nil {
			return false, nil
		}
		conditions = status.Conditions
		last = v1helpers.FindOperatorCondition(conditions, conditionType)
		return last != nil && ok(last), nil
	})
	if err != nil {
		t.Logf("conditions: %+v", conditions)
		t.Fatalf("%s never reached the expected state; last: %+v", conditionType, last)
	}
	return *last, time.Since(start)
}

// waitForKMSState polls kmsstate's latest fresh evaluation for up to 3 minutes until ok accepts it, and returns it.
func waitForKMSState(t *testing.T, reader kmsstate.Reader, what string, ok func(kmsstate.State) bool) kmsstate.State {
	t.Helper()
	var state kmsstate.State
	var lastErr error
	err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, 3*time.Minute, true, func(context.Context) (bool, error) {
		state, lastErr = reader.Current()
		return lastErr == nil && ok(state), nil
	})
	if err != nil {
		t.Fatalf("kmsstate never saw %s: last evaluation %+v (%v)", what, state, lastErr)
	}
	return state
}

// withoutDetail are failures without their Detail, the prose kmsstate writes into condition messages.
func withoutDetail(failures []kmsstate.Failure) []kmsstate.Failure {
	out := make([]kmsstate.Failure, 0, len(failures))
	for _, f := range failures {
		f.Detail = ""
		out = append(out, f)
	}
	return out
}
