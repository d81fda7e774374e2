package tour

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	clientv3 "go.etcd.io/etcd/client/v3"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/kmsguard/kmsguard/pkg/etcdclient"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsguard"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
	"github.com/kmsguard/kmsguard/pkg/overrides"
	"github.com/kmsguard/kmsguard/test/kmsenv"
	"github.com/kmsguard/kmsguard/test/lab"
)

// keyDestroyed is story 7: a KEK is destroyed while etcd still holds values under it.
//
// The KMS rotates its key twice in a short time (b, then c) while kmsguard's migration has not yet reached the
// cluster's objects (FaultMigrationHold stands in for a migration of a large cluster), and the KMS admin then
// destroys KEK b, thinking the migration done. Whatever was written while b was the KMS's key and not written
// again since (windowSecrets Secrets an application created then, and whatever else happened to be written) is
// lost; what is older (under a) or newer (under c) is not.
//
// kube-apiserver-operator's pod is rescheduled meanwhile (FaultOperatorStop, from the second rotation until after
// the apiservers restarted), so kmsguard's caches it last wrote while b was the KMS's key (at least its published
// verdict, which the rotation to b changed) are lost with b: the new operator starts into a cluster where its own
// caches cannot be read, clears them without a consent, and asks a consent for the rest only.
//
// Something also wrote the operand namespace's etcd-client Secret while b was current (an annotation, data
// unchanged, so no new revision): kmsguard's etcd access, which the operator builds from that Secret
// (etcdclient.SecretKV), is lost with b, and the new pod has none.
//
// The loss is invisible at first: kube-apiserver keeps every DEK it decrypted for 24 hours (kmsv2's cacheTTL)
// and reads on. It shows when an apiserver restarts, as on a node reboot, so the story restarts each of them,
// one at a time. Then every LIST of a resource with an object under b fails, and kmsrecovery lists exactly those
// objects (checked against the story's own read of etcd), all under "unknown": without etcd it cannot tell
// their key, so the operator refuses every consent, the one naming the KMS's current key and the one naming b.
// The admin runs `kmsguard recover` on a control-plane node with the copy of the etcd credentials the installer
// put there (runbook UndecryptableObjects): it attributes the objects to b and, with the consent naming b (one
// per KMS provider that has objects under b), deletes them and nothing else. kube-apiserver-operator's resource
// sync writes the etcd-client copy again, the operator's etcd access and KMSRecoveryDegraded recover, the
// migration goes on and the census proves everything under c.
//
// Until recovery deletes them, kube-apiserver fails to decrypt the lost objects each time anything reads them,
// and kmsstate reports DecryptFailing; recovery's health rule ignores that, or it would wait for ever.
func keyDestroyed(ctx context.Context, env *Env, res *Result) (err error) {
	l := env.Lab
	// The lab's etcd client, with the lab's own certificate: not this story's to close.
	etcd, err := l.ControlPlane().EtcdClient()
	if err != nil {
		return err
	}
	if err := inject(ctx, env, lab.Injection{Fault: lab.FaultMigrationHold}); err != nil {
		return err
	}
	released := false
	defer func() {
		// The next story needs a migration that goes on, whatever happened here.
		if released {
			return
		}
		if releaseErr := inject(ctx, env, lab.Injection{Fault: lab.FaultMigrationRelease}); err == nil {
			err = releaseErr
		}
	}()

	kekA := l.KMS().CurrentKEKID()
	if err := inject(ctx, env, lab.Injection{Fault: lab.FaultKeyRotate}); err != nil {
		return err
	}
	kekB := l.KMS().CurrentKEKID()
	if err := waitEveryAPIServerWritesUnder(ctx, env, etcd, kekB); err != nil {
		res.problemf("%v", err)
		return nil
	}
	// An application creates Secrets while b is the KMS's key, and writes them no more: they stay under b.
	for i := 0; i < windowSecrets; i++ {
		name := fmt.Sprintf("under-%s-%03d", kekB, i)
		if err := env.Writers.write(ctx, name, "written while "+kekB+" was the KMS's key"); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	// kmsstate publishes its verdict again when the verdict changes, and the rotation to b changed it.
	verdictKey := cacheEtcdKey(kmsstate.DefaultConfigMapName)
	var verdictKEK string
	if err := poll(ctx, time.Second, storyTimeout, func() bool {
		v, err := etcdValue(ctx, etcd, verdictKey)
		verdictKEK = v.KEKID
		return err == nil && v.KEKID == kekB
	}); err != nil {
		res.problemf("kmsguard's published verdict %s was not written under %s, the KMS's key since the rotation (it is under %q): %v", verdictKey, kekB, verdictKEK, err)
		return nil
	}
	// Something writes the operand's copy of the etcd client credentials while b is current (here an
	// annotation, as a backup or policy agent adds one; its data is unchanged, so no revision follows): the Secret
	// kmsguard's etcd access is built from is lost with b, and the operator's new pod will have none.
	if err := touchEtcdClientSecret(ctx, env, etcd, kekB); err != nil {
		res.problemf("%v", err)
		return nil
	}
	// What an admin could have seen before the operator went away: the census counts the values not under the
	// current KEK.
	if census, _, err := waitCondition(ctx, env, evidence.ConditionVerified, func(operatorv1.OperatorCondition) bool { return true }); err == nil {
		res.notef("before the operator stopped, %s: %s", describe(census), firstLine(census.Message))
	}
	if err := inject(ctx, env, lab.Injection{Fault: lab.FaultOperatorStop}); err != nil {
		return err
	}
	operatorStopped := true
	defer func() {
		// The next story needs an operator, whatever happened here.
		if !operatorStopped {
			return
		}
		if startErr := inject(ctx, env, lab.Injection{Fault: lab.FaultOperatorStart}); err == nil {
			err = startErr
		}
	}()
	if err := inject(ctx, env, lab.Injection{Fault: lab.FaultKeyRotate}); err != nil {
		return err
	}
	kekC := l.KMS().CurrentKEKID()
	if err := waitEveryAPIServerWritesUnder(ctx, env, etcd, kekC); err != nil {
		res.problemf("%v", err)
		return nil
	}
	if err := inject(ctx, env, lab.Injection{Fault: lab.FaultKeyDestroy, KEKID: kekB}); err != nil {
		return err
	}
	destroyed := time.Now()
	atDestruction, err := keysUnder(ctx, etcd, kekB, "")
	if err != nil {
		return err
	}
	res.notef("KEKs: %s (before), %s (destroyed), %s (current); %d values in etcd under %s when it was destroyed", kekA, kekB, kekC, atDestruction.Len(), kekB)

	// Still readable: every apiserver has the DEKs of b cached.
	readable := 0
	for _, n := range l.Nodes() {
		if err := listThrough(ctx, n); err != nil {
			res.problemf("%s could not LIST Secrets right after %s was destroyed, before it restarted: %v", n.Name(), kekB, err)
		} else {
			readable++
		}
	}
	res.notef("right after the destruction, %d of %d apiservers still read everything (DEKs cached)", readable, len(l.Nodes()))
	for _, n := range l.Nodes() {
		if err := inject(ctx, env, lab.Injection{Fault: lab.FaultAPIServerRestart, Node: n.Name()}); err != nil {
			return err
		}
	}
	restarts := time.Since(destroyed)
	// The apiserver answers a LIST with KEP-3926's StorageReadError, naming the objects it cannot read.
	var listErr error
	if err := poll(ctx, time.Second, 2*time.Minute, func() bool {
		listErr = listThrough(ctx, l.Nodes()[0])
		return apierrors.IsStoreReadError(listErr)
	}); err != nil {
		res.problemf("LIST of Secrets did not fail with a StorageReadError after every apiserver restarted with KEK %s destroyed: %v", kekB, listErr)
	} else {
		res.notef("after the restarts, LIST of Secrets fails: %s", firstLine(listErr.Error()))
	}

	// Until its apiserver restarted, an application could still rewrite an object under b (from the cached DEK),
	// which takes it out of the loss; after the last restart nothing can: an update must read the object first.
	underB, err := keysUnder(ctx, etcd, kekB, "")
	if err != nil {
		return err
	}
	// kmsguard's own caches (ConfigMaps in the operator namespace) hold no user data: kmsguard clears those under b
	// itself, without a consent. The rest is the loss a consent is for.
	caches := kmsguardCaches()
	cachesUnderB, lost := underB.Intersection(caches), underB.Difference(caches)
	res.notef("%d values under %s after the restarts: the loss of %d objects, and %d of kmsguard's caches %v", underB.Len(), kekB, lost.Len(), cachesUnderB.Len(), sets.List(cachesUnderB))
	if lost.Len() == 0 {
		res.problemf("no object but kmsguard's caches stayed under %s: the story shows no loss", kekB)
		return nil
	}
	if !cachesUnderB.Has(verdictKey) {
		res.problemf("kmsguard's published verdict is not under %s after the restarts: the story shows no loss of kmsguard's own state", kekB)
		return nil
	}

	// The operator's new pod starts, with every apiserver unable to read what b encrypted.
	if err := inject(ctx, env, lab.Injection{Fault: lab.FaultOperatorStart}); err != nil {
		return err
	}
	operatorStopped = false
	started := time.Since(destroyed)
	cond, after, err := waitCondition(ctx, env, kmsrecovery.ConditionDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionTrue && c.Reason == string(kmsrecovery.ReasonUndecryptableObjects)
	})
	if err != nil {
		res.problemf("KMSRecoveryDegraded never reported the undecryptable objects: %v", err)
		return nil
	}
	res.detected(time.Since(destroyed), describe(cond), byRecoveryScan(env.Lab.DetectionTimings(), started))
	res.notef("reported %s after the operator started (the apiservers restarted %s after the destruction, the operator %s): %s",
		after.Round(100*time.Millisecond), restarts.Round(100*time.Millisecond), started.Round(100*time.Millisecond), firstLine(cond.Message))

	// kmsguard's caches under b are gone without anyone's consent (and written afresh by their owners).
	var cachesLeft sets.Set[string]
	if err := poll(ctx, time.Second, storyTimeout, func() bool {
		left, err := keysUnder(ctx, etcd, kekB, "")
		cachesLeft = left.Intersection(caches)
		return err == nil && cachesLeft.Len() == 0
	}); err != nil {
		res.problemf("kmsguard's caches %v are still under the destroyed KEK %s: %v", sets.List(cachesLeft), kekB, err)
		return nil
	}
	cachesCleared := time.Since(destroyed)
	res.notef("kmsguard's caches under %s (%d) cleared without a consent %s after the operator started", kekB, cachesUnderB.Len(), (cachesCleared - started).Round(100*time.Millisecond))

	// The list kmsrecovery publishes is exactly the loss etcd holds under b: nothing missing, nothing more, and
	// every object under "unknown": the operator cannot read etcd, its credentials are among the lost. A scan that
	// ran while an apiserver still had b's DEKs cached may list fewer; the next one (every 30 s in the lab) must
	// be exact.
	listedKeys := sets.New[string]()
	controllerConsents := sets.New[string]()
	var readErr error
	_ = poll(ctx, 2*time.Second, 2*time.Minute, func() bool {
		listed, err := listedUndecryptable(ctx, env)
		if err != nil {
			readErr = err
			return false
		}
		listedKeys, controllerConsents = sets.New[string](), sets.New[string]()
		for _, o := range listed {
			listedKeys.Insert(o.EtcdKey)
			controllerConsents.Insert(o.ConsentID)
		}
		return listedKeys.Equal(lost)
	})
	if listedKeys.Len() == 0 && readErr != nil {
		return readErr
	}
	if missing, extra := lost.Difference(listedKeys), listedKeys.Difference(lost); missing.Len() > 0 || extra.Len() > 0 {
		res.problemf("kmsrecovery listed %d objects, etcd holds %d under %s besides kmsguard's caches: not listed %v, listed but not under it %v",
			listedKeys.Len(), lost.Len(), kekB, firstOf(missing), firstOf(extra))
		return nil
	}
	if !controllerConsents.Equal(sets.New(kmsrecovery.UnknownConsentID)) {
		res.problemf("kmsrecovery attributed the lost objects to %v although its etcd credentials are lost: want %s only", sets.List(controllerConsents), kmsrecovery.UnknownConsentID)
		return nil
	}
	res.notef("kmsrecovery listed exactly the %d objects etcd holds under %s, under %s: its etcd credentials (%s) are among them",
		listedKeys.Len(), kekB, kmsrecovery.UnknownConsentID, etcdClientKey)

	// Refused: a consent naming the KMS's current KEK, and one naming b, which the operator cannot prove.
	node := l.Nodes()[len(l.Nodes())-1]
	fromNode, files, err := recoverFromNode(ctx, l, node, "")
	if err != nil {
		res.problemf("`kmsguard recover` with %s's on-disk etcd credentials failed: %v", node.Name(), err)
		return nil
	}
	consents := sets.New[string]()
	nodeKeys := sets.New[string]()
	for _, o := range fromNode.Findings.Objects() {
		nodeKeys.Insert(o.EtcdKey)
		consents.Insert(o.ConsentID)
	}
	if !nodeKeys.Equal(lost) || consents.Has(kmsrecovery.UnknownConsentID) {
		res.problemf("with %s's on-disk etcd credentials (%s) the scan found %d objects under %v, etcd holds %d under %s",
			node.Name(), files.ClientCert, nodeKeys.Len(), sets.List(consents), lost.Len(), kekB)
		return nil
	}
	for i, consent := range []string{strings.Replace(sets.List(consents)[0], kekB, kekC, 1), sets.List(consents)[0]} {
		if i > 0 {
			// Back to no consent first, so that the next refusal is the refusal of the next consent.
			if err := setConsent(ctx, env, ""); err != nil {
				return err
			}
			if _, _, err := waitCondition(ctx, env, kmsrecovery.ConditionDegraded, func(c operatorv1.OperatorCondition) bool {
				return c.Reason == string(kmsrecovery.ReasonUndecryptableObjects)
			}); err != nil {
				res.problemf("KMSRecoveryDegraded did not return to %s once the consent was removed: %v", kmsrecovery.ReasonUndecryptableObjects, err)
				return nil
			}
		}
		if err := setConsent(ctx, env, consent); err != nil {
			return err
		}
		refused, _, err := waitCondition(ctx, env, kmsrecovery.ConditionDegraded, func(c operatorv1.OperatorCondition) bool {
			return c.Status == operatorv1.ConditionTrue &&
				(c.Reason == string(kmsrecovery.ReasonConsentMismatch) || c.Reason == string(kmsrecovery.ReasonConsentNamesCurrentKey))
		})
		if err != nil {
			res.problemf("the operator did not refuse the consent %s: %v", consent, err)
			return nil
		}
		if left, err := keysUnder(ctx, etcd, kekB, ""); err != nil {
			return err
		} else if !left.Equal(lost) {
			res.problemf("a refused consent deleted %d objects", lost.Len()-left.Len())
			return nil
		}
		res.notef("the operator refused consent %s (%s); nothing deleted", consent, refused.Reason)
	}
	if err := setConsent(ctx, env, ""); err != nil {
		return err
	}

	// The admin's way (runbook UndecryptableObjects): `kmsguard recover` on a control-plane node, with the copy
	// of the credentials the installer put there, one consent per KMS provider. The objects of b, and only
	// those, are deleted; kube-apiserver-operator's resource sync writes the etcd-client copy again from
	// openshift-config, and the operator's etcd access comes back with it.
	consented := time.Now()
	res.notef("with %s's on-disk etcd credentials (%s), `kmsguard recover` finds the same %d objects, under %s",
		node.Name(), strings.TrimPrefix(files.ClientCert, l.Dir()+"/"), nodeKeys.Len(), strings.Join(sets.List(consents), ", "))
	deleted := 0
	for _, consent := range sets.List(consents) {
		run, _, err := recoverFromNode(ctx, l, node, consent)
		if err != nil {
			res.problemf("`kmsguard recover --confirm-data-loss=%s --dry-run=false` on %s failed: %v", consent, node.Name(), err)
			return nil
		}
		if run.Outcome != kmsrecovery.RunClean && run.Outcome != kmsrecovery.RunUndecryptableRemain || run.Deletion == nil {
			res.problemf("`kmsguard recover --confirm-data-loss=%s --dry-run=false` on %s: %s %v (refused: %v)", consent, node.Name(), run.Outcome, run.Err, run.Refusal)
			return nil
		}
		deleted += run.Deletion.Count(kmsrecovery.OutcomeDeleted)
		env.Logf("consent %s from %s: %s", consent, node.Name(), run.Deletion)
	}
	if left, err := keysUnder(ctx, etcd, kekB, ""); err != nil {
		return err
	} else if left.Len() > 0 || deleted != lost.Len() {
		res.problemf("`kmsguard recover` deleted %d objects; %d are still under the destroyed KEK %s: %v", deleted, left.Len(), kekB, firstOf(left))
		return nil
	}
	cond, _, err = waitCondition(ctx, env, kmsrecovery.ConditionDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionFalse
	})
	if err != nil {
		res.problemf("KMSRecoveryDegraded did not clear once the lost objects were deleted and the etcd credentials written again: %v", err)
		return nil
	}
	res.notef("after the deletion from %s: %s", node.Name(), firstLine(cond.Message))
	// The lasting record of the loss is on the KubeAPIServer resource, which no KMS fault reaches.
	operators, err := operatorclient.NewForConfig(l.RESTConfig())
	if err != nil {
		return err
	}
	record, found, err := kmsrecovery.NewRecordStore(operatorstate.KubeAPIServer(operators.OperatorV1().KubeAPIServers())).Load(ctx)
	switch {
	case err != nil || !found:
		res.problemf("no recovery record on the KubeAPIServer resource (%v)", err)
	case record.Undecryptable != 0:
		res.problemf("the recovery record %+v still counts undecryptable objects", record)
	default:
		res.notef("the recovery record on the KubeAPIServer resource: none left")
	}
	for _, n := range l.Nodes() {
		if err := listThrough(ctx, n); err != nil {
			res.problemf("%s still cannot LIST Secrets: %v", n.Name(), err)
		}
	}
	// The migration goes on from where it stood, and the census proves every object under the current KEK.
	if err := inject(ctx, env, lab.Injection{Fault: lab.FaultMigrationRelease}); err != nil {
		return err
	}
	released = true
	if _, err := l.WaitForVerified(ctx, "", kekC); err != nil {
		res.problemf("%v", err)
		return nil
	}
	res.Recovered, res.Recovery = time.Since(destroyed), fmt.Sprintf("operator stopped from the second rotation to %s after the destruction; kmsguard caches under the KEK: %d, cleared without consent %s after it started; its etcd credentials lost too: kmsguard recover from a node with its on-disk copy, consent %s after %s: exactly the lost objects deleted",
		started.Round(time.Second), cachesUnderB.Len(), (cachesCleared-started).Round(100*time.Millisecond), strings.Join(sets.List(consents), " then "), consented.Sub(destroyed).Round(time.Second))
	res.Lost = sets.List(lost)
	env.Writers.Forget(lostTourSecrets(lost))
	return nil
}

