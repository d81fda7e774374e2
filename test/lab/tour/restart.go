package tour

import (
	"context"
	"fmt"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/crypto"
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/kubernetes"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/etcdclient"
	"github.com/kmsguard/kmsguard/test/lab"
)

// operatorRescheduleTime is how long the operator is gone in the restart drills: its pod deleted and a new one
// started on another node, whose leader election takes over at once because the old leader released the lease.
const operatorRescheduleTime = 15 * time.Second

// operatorRestartKMSRollout is a KMS change across an operator restart: the admin moves to another Vault key, and
// once the new key's first revision runs on a node, the operator's pod is rescheduled. What kmsguard must remember
// across its process (what the rollout gate let through, a revert it holds) is on the operator resource, so the
// change goes on from where it was: the key rolls out, the read key on every node before any node writes with it
// and one apiserver at a time, it is migrated and proven, and nothing is reverted or degraded.
func operatorRestartKMSRollout(ctx context.Context, env *Env, res *Result) error {
	l := env.Lab
	kube, err := kubernetesClient(l)
	if err != nil {
		return err
	}
	running, err := l.APIServerEncryption(ctx)
	if err != nil {
		return err
	}
	if running.Type != configv1.EncryptionTypeKMS {
		return fmt.Errorf("the APIServer resource's encryption is %q, not KMS: operator-restart-kms-rollout starts from enable-kms", running.Type)
	}
	wanted := running
	wanted.KMS.Vault.VaultKeyPath = running.KMS.Vault.VaultKeyPath + "-restart"
	keysBefore, err := keyIDs(ctx, kube)
	if err != nil {
		return err
	}
	degraded := sampleDegraded(ctx, env, time.Second)
	if err := l.SetAPIServerEncryption(ctx, wanted); err != nil {
		degraded()
		return err
	}
	changed := time.Now()
	env.Logf("the admin moved the APIServer resource to Vault key %s", wanted.KMS.Vault.VaultKeyPath)
	if err := restartMidRollout(ctx, env, res, changed, "its new key", withNewKMSKey(kube, keysBefore)); err != nil {
		degraded()
		return err
	}
	keyID, ok := rolledOutAndProven(ctx, env, res, kube, wanted, "the new configuration", changed)
	samples, seen := degraded()
	if !ok {
		return nil
	}
	res.Recovered = time.Since(changed)
	res.Recovery = fmt.Sprintf("rolled out across the operator's restart: key %s migrated and proven", keyID)
	noneDegraded(res, samples, seen)
	checkRollout(res, l, changed, true)
	return nil
}

// operatorRestartCertRollout is a revision kmsguard has no stake in across an operator restart: the CA bundle of
// etcd's serving certificate (openshift-config/etcd-serving-ca, which the operator copies into every revision)
// gains a CA, as when etcd's CA is rotated, and once the new revision runs on a node, the operator's pod is
// rescheduled. The rollout gate holds only the encryption config's sync, and only for a KMS change: this revision
// rolls out to every node before and after the restart, and nothing is reverted or degraded.
func operatorRestartCertRollout(ctx context.Context, env *Env, res *Result) error {
	l := env.Lab
	kube, err := kubernetesClient(l)
	if err != nil {
		return err
	}
	before, err := latestRevision(ctx, l)
	if err != nil {
		return err
	}
	degraded := sampleDegraded(ctx, env, time.Second)
	withCA, err := addEtcdCA(ctx, env, kube)
	if err != nil {
		degraded()
		return err
	}
	changed := time.Now()
	if err := restartMidRollout(ctx, env, res, changed, "the new CA", withCA); err != nil {
		degraded()
		return err
	}
	err = l.WaitForRevision(ctx, before+1)
	samples, seen := degraded()
	if err != nil {
		res.problemf("the new CA bundle's revision did not roll out: %v", err)
		return nil
	}
	latest, ok, err := latestCarries(ctx, l, res, withCA, "the new CA")
	if err != nil || !ok {
		return err
	}
	res.Recovered = time.Since(changed)
	res.Recovery = fmt.Sprintf("revision %d with the new CA rolled out to every node across the operator's restart, not held", latest)
	noneDegraded(res, samples, seen)
	checkRollout(res, l, changed, false)
	return nil
}

