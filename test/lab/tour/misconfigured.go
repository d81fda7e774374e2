package tour

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	encryptioncontrollers "github.com/openshift/library-go/pkg/operator/encryption/controllers"
	kmspreflight "github.com/openshift/library-go/pkg/operator/encryption/kms/preflight"
	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
	"github.com/kmsguard/kmsguard/test/kmsenv"
	"github.com/kmsguard/kmsguard/test/lab"
)

func misconfiguredKMS(ctx context.Context, env *Env, res *Result) error {
	l := env.Lab
	lastGood, err := latestRevision(ctx, l)
	if err != nil {
		return err
	}
	kube, err := kubernetes.NewForConfig(l.RESTConfig())
	if err != nil {
		return err
	}
	before, err := candidateVersion(ctx, kube)
	if err != nil {
		return err
	}
	keysBefore, err := keySecretNames(ctx, kube)
	if err != nil {
		return err
	}
	wanted, typo, err := misconfiguration(ctx, l)
	if err != nil {
		return err
	}
	if err := l.SetAPIServerEncryption(ctx, typo); err != nil {
		return err
	}
	injected := time.Now()
	env.Logf("the admin moved the APIServer resource to Vault key %s at %s, a typo", typo.KMS.Vault.VaultKeyPath, typo.KMS.Vault.VaultAddress)
	if l.Preflight() == lab.PreflightPod {
		return misconfiguredKMSRefused(ctx, env, res, kube, wanted, keysBefore, lastGood, before, injected)
	}
	// library-go's key controller makes a key for the new configuration once its preflight passed (the
	// always-succeed stub, as both operators wire it), and its state controller writes the config that adds the key
	// as a read key.
	var candidate time.Duration
	if err := poll(ctx, 100*time.Millisecond, storyTimeout, func() bool {
		v, err := candidateVersion(ctx, kube)
		candidate = time.Since(injected)
		return err == nil && v != before
	}); err != nil {
		res.problemf("library-go wrote no candidate encryption config for the new KMS: %v", err)
		return nil
	}
	// Nothing refutes the key before its revision: the stub's result proves nothing, and no plugin of the key runs
	// before the revision that brings it. The gate admits it by its default policy and says so.
	var failing int32
	if err := poll(ctx, 250*time.Millisecond, storyTimeout, func() bool {
		r, err := latestRevision(ctx, l)
		failing = r
		return err == nil && r > lastGood
	}); err != nil {
		res.problemf("no revision was made for the new KMS key: %v", err)
		return nil
	}
	admitted, err := kube.CoreV1().Events(lab.OperatorNamespace).List(ctx, metav1.ListOptions{
		FieldSelector: fields.OneTermEqualSelector("reason", kmsprecondition.EventReadKeyAdmittedUnverified).String()})
	switch {
	case err != nil:
		return err
	case len(admitted.Items) == 0:
		res.problemf("revision %d was made without a %s event saying why", failing, kmsprecondition.EventReadKeyAdmittedUnverified)
	default:
		res.notef("revision %d admitted: %s", failing, firstLine(admitted.Items[len(admitted.Items)-1].Message))
	}
	operators, err := operatorclient.NewForConfig(l.RESTConfig())
	if err != nil {
		return err
	}
	holds := kmsrollback.NewHoldStore(operatorstate.KubeAPIServer(operators.OperatorV1().KubeAPIServers()))
	reverted, _, err := waitCondition(ctx, env, kmsrollback.ConditionDegraded, func(c operatorv1.OperatorCondition) bool {
		if c.Status != operatorv1.ConditionTrue || c.Reason != string(kmsrollback.ReasonRevertedFailingKMSConfig) {
			return false
		}
		// The revert kmsrollback holds is of the failing revision.
		h, err := holds.Load(ctx)
		return err == nil && h.Active() != nil && h.Active().FailedRevision == failing
	})
	if err != nil {
		res.problemf("the failing revision %d was not reverted: %v", failing, err)
		return nil
	}
	res.detected(time.Since(injected), describe(reverted), byRevert(l, candidate, fallbackRestart(l, failing)))
	if err := l.WaitForRevision(ctx, failing+1); err != nil {
		res.problemf("the revert after revision %d did not roll out: %v", failing, err)
		return nil
	}
	signal := fmt.Sprintf("its pod not ready for %s (no startup monitor on %d nodes)", l.Timings().NotReadyAfter, len(l.Nodes()))
	if l.StartupMonitor() {
		signal = "the startup monitor's fallback"
	}
	res.Recovered, res.Recovery = time.Since(injected), fmt.Sprintf("admitted unverified; failed on one node, reverted by kmsrollback from %s in revision %d", signal, failing+1)
	res.notef("reverted: %s", firstLine(reverted.Message))
	// Which apiservers ever started the failing revision: one, and it failed.
	var tried []string
	for _, n := range l.Nodes() {
		for _, e := range n.APIServer().Events() {
			if e.EncryptionConfigPath == n.EncryptionConfigPath(failing) {
				tried = append(tried, fmt.Sprintf("%s %s", n.Name(), e.Kind))
			}
		}
	}
	failed := 0
	for _, t := range tried {
		if strings.HasSuffix(t, " "+string(kmsenv.EventStartFailed)) {
			failed++
		}
	}
	if nodes := nodesIn(tried); len(nodes) != 1 || failed == 0 {
		res.problemf("the failing revision %d should have been tried, and failed, on one node only: %v", failing, tried)
		return nil
	}
	res.notef("only %s tried revision %d: %s; the other nodes never started it", nodesIn(tried)[0], failing, strings.Join(tried, ", "))
	return correctAfterRevert(ctx, env, res, kube, wanted, keysBefore)
}