// recoverFromNode runs `kmsguard recover` as an admin runs it on node (oc debug node/<node>), through
// kmsrecovery.Run as the command does: the API through the lab's kubeconfig, etcd with the credentials the
// installer copied into the directory of the node's revision, the KMS as the operator's kmsstate sees it. An
// empty consent is a dry run.
func recoverFromNode(ctx context.Context, l *lab.Lab, node *lab.Node, consent string) (*kmsrecovery.RunReport, kmsenv.EtcdTLSFiles, error) {
	files := node.EtcdCredentials(node.Revision())
	etcd, err := etcdclient.Connect(ctx, etcdclient.Config{Endpoints: []string{l.EtcdEndpoint()}, CAFile: files.CA, CertFile: files.ClientCert, KeyFile: files.ClientKey})
	if err != nil {
		return nil, files, err
	}
	defer etcd.Close()
	kube, err := kubernetes.NewForConfig(l.RESTConfig())
	if err != nil {
		return nil, files, err
	}
	dyn, err := dynamic.NewForConfig(l.RESTConfig())
	if err != nil {
		return nil, files, err
	}
	report, err := kmsrecovery.Run(ctx, kmsrecovery.RunOptions{Discovery: kube.Discovery(), Dynamic: dyn, Raw: kmsrecovery.EtcdValues(etcd),
		KMS:       kmsrecovery.KMSStateView(l.PublishedKMSState()),
		Resources: lab.EncryptedResources, Consent: consent, DryRun: consent == ""})
	return report, files, err
}

