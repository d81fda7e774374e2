package tour

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/kubernetes"

	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback"
	"github.com/kmsguard/kmsguard/test/kmsenv"
	"github.com/kmsguard/kmsguard/test/lab"
)

func misconfiguredKMS(ctx context.Context, env *Env, res *Result) error {
	l := env.Lab
	lastGood, err := latestRevision(l)
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
	previous, err := l.APIServerEncryption(ctx)
	if err != nil {
		return err
	}
	did, err := l.Inject(ctx, lab.Injection{Fault: lab.FaultBadKMSConfig})
	if err != nil {
		return err
	}
	injected := time.Now()
	env.Logf("%s", did)
	if l.Preflight() == lab.PreflightPod {
		return misconfiguredKMSRefused(ctx, env, res, kube, previous, lastGood, before, injected)
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
		r, err := latestRevision(l)
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
	reverted, _, err := waitCondition(ctx, env, kmsrollback.ConditionDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionTrue && c.Reason == string(kmsrollback.ReasonRevertedFailingKMSConfig) &&
			strings.Contains(c.Message, fmt.Sprintf("revision %d ", failing))
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
	res.notef("not recovered by the tour: library-go's key controller makes no new key while the latest one is " +
		"not migrated, so correcting the APIServer resource alone does not replace the unreachable key")
	return nil
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
// becomes a key. The kms-preflight pod runs the configuration's plugin on one node, the plugin cannot reach its
// KMS, and library-go's preflight controller goes Degraded; its key controller makes no key, so no config and no
// revision follow. The admin's way out is to set the APIServer resource back (previous): the condition clears,
// and nothing rolls out.
func misconfiguredKMSRefused(ctx context.Context, env *Env, res *Result, kube kubernetes.Interface, previous configv1.APIServerEncryption, lastGood int32,
	before string, injected time.Time) error {
	l := env.Lab
	keysBefore, err := keySecretNames(ctx, kube)
	if err != nil {
		return err
	}
	refused, _, err := waitCondition(ctx, env, preflightDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionTrue
	})
	if err != nil {
		res.problemf("library-go's KMS preflight did not refuse the configuration: %v", err)
		return nil
	}
	res.detected(time.Since(injected), describe(refused), byPreflight())
	res.notef("refused: %s", firstLine(refused.Message))
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
		revision, err := latestRevision(l)
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

	// The admin's way out: the APIServer resource as it was.
	if err := l.SetAPIServerEncryption(ctx, previous); err != nil {
		return err
	}
	env.Logf("tour: the admin set the APIServer resource's encryption back to %s", previous.Type)
	if _, _, err := waitCondition(ctx, env, preflightDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionFalse
	}); err != nil {
		res.problemf("the preflight's refusal did not clear once the APIServer resource was corrected: %v", err)
		return nil
	}
	if !unchanged("after the correction") {
		return nil
	}
	res.Recovered = time.Since(injected)
	res.Recovery = "refused by library-go's KMS preflight before a key existed; the admin corrected the APIServer resource, and nothing rolled out"
	res.notef("no key, no encryption config and no revision was made for the refused configuration (keys %v)", keysBefore)
	return nil
}

// keySecretNames are the names of library-go's key secrets of the operand, sorted.
func keySecretNames(ctx context.Context, kube kubernetes.Interface) ([]string, error) {
	list, err := kube.CoreV1().Secrets("openshift-config-managed").List(ctx, metav1.ListOptions{
		LabelSelector: secrets.EncryptionKeySecretsLabel + "=" + lab.TargetNamespace})
	if err != nil {
		return nil, err
	}
	var names []string
	for _, s := range list.Items {
		names = append(names, s.Name)
	}
	slices.Sort(names)
	return names, nil
}