// misconfiguration is the admin's change the story plays: wanted moves the running KMS configuration to another Vault
// transit key, typo is wanted with a mistyped Vault address. The new key path makes wanted a new key once corrected:
// library-go makes one only when the Vault address, namespace or key path changes (sameProviderInstance), so a typo
// corrected back to the running configuration would roll nothing out. The lab's simulated KMS answers every key path
// with its one KEK ring, so a new key's KEK id is the old key's; kube-apiserver and kmsguard tell the keys apart by
// the key id in the provider name.
func misconfiguration(ctx context.Context, l *lab.Lab) (wanted, typo configv1.APIServerEncryption, err error) {
	running, err := l.APIServerEncryption(ctx)
	if err != nil {
		return wanted, typo, err
	}
	if running.Type != configv1.EncryptionTypeKMS {
		return wanted, typo, fmt.Errorf("the APIServer resource's encryption is %q, not KMS: misconfigured-kms starts from enable-kms", running.Type)
	}
	wanted = running
	wanted.KMS.Vault.VaultKeyPath = running.KMS.Vault.VaultKeyPath + "-2"
	typo = wanted
	typo.KMS.Vault.VaultAddress = lab.UnreachableKMSAddress
	return wanted, typo, nil
}

// correctAfterRevert is the admin's way out once kmsrollback reverted the failed revision: the failed key stays
// library-go's newest, never migrated, and library-go as the operators vendor it (6a2a406da642) makes no new key
// while it is not: correcting the APIServer resource alone changes nothing. hack/upstream/library-go/0003 (LG-2)
// replaces such a key by itself; until it lands the runbook (RevertedFailingKMSConfig) removes the key's secret
// once nothing is shown under it, then corrects the resource, and the corrected configuration rolls out. The story
// plays that interim, with no force.
func correctAfterRevert(ctx context.Context, env *Env, res *Result, kube kubernetes.Interface, wanted configv1.APIServerEncryption, keysBefore []string) error {
	l := env.Lab
	keys, err := keySecretNames(ctx, kube)
	if err != nil {
		return err
	}
	var failedKey string
	for _, k := range keys {
		if !slices.Contains(keysBefore, k) {
			failedKey = k
		}
	}
	if failedKey == "" {
		res.problemf("no key secret was made for the failed configuration (keys %v)", keys)
		return nil
	}
	secret, err := kube.CoreV1().Secrets("openshift-config-managed").Get(ctx, failedKey, metav1.GetOptions{})
	if err != nil {
		return err
	}
	keyState, err := secrets.ToKeyState(secret)
	if err != nil {
		return err
	}
	// The runbook's checks: never migrated to, and no value in etcd under the key's providers (<key id>_<resource>).
	if len(keyState.Migrated.Resources) > 0 || !keyState.Migrated.Timestamp.IsZero() {
		res.problemf("the failed key %s records a migration (%v): something may be under it", failedKey, keyState.Migrated.Resources)
		return nil
	}
	reports, err := l.Census(ctx, l.KMS().CurrentKEKID())
	if err != nil {
		res.problemf("no census of etcd to show that nothing is under the failed key %s: %v", failedKey, err)
		return nil
	}
	for _, report := range reports {
		for _, r := range report.Resources {
			for _, k := range r.Keys {
				if strings.HasPrefix(k.Name, keyState.Key.Name+"_") {
					res.problemf("the census shows %d %s under the failed key's provider %s", k.Count, r.Resource, k.Name)
					return nil
				}
			}
		}
	}
	if _, err := kube.CoreV1().Secrets("openshift-config-managed").Patch(ctx, failedKey, types.JSONPatchType,
		[]byte(`[{"op":"remove","path":"/metadata/finalizers"}]`), metav1.PatchOptions{}); err != nil {
		return fmt.Errorf("removing the finalizers of %s: %w", failedKey, err)
	}
	if err := kube.CoreV1().Secrets("openshift-config-managed").Delete(ctx, failedKey, metav1.DeleteOptions{}); err != nil {
		return fmt.Errorf("deleting %s: %w", failedKey, err)
	}
	if err := l.SetAPIServerEncryption(ctx, wanted); err != nil {
		return err
	}
	corrected := time.Now()
	env.Logf("the admin removed %s, which nothing was written with, and corrected the Vault address", failedKey)
	keyID, ok := rolledOutAndProven(ctx, env, res, kube, wanted, "the corrected configuration", corrected)
	if !ok {
		return nil
	}
	res.Recovery += fmt.Sprintf("; the admin removed the never written key and corrected the address (LG-2 interim): key %s migrated and proven %s later",
		keyID, time.Since(corrected).Round(100*time.Millisecond))
	return nil
}