// addEtcdCA adds a new CA to the CA bundle of etcd's serving certificate (openshift-config/etcd-serving-ca, which
// the operator copies into every revision), as when etcd's CA is rotated: a revision kmsguard has no stake in. It
// returns whether a revision carries the new CA.
func addEtcdCA(ctx context.Context, env *Env, kube kubernetes.Interface) (carries, error) {
	ca, err := crypto.MakeSelfSignedCAConfig(fmt.Sprintf("kmsguard-lab-etcd-signer-%d", time.Now().Unix()), 24*time.Hour)
	if err != nil {
		return nil, err
	}
	caPEM, _, err := ca.GetPEMBytes()
	if err != nil {
		return nil, err
	}
	bundle, err := kube.CoreV1().ConfigMaps("openshift-config").Get(ctx, etcdclient.DefaultCABundleName, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	bundle.Data["ca-bundle.crt"] = strings.TrimRight(bundle.Data["ca-bundle.crt"], "\n") + "\n" + string(caPEM)
	if _, err := kube.CoreV1().ConfigMaps("openshift-config").Update(ctx, bundle, metav1.UpdateOptions{}); err != nil {
		return nil, err
	}
	env.Logf("etcd's CA bundle (openshift-config/%s) gained the CA %s", etcdclient.DefaultCABundleName, ca.Certs[0].Subject.CommonName)
	return func(ctx context.Context, revision int32) (bool, error) {
		revisioned, err := kube.CoreV1().ConfigMaps(lab.TargetNamespace).Get(ctx, fmt.Sprintf("%s-%d", etcdclient.DefaultCABundleName, revision), metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return strings.Contains(revisioned.Data["ca-bundle.crt"], string(caPEM)), nil
	}, nil
}

// carries says whether a revision carries the change a drill made, from what the revision controller copied into
// it.
type carries func(ctx context.Context, revision int32) (bool, error)

// latestCarries returns the latest revision, which every node runs once the rollout converged, and whether it
// carries change (what); when it does not, the story's problem says so.
func latestCarries(ctx context.Context, l *lab.Lab, res *Result, change carries, what string) (int32, bool, error) {
	latest, err := latestRevision(ctx, l)
	if err != nil {
		return 0, false, err
	}
	if ok, err := change(ctx, latest); err != nil || !ok {
		res.problemf("revision %d, which every node runs, lacks %s (%v)", latest, what, err)
		return latest, false, nil
	}
	return latest, true, nil
}

// restartMidRollout waits until a node runs a revision that carries the change while another node does not yet
// (on a single node: once it does), then reschedules the operator's pod: stopped, and started again
// operatorRescheduleTime later.
func restartMidRollout(ctx context.Context, env *Env, res *Result, changed time.Time, what string, change carries) error {
	l := env.Lab
	known := map[int32]bool{}
	var where string
	if err := poll(ctx, 250*time.Millisecond, storyTimeout, func() bool {
		status, err := l.OperatorStatus(ctx)
		if err != nil {
			return false
		}
		var on, behind []string
		for _, n := range status.NodeStatuses {
			has, seen := known[n.CurrentRevision]
			if !seen && n.CurrentRevision > 0 {
				if has, err = change(ctx, n.CurrentRevision); err != nil {
					return false
				}
				known[n.CurrentRevision] = has
			}
			if has {
				on = append(on, fmt.Sprintf("%s (revision %d)", n.NodeName, n.CurrentRevision))
			} else {
				behind = append(behind, n.NodeName)
			}
		}
		where = strings.Join(on, ", ") + " ran " + what
		if len(behind) > 0 {
			where += ", " + strings.Join(behind, ", ") + " not yet"
		}
		return len(on) > 0 && (len(behind) > 0 || len(status.NodeStatuses) == 1)
	}); err != nil {
		return fmt.Errorf("no node ran a revision with %s: %w", what, err)
	}
	res.notef("the operator was restarted %s after the change, when %s", time.Since(changed).Round(100*time.Millisecond), where)
	if err := inject(ctx, env, lab.Injection{Fault: lab.FaultOperatorStop}); err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(operatorRescheduleTime):
	}
	return inject(ctx, env, lab.Injection{Fault: lab.FaultOperatorStart})
}

// withNewKMSKey is whether a revision's encryption config has a KMS provider of a key not in before.
func withNewKMSKey(kube kubernetes.Interface, before sets.Set[string]) carries {
	return func(ctx context.Context, revision int32) (bool, error) {
		secret, err := kube.CoreV1().Secrets(lab.TargetNamespace).Get(ctx, revisions.SecretName(revision), metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, nil // no encryption at that revision
		}
		if err != nil {
			return false, err
		}
		config, err := encryptionconfig.Decode(secret.Data[encryptiondata.EncryptionConfSecretKey])
		if err != nil {
			return false, err
		}
		return !before.HasAll(encryptionconfig.KMSKeysOf(config).IDs...), nil
	}
}

// keyIDs are the ids of library-go's key secrets of the operand.
func keyIDs(ctx context.Context, kube kubernetes.Interface) (sets.Set[string], error) {
	keySecrets, err := operandKeySecrets(ctx, kube)
	if err != nil {
		return nil, err
	}
	ids := sets.New[string]()
	for _, s := range keySecrets {
		k, err := secrets.ToKeyState(s)
		if err != nil {
			return nil, err
		}
		ids.Insert(k.Key.Name)
	}
	return ids, nil
}

// noneDegraded records the *Degraded conditions of kmsguard sampleDegraded saw True as a problem.
func noneDegraded(res *Result, samples int, seen []string) {
	if len(seen) > 0 {
		res.problemf("a kmsguard *Degraded condition was True (%d samples): %s", samples, strings.Join(seen, "; "))
		return
	}
	res.notef("no kmsguard *Degraded condition was True in %d samples, one a second", samples)
}

// checkRollout judges the rollouts since from the apiservers' own history: one apiserver restarted at a time and,
// for a KMS change, every node read with the new provider before any node wrote with it.
func checkRollout(res *Result, l *lab.Lab, since time.Time, kmsChange bool) {
	starts, err := l.APIServerStarts()
	if err != nil {
		res.problemf("%v", err)
		return
	}
	restarts, longest, err := lab.OneAtATime(starts)
	if err != nil {
		res.problemf("%v", err)
	} else {
		res.notef("%d apiserver restarts, one at a time, the longest %s", restarts, longest.Round(100*time.Millisecond))
	}
	if !kmsChange {
		return
	}
	first, provider, err := lab.ReadKeyFirst(starts, schema.GroupResource{Resource: "secrets"}, since)
	if err != nil {
		res.problemf("%v", err)
	} else {
		res.notef("every node read with KMS provider %s before %s wrote with it", provider, first.Node)
	}
}