// etcdClientKey is the etcd key of the operand namespace's etcd-client Secret.
const etcdClientKey = "/registry/secrets/" + lab.TargetNamespace + "/" + etcdclient.DefaultClientSecretName

// touchEtcdClientSecret annotates the operand namespace's etcd-client Secret and waits until etcd holds it under
// kekID.
func touchEtcdClientSecret(ctx context.Context, env *Env, etcd clientv3.KV, kekID string) error {
	kube, err := kubernetesClient(env.Lab)
	if err != nil {
		return err
	}
	patch := fmt.Sprintf(`{"metadata":{"annotations":{"tour.kmsguard.io/touched":%q}}}`, time.Now().UTC().Format(time.RFC3339Nano))
	if _, err := kube.CoreV1().Secrets(lab.TargetNamespace).Patch(ctx, etcdclient.DefaultClientSecretName, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		return fmt.Errorf("annotating %s: %w", etcdClientKey, err)
	}
	v, err := etcdValue(ctx, etcd, etcdClientKey)
	if err != nil {
		return err
	}
	if v.KEKID != kekID {
		return fmt.Errorf("%s was written under KEK %q, not %s", etcdClientKey, v.KEKID, kekID)
	}
	env.Logf("annotated %s: stored under %s", etcdClientKey, kekID)
	return nil
}