// rolledOutAndProven waits until library-go made a key for the KMS configuration wanted, the key rolled out and
// was migrated, and the census proved every encrypted resource under it from a scan that started after since. It
// returns the key id, or records a problem and returns false.
func rolledOutAndProven(ctx context.Context, env *Env, res *Result, kube kubernetes.Interface, wanted configv1.APIServerEncryption, what string, since time.Time) (string, bool) {
	l := env.Lab
	var keyID string
	if err := poll(ctx, 500*time.Millisecond, storyTimeout, func() bool {
		keySecrets, err := operandKeySecrets(ctx, kube)
		if err != nil {
			return false
		}
		for _, s := range keySecrets {
			if k, err := secrets.ToKeyState(s); err == nil && k.KMS != nil && k.KMS.Plugin.Vault == wanted.KMS.Vault {
				keyID = k.Key.Name
				return true
			}
		}
		return false
	}); err != nil {
		res.problemf("library-go made no key for %s: %v", what, err)
		return "", false
	}
	env.Logf("library-go's key %s is %s's, seen %s after it", keyID, what, time.Since(since).Round(100*time.Millisecond))
	newest, err := l.WaitForEncryption(ctx, state.KMS)
	if err != nil {
		res.problemf("%s did not roll out: %v", what, err)
		return "", false
	}
	if newest != keyID {
		res.problemf("the newest migrated key is %s, not the key %s of %s", newest, keyID, what)
		return "", false
	}
	proven, err := l.WaitForVerified(ctx, keyID, l.KMS().CurrentKEKID())
	if err != nil {
		res.problemf("%v", err)
		return "", false
	}
	for _, report := range proven {
		// library-go names a key's KMS providers <key id>_<resource>.
		if !strings.HasPrefix(report.WriteKey.Name, keyID+"_") {
			res.problemf("the census proved %s under %s, not under key %s", report.WriteKey.Name, report.WriteKey, keyID)
			return "", false
		}
		for _, r := range report.Resources {
			res.notef("%s: %d of %d values in etcd under %s", r.Resource, r.UnderWriteKey, r.Total, report.WriteKey)
		}
	}
	return keyID, true
}

