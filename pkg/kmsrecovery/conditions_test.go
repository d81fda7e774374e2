package kmsrecovery_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	operatorv1 "github.com/openshift/api/operator/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/kmsguard/kmsguard/internal/conventionstest"
	"github.com/kmsguard/kmsguard/internal/recoverytest"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
)

// TestConditionRendering is the wording of KMSRecoveryDegraded: each row renders a verdict, the typed data the
// controller decided, into the whole condition an admin reads. The controller tests assert the verdicts.
func TestConditionRendering(t *testing.T) {
	secrets, configMaps := recoverytest.Secrets.GroupResource(), recoverytest.ConfigMaps.GroupResource()
	object := func(gr schema.GroupResource, namespace, name, consentID string, operatorManaged bool) kmsrecovery.Object {
		return kmsrecovery.Object{ObjectRef: kmsrecovery.ObjectRef{Resource: gr, Namespace: namespace, Name: name}, ConsentID: consentID, OperatorManaged: operatorManaged}
	}
	lostSecret := func(name string) kmsrecovery.Object { return object(secrets, "app", name, "kms:"+lostKey, false) }
	none := &kmsrecovery.Findings{Resources: []kmsrecovery.ResourceFindings{{Resource: secrets, Readable: 3}, {Resource: configMaps, Readable: 1}}}
	found := &kmsrecovery.Findings{Resources: []kmsrecovery.ResourceFindings{
		{Resource: secrets, Readable: 3, Unreadable: []kmsrecovery.Object{lostSecret("a"), lostSecret("b")}},
		{Resource: configMaps, Unreadable: []kmsrecovery.Object{object(configMaps, "app", "c", kmsrecovery.UnknownConsentID, false)}},
	}}
	refusal := func(why kmsrecovery.Reason, consent, detail string) error {
		return &kmsrecovery.ConsentError{Why: why, Consent: consent, Found: found.ConsentIDs(), Count: found.Count(), Detail: detail}
	}
	deletion := func(results ...kmsrecovery.Result) *kmsrecovery.DeletionReport {
		return &kmsrecovery.DeletionReport{ConsentID: "kms:" + lostKey, Time: t0, Results: results}
	}
	result := func(o kmsrecovery.Object, outcome kmsrecovery.Outcome, err string) kmsrecovery.Result {
		return kmsrecovery.Result{Object: o, Outcome: outcome, Error: err}
	}
	var forbidden []kmsrecovery.Result
	var forbiddenListed []string
	for i := range 22 {
		forbidden = append(forbidden, result(lostSecret(fmt.Sprintf("s%02d", i)), kmsrecovery.OutcomeFailed, "forbidden"))
		if i < 20 {
			forbiddenListed = append(forbiddenListed, fmt.Sprintf("secrets app/s%02d: forbidden", i))
		}
	}
	etcdClient := object(secrets, "openshift-etcd", "etcd-client", "kms:"+lostKey, true)
	recreation := deletion(result(etcdClient, kmsrecovery.OutcomeDeleted, ""),
		result(object(secrets, "openshift-ingress", "router-certs", "kms:"+lostKey, true), kmsrecovery.OutcomeDeleted, ""),
		result(object(secrets, "team-a", "db-password", "kms:"+lostKey, false), kmsrecovery.OutcomeDeleted, ""))

	const (
		cannot     = "3 objects cannot be decrypted: secrets: 2 of 5 (key kms:key-lost: 2); configmaps: 1 of 1 (key unknown: 1); "
		listed     = "the full list is in configmap openshift-kube-apiserver-operator/kmsguard-undecryptable-objects. Their data is lost unless the key is restored in the KMS; "
		howTo      = "; to delete the objects of a lost key (KEP-3926 unsafe delete; operators recreate what they own), set spec.unsupportedConfigOverrides.kmsguard.confirmDataLoss to its key, one of kms:key-lost"
		unprovable = "; objects under unknown or identity cannot be deleted by a consent: etcd does not show a lost key behind them"
	)
	scenarios := []struct {
		name string
		v    kmsrecovery.Verdict
		want operatorv1.OperatorCondition
	}{
		{name: "nothing undecryptable", v: kmsrecovery.Verdict{Findings: none},
			want: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(kmsrecovery.ReasonAsExpected),
				Message: "no undecryptable objects in secrets, configmaps"}},
		{name: "no consent: the keys a consent may name", v: kmsrecovery.Verdict{Findings: found, ConsentErr: refusal(kmsrecovery.ReasonUndecryptableObjects, "", "")},
			want: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(kmsrecovery.ReasonUndecryptableObjects),
				Message: cannot + strings.TrimSuffix(listed, "; ") + howTo + unprovable}},
		{name: "a consent that names no object's key", v: kmsrecovery.Verdict{Findings: found, Consent: "key-typo", ConsentErr: refusal(kmsrecovery.ReasonConsentMismatch, "key-typo", "")},
			want: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(kmsrecovery.ReasonConsentMismatch),
				Message: cannot + listed + `spec.unsupportedConfigOverrides.kmsguard.confirmDataLoss names key "key-typo", which no undecryptable object is stored under` + howTo + unprovable}},
		{name: "a consent refused: the refusal says why",
			v: kmsrecovery.Verdict{Findings: found, Consent: lostKey, ConsentErr: refusal(kmsrecovery.ReasonConsentNamesCurrentKey, lostKey, "node master-0 key 1")},
			want: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(kmsrecovery.ReasonConsentNamesCurrentKey),
				Message: cannot + listed + `spec.unsupportedConfigOverrides.kmsguard.confirmDataLoss: the consent names "key-lost", a KEK id that is in use (node master-0 key 1): ` +
					"objects under it are not lost, something else keeps them from being read; nothing is deleted" + howTo + unprovable}},
		{name: "not Managed", v: kmsrecovery.Verdict{Findings: found, Consent: lostKey, ConsentErr: refusal(kmsrecovery.ReasonNotManaged, lostKey, "spec.managementState is Unmanaged")},
			want: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(kmsrecovery.ReasonNotManaged),
				Message: cannot + listed + `spec.unsupportedConfigOverrides.kmsguard.confirmDataLoss: the consent names "key-lost", the key of 3 undecryptable objects, ` +
					"but spec.managementState is Unmanaged: nothing is deleted unless it is Managed" + howTo + unprovable}},
		{name: "the list could not be written: says where it is instead",
			v: kmsrecovery.Verdict{Findings: found, ConsentErr: refusal(kmsrecovery.ReasonUndecryptableObjects, "", ""), RecordErr: errors.New("failed to decrypt data")},
			want: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(kmsrecovery.ReasonUndecryptableObjects),
				Message: cannot + "the full list could not be written to configmap openshift-kube-apiserver-operator/kmsguard-undecryptable-objects (failed to decrypt data); " +
					"`kmsguard recover` lists them. Their data is lost unless the key is restored in the KMS" + howTo + unprovable}},
		{name: "the etcd client's credentials unreadable: says so, and where the way out is",
			v: kmsrecovery.Verdict{Findings: withEtcdUnreadable(found, "the etcd client credentials cannot be read from openshift-kube-apiserver/etcd-client: failed to decrypt"),
				ConsentErr: refusal(kmsrecovery.ReasonUndecryptableObjects, "", "")},
			want: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(kmsrecovery.ReasonUndecryptableObjects),
				Message: cannot + strings.TrimSuffix(listed, "; ") + howTo + unprovable +
					"; no stored value could be read (the etcd client credentials cannot be read from openshift-kube-apiserver/etcd-client: failed to decrypt): " +
					"run `kmsguard recover` on a control-plane node with its copy of the etcd client credentials (runbook UndecryptableObjects); " +
					"this controller scans again as soon as it can read etcd"}},
		{name: "deletes failed in this sync: the first 20 named",
			v: kmsrecovery.Verdict{Findings: found, Consent: lostKey, Deletion: deletion(forbidden...), DeletedNow: true, Recreated: sets.New[kmsrecovery.ObjectRef]()},
			want: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(kmsrecovery.ReasonDeletionFailed),
				Message: "3 undecryptable objects remain (secrets: 2 of 5 (key kms:key-lost: 2); configmaps: 1 of 1 (key unknown: 1)); 22 deletes failed: " +
					strings.Join(forbiddenListed, ", ") + " and 2 more; the full list is in configmap openshift-kube-apiserver-operator/kmsguard-undecryptable-objects; " +
					"at 2026-12-02T12:00:00Z deleted 0 undecryptable objects stored under key kms:key-lost (skipped: 0 readable again, 0 gone, 0 under another key; failed: 22)"}},
		{name: "deleted: which objects came back, which their operators should recreate, which nobody will",
			v: kmsrecovery.Verdict{Findings: none, Consent: lostKey, Deletion: recreation, Recreated: sets.New(etcdClient.ObjectRef)},
			want: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(kmsrecovery.ReasonAsExpected),
				Message: "no undecryptable objects in secrets, configmaps; at 2026-12-02T12:00:00Z deleted 3 undecryptable objects stored under key kms:key-lost " +
					"(skipped: 0 readable again, 0 gone, 0 under another key; failed: 0); 1 of 3 deleted objects have been recreated; " +
					"not yet recreated by their operators: secrets openshift-ingress/router-certs; " +
					"not recreated, and no operator is expected to (restore them from a backup or recreate them): secrets team-a/db-password"}},
	}
	env := newControllerEnv(t, recoverytest.NewCluster(), "")
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			s.want.Type = kmsrecovery.ConditionDegraded
			got := env.ctrl.Condition(s.v)
			if diff := cmp.Diff(s.want, got); diff != "" {
				t.Errorf("condition (-want +got):\n%s", diff)
			}
			conventionstest.ExpectRegisteredReasons(t, kmsrecovery.ConditionReasons(), got)
		})
	}
}

// withEtcdUnreadable is findings with EtcdUnreadable set to why.
func withEtcdUnreadable(findings *kmsrecovery.Findings, why string) *kmsrecovery.Findings {
	f := *findings
	f.EtcdUnreadable = why
	return &f
}