// kmsguardCaches are the etcd keys of kmsguard's caches in the lab operator's namespace.
func kmsguardCaches() sets.Set[string] {
	keys := sets.New[string]()
	for _, name := range kmsguard.CacheConfigMapNames {
		keys.Insert(cacheEtcdKey(name))
	}
	return keys
}

// cacheEtcdKey is the etcd key of kmsguard's cache ConfigMap name in the lab operator's namespace.
func cacheEtcdKey(name string) string {
	return "/registry/configmaps/" + lab.OperatorNamespace + "/" + name
}

// windowSecrets is how many Secrets the story writes while the KEK it destroys is the KMS's key.
const windowSecrets = 50

// inject injects a fault and logs what it did.
func inject(ctx context.Context, env *Env, in lab.Injection) error {
	did, err := env.Lab.Inject(ctx, in)
	if err != nil {
		return err
	}
	env.Logf("%s", did)
	return nil
}

// waitEveryAPIServerWritesUnder waits until a Secret written through each node's own kube-apiserver is stored
// under kekID: kube-apiserver asks its plugin's Status once a minute while healthy and takes a new DEK when the
// KEK id changes.
func waitEveryAPIServerWritesUnder(ctx context.Context, env *Env, etcd clientv3.KV, kekID string) error {
	for _, n := range env.Lab.Nodes() {
		name := "kek-probe-" + n.Name()
		kube, err := nodeClient(n)
		if err != nil {
			return err
		}
		client := kube.CoreV1().Secrets(Namespace)
		var last string
		err = poll(ctx, 2*time.Second, storyTimeout, func() bool {
			secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: Namespace}, Data: map[string][]byte{"at": []byte(time.Now().String())}}
			_, err := client.Update(ctx, secret, metav1.UpdateOptions{})
			if apierrors.IsNotFound(err) {
				_, err = client.Create(ctx, secret, metav1.CreateOptions{})
			}
			if err != nil {
				last = err.Error()
				return false
			}
			v, err := etcdValue(ctx, etcd, "/registry/secrets/"+Namespace+"/"+name)
			if err != nil {
				last = err.Error()
				return false
			}
			last = "stored under " + v.KEKID
			return v.KEKID == kekID
		})
		if errors.Is(err, errTimedOut) {
			return fmt.Errorf("%s's kube-apiserver did not write under KEK %s within %s: %s", n.Name(), kekID, storyTimeout, last)
		}
		if err != nil {
			return err
		}
		env.Logf("%s's kube-apiserver writes under KEK %s", n.Name(), kekID)
	}
	return nil
}