// fallbackRestart is how long the startup monitor's fallback took to bring an apiserver back after revision
// failing failed to start: from that StartFailed to the next Started, on the node that tried it; zero where none
// fell back.
func fallbackRestart(l *lab.Lab, failing int32) time.Duration {
	for _, n := range l.Nodes() {
		var failedAt time.Time
		for _, e := range n.APIServer().Events() {
			switch {
			case e.Kind == kmsenv.EventStartFailed && e.EncryptionConfigPath == n.EncryptionConfigPath(failing):
				failedAt = e.Time
			case e.Kind == kmsenv.EventStarted && !failedAt.IsZero():
				return e.Time.Sub(failedAt)
			}
		}
	}
	return 0
}

// nodesIn are the distinct nodes of "<node> <event>" lines.
func nodesIn(lines []string) []string {
	seen := map[string]bool{}
	var nodes []string
	for _, l := range lines {
		node, _, _ := strings.Cut(l, " ")
		if !seen[node] {
			seen[node] = true
			nodes = append(nodes, node)
		}
	}
	return nodes
}

// preflightDegraded is library-go's KMS preflight controller's Degraded condition.
const preflightDegraded = "EncryptionKMSPreflightControllerDegraded"

// misconfiguredKMSRefused is the story with library-go's pod preflight (lab.PreflightPod): the configuration never
// becomes a key. The kms-preflight pod runs its plugin on one node, the plugin cannot reach its KMS, library-go's key
// controller makes no key, so no config and no revision follow, and kmsguard's KMSPreflightDegraded names the node
// and the plugin's error (or where it is). The admin corrects the address: the corrected configuration is
// preflighted, becomes a key, rolls out, is migrated and proven from etcd, with no force and nothing else done.
func misconfiguredKMSRefused(ctx context.Context, env *Env, res *Result, kube kubernetes.Interface, wanted configv1.APIServerEncryption, keysBefore []string,
	lastGood int32, before string, injected time.Time) error {
	l := env.Lab
	refused, _, err := waitCondition(ctx, env, kmsprecondition.ConditionPreflightDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionTrue
	})
	if err != nil {
		res.problemf("kmsguard did not report the refused KMS preflight: %v", err)
		return nil
	}
	res.detected(time.Since(injected), describe(refused), byPreflight())
	res.notef("refused: %s", firstLine(refused.Message))
	// What the admin reads must say where and why: PreflightCheckFailed is the reason whose message names the node
	// the kms-preflight pod ran on and carries its checker's error (the pod's KMSPreflightResult condition), so the
	// pod must have run on a node of the lab and its checker must have reported the failure.
	pod, podErr := kube.CoreV1().Pods(lab.TargetNamespace).Get(ctx, kmspreflight.PodName, metav1.GetOptions{})
	var checked *corev1.PodCondition
	if podErr == nil {
		checked = encryptioncontrollers.FindPodCondition(pod.Status.Conditions, encryptioncontrollers.KMSPreflightResultPodCondition)
	}
	switch {
	case podErr != nil:
		res.problemf("the %s pod that was refused cannot be read: %v", kmspreflight.PodName, podErr)
	case refused.Reason != string(kmsprecondition.ReasonPreflightCheckFailed):
		res.problemf("%s is %s, want %s: the checker ran the plugin, which failed", kmsprecondition.ConditionPreflightDegraded, refused.Reason, kmsprecondition.ReasonPreflightCheckFailed)
	case !slices.ContainsFunc(l.Nodes(), func(n *lab.Node) bool { return n.Name() == pod.Spec.NodeName }):
		res.problemf("the %s pod ran on %q, no node of the lab", kmspreflight.PodName, pod.Spec.NodeName)
	case checked == nil || checked.Status != corev1.ConditionFalse || checked.Message == "":
		res.problemf("the checker of the %s pod reported no failure with its error: %+v", kmspreflight.PodName, checked)
	}
	if libraryGo, _, err := waitCondition(ctx, env, preflightDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionTrue
	}); err == nil {
		res.notef("library-go's own %s: %s", preflightDegraded, firstLine(libraryGo.Message))
	}
	unchanged := func(when string) bool {
		keys, err := keySecretNames(ctx, kube)
		if err != nil {
			res.problemf("%s: reading the key secrets: %v", when, err)
			return false
		}
		candidate, err := candidateVersion(ctx, kube)
		if err != nil {
			res.problemf("%s: reading the candidate config: %v", when, err)
			return false
		}
		revision, err := latestRevision(ctx, l)
		if err != nil {
			res.problemf("%s: reading the latest revision: %v", when, err)
			return false
		}
		if !slices.Equal(keys, keysBefore) || candidate != before || revision != lastGood {
			res.problemf("%s: the refused configuration reached the cluster: keys %v (before %v), candidate config changed %t, latest revision %d (before %d)",
				when, keys, keysBefore, candidate != before, revision, lastGood)
			return false
		}
		return true
	}
	if !unchanged("after the refusal") {
		return nil
	}
	res.notef("no key, no encryption config and no revision was made for the refused configuration (keys %v)", keysBefore)

	// The admin reads the kept kms-preflight pod (the runbook's first step) before correcting: by then its checker
	// has exited and the pod is Failed, which library-go alone takes for a crash of whatever configuration is
	// required next (kmsprecondition.StalePreflightPods).
	var phase corev1.PodPhase
	if err := poll(ctx, time.Second, storyTimeout, func() bool {
		pod, err := kube.CoreV1().Pods(lab.TargetNamespace).Get(ctx, kmspreflight.PodName, metav1.GetOptions{})
		if err == nil {
			phase = pod.Status.Phase
		}
		return phase == corev1.PodFailed
	}); err != nil {
		res.problemf("the refused configuration's kms-preflight pod is %q, not Failed: %v", phase, err)
		return nil
	}
	// The admin's way out: correct the address. Nothing else: no force, no key, pod or finalizer touched.
	if err := l.SetAPIServerEncryption(ctx, wanted); err != nil {
		return err
	}
	corrected := time.Now()
	env.Logf("the admin corrected the Vault address to %s", wanted.KMS.Vault.VaultAddress)
	keyID, ok := rolledOutAndProven(ctx, env, res, kube, wanted, "the corrected configuration", corrected)
	if !ok {
		return nil
	}
	if _, _, err := waitCondition(ctx, env, kmsprecondition.ConditionPreflightDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionFalse
	}); err != nil {
		res.problemf("%s did not clear for the corrected configuration: %v", kmsprecondition.ConditionPreflightDegraded, err)
		return nil
	}
	res.Recovered = time.Since(injected)
	res.Recovery = fmt.Sprintf("refused before a key existed; the admin corrected the address after %s, and key %s rolled out, migrated and proven %s later",
		corrected.Sub(injected).Round(100*time.Millisecond), keyID, time.Since(corrected).Round(100*time.Millisecond))
	return nil
}

// operandKeySecrets are library-go's key secrets of the operand.
func operandKeySecrets(ctx context.Context, kube kubernetes.Interface) ([]*corev1.Secret, error) {
	return secrets.ListKeySecrets(ctx, kube.CoreV1(), metav1.ListOptions{LabelSelector: secrets.EncryptionKeySecretsLabel + "=" + lab.TargetNamespace})
}

// keySecretNames are the names of library-go's key secrets of the operand, sorted.
func keySecretNames(ctx context.Context, kube kubernetes.Interface) ([]string, error) {
	keySecrets, err := operandKeySecrets(ctx, kube)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, s := range keySecrets {
		names = append(names, s.Name)
	}
	slices.Sort(names)
	return names, nil
}