func etcdValue(ctx context.Context, etcd clientv3.KV, key string) (etcdvalue.Value, error) {
	resp, err := etcd.Get(ctx, key)
	if err != nil {
		return etcdvalue.Value{}, err
	}
	if len(resp.Kvs) == 0 {
		return etcdvalue.Value{}, fmt.Errorf("etcd has no %s", key)
	}
	return etcdvalue.Parse(resp.Kvs[0].Value)
}

// keysUnder reads every value of the lab's encrypted resources from etcd and returns the keys of those stored
// under the KMS v2 KEK kekID, by the KMS provider provider ("" for any).
func keysUnder(ctx context.Context, etcd clientv3.KV, kekID, provider string) (sets.Set[string], error) {
	keys := sets.New[string]()
	for _, prefix := range []string{"/registry/secrets/", "/registry/configmaps/"} {
		resp, err := etcd.Get(ctx, prefix, clientv3.WithPrefix())
		if err != nil {
			return nil, err
		}
		for _, kv := range resp.Kvs {
			v, err := etcdvalue.Parse(kv.Value)
			if err == nil && v.Kind == etcdvalue.KindKMSv2 && v.KEKID == kekID && (provider == "" || v.Name == provider) {
				keys.Insert(string(kv.Key))
			}
		}
	}
	return keys, nil
}

// listThrough LISTs every one of the tour's Secrets through node n's own kube-apiserver, page by page, as
// kmsrecovery and kubectl do: a paged LIST is served from etcd. An unpaged one is served from the watch cache,
// which cannot fill while an object is undecryptable and answers 429 "storage is (re)initializing" until then,
// which client-go retries until the request's context ends.
func listThrough(ctx context.Context, n *lab.Node) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	kube, err := nodeClient(n)
	if err != nil {
		return err
	}
	opts := metav1.ListOptions{Limit: 500}
	for {
		list, err := kube.CoreV1().Secrets(Namespace).List(ctx, opts)
		if err != nil {
			return err
		}
		if list.Continue == "" {
			return nil
		}
		opts.Continue = list.Continue
	}
}

// nodeClient is a client of node n's own kube-apiserver without a client-side rate limit: the node's shared
// client is the node agent's, whose default limit (5 requests/s) its own traffic uses up, so a story's request
// would wait for the limiter rather than for the apiserver.
func nodeClient(n *lab.Node) (kubernetes.Interface, error) {
	cfg := n.APIServer().RESTConfig()
	cfg.RateLimiter, cfg.QPS = nil, -1
	return kubernetes.NewForConfig(cfg)
}

// listedUndecryptable reads the objects kmsrecovery lists in its ConfigMap.
func listedUndecryptable(ctx context.Context, env *Env) ([]kmsrecovery.Object, error) {
	kube, err := kubernetesClient(env.Lab)
	if err != nil {
		return nil, err
	}
	cm, err := kube.CoreV1().ConfigMaps(lab.OperatorNamespace).Get(ctx, kmsrecovery.ConfigMapName, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	var objects []kmsrecovery.Object
	if err := json.Unmarshal([]byte(cm.Data[kmsrecovery.ConfigMapKeyObjects]), &objects); err != nil {
		return nil, fmt.Errorf("%s: %w", kmsrecovery.ConfigMapName, err)
	}
	return objects, nil
}

// setConsent sets spec.unsupportedConfigOverrides.kmsguard.confirmDataLoss, or removes the overrides when
// consent is empty, as the admin does with oc edit.
func setConsent(ctx context.Context, env *Env, consent string) error {
	return setOverrides(ctx, env, overrides.KMSGuard{ConfirmDataLoss: consent})
}

// setOverrides sets spec.unsupportedConfigOverrides.kmsguard to k, or removes the overrides when k is zero, and
// waits until the API serves it.
func setOverrides(ctx context.Context, env *Env, k overrides.KMSGuard) error {
	var raw []byte
	if k != (overrides.KMSGuard{}) {
		var err error
		if raw, err = json.Marshal(map[string]overrides.KMSGuard{overrides.Group: k}); err != nil {
			return err
		}
	}
	operators, err := operatorclient.NewForConfig(env.Lab.RESTConfig())
	if err != nil {
		return err
	}
	kubeAPIServers := operators.OperatorV1().KubeAPIServers()
	err = poll(ctx, 200*time.Millisecond, time.Minute, func() bool {
		kas, err := kubeAPIServers.Get(ctx, "cluster", metav1.GetOptions{})
		if err != nil {
			return false
		}
		if got, err := overrides.FromSpec(&kas.Spec.OperatorSpec); err == nil && got == k {
			return true
		}
		kas.Spec.UnsupportedConfigOverrides = runtime.RawExtension{Raw: raw}
		_, _ = kubeAPIServers.Update(ctx, kas, metav1.UpdateOptions{})
		return false
	})
	if err != nil {
		return fmt.Errorf("setting spec.unsupportedConfigOverrides.%s to %+v: %w", overrides.Group, k, err)
	}
	env.Logf("spec.unsupportedConfigOverrides.%s: %s", overrides.Group, raw)
	return nil
}

// lostTourSecrets are the names of the tour's Secrets among the etcd keys.
func lostTourSecrets(keys sets.Set[string]) []string {
	var names []string
	for key := range keys {
		if name, ok := strings.CutPrefix(key, "/registry/secrets/"+Namespace+"/"); ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// firstOf is up to 5 of keys, for a message.
func firstOf(keys sets.Set[string]) []string {
	list := sets.List(keys)
	if len(list) > 5 {
		list = append(list[:5], fmt.Sprintf("and %d more", len(list)-5))
	}
	return list
}
