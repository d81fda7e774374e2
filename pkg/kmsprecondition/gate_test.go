package kmsprecondition

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/client-go/kubernetes/fake"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/conventionstest"
	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

func TestPrecondition(t *testing.T) {
	deployedKMS1 := ectest.Secrets(ectest.KMS("1"), ectest.Identity())
	scenarios := []struct {
		name string
		// deployed and candidate configs; nil means no such secret. rawCandidate overrides candidate.
		deployed, candidate *apiserverv1.EncryptionConfiguration
		rawCandidate        string
		health              kmsVerdict
		conditions          []operatorv1.OperatorCondition
		preflight           operatorv1.KMSPreflightCheck
		keySecrets          []*corev1.Secret
		// force is put in unsupportedConfigOverrides.kmsguard.forceRevision; "candidate" means the candidate's hash.
		force string
		// noPreflight leaves Options.Preflight nil: the gate does not read library-go's preflight.
		noPreflight bool
		// policy is Options.UnverifiedReadKeys.
		policy UnverifiedReadKeyPolicy
		// revertOf, when set, is the Reverts answer: "candidate" means the candidate's hash is a revert.
		revertOf string
		// census, when set, is Options.Census: raw etcd evidence. Without it the annotations of keySecrets are
		// the fallback, as where no etcd access is configured.
		census *fakeCensus

		wantAllowed     bool
		wantProgressing operatorv1.ConditionStatus
		wantReason      Reason
		wantDegraded    operatorv1.ConditionStatus
		// wantDecision is the verdict the conditions are rendered from (TestGateConditions); its Hash is the
		// candidate's.
		wantDecision decision
		wantEvents   []string
	}{
		{
			name:            "no encryption",
			health:          health(nil),
			wantAllowed:     true,
			wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantDecision: decision{},
		},
		{
			name:        "non-KMS change rolls out while KMS is down",
			deployed:    ectest.WithConfigMaps(ectest.Secrets(ectest.KMS("1"), ectest.Identity()), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()),
			candidate:   ectest.WithConfigMaps(ectest.Secrets(ectest.KMS("1"), ectest.Identity()), ectest.AESCBC("2", ectest.AESKeyB), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()),
			health:      health([]string{"1"}), // no report at all
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantDecision: decision{},
		},
		{
			name:        "aescbc encryption added is not the gate's business",
			candidate:   ectest.Secrets(ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()),
			health:      health(nil),
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantDecision: decision{},
		},
		// New read keys: no plugin of theirs runs before their revision, so the evidence is a preflight bound to
		// their configuration or reports of a plugin that runs ahead; without either, the policy decides.
		{
			name:        "a new read key with a successful preflight of its configuration",
			candidate:   ectest.Secrets(ectest.Identity(), ectest.KMS("1")),
			health:      health([]string{"1"}), // no node runs it yet
			preflight:   preflightOf("1", operatorv1.KMSPreflightResultSucceeded, "kek-a"),
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantDecision: decision{KMSChanged: true, Admitted: []string{"1 by preflight"}},
		},
		{
			name:        "a new read key with the always-succeed stub's result is admitted unverified by default",
			candidate:   ectest.Secrets(ectest.Identity(), ectest.KMS("1")),
			health:      health([]string{"1"}),
			preflight:   preflightOf("1", operatorv1.KMSPreflightResultSucceeded, AlwaysSucceedRemoteKeyID),
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventReadKeyAdmittedUnverified},
			wantDecision: decision{KMSChanged: true, Admitted: []string{"1 by policy"}},
		},
		{
			name:            "a new read key with the stub's result, policy Block",
			candidate:       ectest.Secrets(ectest.Identity(), ectest.KMS("1")),
			health:          health([]string{"1"}),
			preflight:       preflightOf("1", operatorv1.KMSPreflightResultSucceeded, AlwaysSucceedRemoteKeyID),
			policy:          BlockUnverifiedReadKeys,
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonPreflightNotPassed, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonPreflightNotPassed}},
		},
		{
			name:      "a new read key with a preflight result for another configuration (stale hash) is unverified",
			candidate: ectest.Secrets(ectest.Identity(), ectest.KMS("2")),
			health:    health([]string{"2"}),
			// The last preflight was key 1's; the result is operator-wide.
			preflight:   preflightOf("1", operatorv1.KMSPreflightResultSucceeded, "kek-a"),
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventReadKeyAdmittedUnverified},
			wantDecision: decision{KMSChanged: true, Admitted: []string{"2 by policy"}},
		},
		{
			name:            "a new read key with a stale hash, policy Block",
			candidate:       ectest.Secrets(ectest.Identity(), ectest.KMS("2")),
			health:          health([]string{"2"}),
			preflight:       preflightOf("1", operatorv1.KMSPreflightResultSucceeded, "kek-a"),
			policy:          BlockUnverifiedReadKeys,
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonPreflightNotPassed, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonPreflightNotPassed}},
		},
		{
			name:        "a new read key with no preflight result, policy Admit",
			candidate:   ectest.Secrets(ectest.Identity(), ectest.KMS("1")),
			health:      health([]string{"1"}),
			policy:      AdmitUnverifiedReadKeys,
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventReadKeyAdmittedUnverified},
			wantDecision: decision{KMSChanged: true, Admitted: []string{"1 by policy"}},
		},
		{
			name:            "a new read key with no preflight result, policy Block",
			candidate:       ectest.Secrets(ectest.Identity(), ectest.KMS("1")),
			health:          health([]string{"1"}),
			policy:          BlockUnverifiedReadKeys,
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonPreflightNotPassed, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonPreflightNotPassed}},
		},
		{
			name:        "a new read key without a preflight reader is unverified",
			candidate:   ectest.Secrets(ectest.Identity(), ectest.KMS("1")),
			health:      health([]string{"1"}),
			noPreflight: true,
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventReadKeyAdmittedUnverified},
			wantDecision: decision{KMSChanged: true, Admitted: []string{"1 by policy"}},
		},
		{
			name:            "a new read key kmsstate has not evaluated yet waits for it, whatever the policy",
			candidate:       ectest.Secrets(ectest.Identity(), ectest.KMS("1")),
			health:          health(nil),
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonKMSPluginsNotHealthy, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonKMSPluginsNotHealthy}, NotEvaluated: []string{"1"}},
		},
		{
			name:            "a new read key whose preflight failed degrades at once",
			candidate:       ectest.Secrets(ectest.Identity(), ectest.KMS("1")),
			health:          allHealthy("1"),
			preflight:       preflightOf("1", operatorv1.KMSPreflightResultFailed, ""),
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonPreflightFailed, wantDegraded: operatorv1.ConditionTrue,
			wantEvents:   []string{EventBlocked, EventDegraded},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonPreflightFailed}},
		},
		{
			name:        "a new read key whose plugin runs ahead of its revision, healthy on every node",
			candidate:   ectest.Secrets(ectest.Identity(), ectest.KMS("1")),
			health:      allHealthy("1"),
			noPreflight: true,
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantDecision: decision{KMSChanged: true, Admitted: []string{"1 by health on [master-0 master-1]"}},
		},
		{
			name:      "a new read key whose plugin a node reports failing is held, whatever the preflight said",
			candidate: ectest.Secrets(ectest.Identity(), ectest.KMS("1")),
			health: health([]string{"1"}, healthyReport("master-0", "1"), operatorv1.KMSPluginHealthReport{
				NodeName: "master-1", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusError, Detail: "connection refused", LastCheckedTime: metav1.NewTime(t0.Add(-5 * time.Second))}),
			preflight:       preflightOf("1", operatorv1.KMSPreflightResultSucceeded, "kek-a"),
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonKMSPluginsNotHealthy, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonKMSPluginsNotHealthy}, Faults: []kmsstate.Failure{{Reason: kmsstate.ReasonPluginUnreachable, Node: "master-1", KeyID: "1"}}},
		},
		{
			name:            "a new key as write key is refused at once, whatever the evidence",
			candidate:       ectest.Secrets(ectest.KMS("1"), ectest.Identity()),
			health:          allHealthy("1"),
			preflight:       preflightOf("1", operatorv1.KMSPreflightResultSucceeded, "kek-a"),
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonNewKMSKeyWrites, wantDegraded: operatorv1.ConditionTrue,
			wantEvents:   []string{EventBlocked, EventDegraded},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonNewKMSKeyWrites}, NewWrite: []string{"1"}},
		},
		// Keys the deployed config has: their plugins run on every node, and are judged there.
		{
			name:      "promotion with one node unhealthy",
			deployed:  ectest.Secrets(ectest.Identity(), ectest.KMS("1")),
			candidate: ectest.Secrets(ectest.KMS("1"), ectest.Identity()),
			health: health([]string{"1"}, healthyReport("master-0", "1"), operatorv1.KMSPluginHealthReport{
				NodeName: "master-1", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusUnhealthy, Detail: "key disabled", LastCheckedTime: metav1.NewTime(t0.Add(-5 * time.Second))}),
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonKMSPluginsNotHealthy, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonKMSPluginsNotHealthy, ReasonKMSPluginsNotHealthy}, Faults: []kmsstate.Failure{{Reason: kmsstate.ReasonPluginUnhealthy, Node: "master-1", KeyID: "1"}}, Unsettled: []string{"1"}},
		},
		{
			name:        "promotion with every node healthy on one KEK id",
			deployed:    ectest.Secrets(ectest.Identity(), ectest.KMS("1")),
			candidate:   ectest.Secrets(ectest.KMS("1"), ectest.Identity()),
			health:      allHealthy("1"),
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantDecision: decision{KMSChanged: true, Healthy: []string{"1"}, Promoted: []string{"1"}},
		},
		{
			name:      "promotion while the nodes report different KEK ids",
			deployed:  ectest.Secrets(ectest.Identity(), ectest.KMS("1")),
			candidate: ectest.Secrets(ectest.KMS("1"), ectest.Identity()),
			health: health([]string{"1"}, healthyReport("master-0", "1"), operatorv1.KMSPluginHealthReport{
				NodeName: "master-1", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "kek-b", LastCheckedTime: metav1.NewTime(t0.Add(-5 * time.Second))}),
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonKMSPluginsNotHealthy, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonKMSPluginsNotHealthy}, Unsettled: []string{"1"}},
		},
		{
			name:        "promoting a running read key over another needs no preflight",
			deployed:    ectest.Secrets(ectest.KMS("1"), ectest.KMS("2"), ectest.Identity()),
			candidate:   ectest.Secrets(ectest.KMS("2"), ectest.KMS("1"), ectest.Identity()),
			health:      allHealthy("1", "2"),
			noPreflight: true,
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantDecision: decision{KMSChanged: true, Healthy: []string{"1", "2"}, Promoted: []string{"2"}},
		},
		{
			name:      "a new read key while a deployed key has a stale report",
			deployed:  deployedKMS1,
			candidate: ectest.Secrets(ectest.KMS("1"), ectest.KMS("2"), ectest.Identity()),
			health: health([]string{"1", "2"}, healthyReport("master-0", "1"), operatorv1.KMSPluginHealthReport{
				NodeName: "master-1", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "kek-a", LastCheckedTime: metav1.NewTime(t0.Add(-10 * time.Minute))}),
			preflight:       preflightOf("2", operatorv1.KMSPreflightResultSucceeded, "kek-b"),
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonKMSPluginsNotHealthy, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonKMSPluginsNotHealthy}, Faults: []kmsstate.Failure{{Reason: kmsstate.ReasonHealthReportStale, Node: "master-1", KeyID: "1"}}, Admitted: []string{"2 by preflight"}},
		},
		{
			name:            "a new read key while a deployed key has no report for a node",
			deployed:        deployedKMS1,
			candidate:       ectest.Secrets(ectest.KMS("1"), ectest.KMS("2"), ectest.Identity()),
			health:          health([]string{"1", "2"}, healthyReport("master-0", "1")),
			preflight:       preflightOf("2", operatorv1.KMSPreflightResultSucceeded, "kek-b"),
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonKMSPluginsNotHealthy, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonKMSPluginsNotHealthy}, Faults: []kmsstate.Failure{{Reason: kmsstate.ReasonHealthReportMissing, Node: "master-1", KeyID: "1"}}, Admitted: []string{"2 by preflight"}},
		},
		{
			name:            "kmsstate has no fresh verdict: a deployed key cannot be judged",
			deployed:        deployedKMS1,
			candidate:       ectest.Secrets(ectest.KMS("1"), ectest.KMS("2"), ectest.Identity()),
			health:          kmsVerdict{err: &kmsstate.UnhealthyError{Failures: []kmsstate.Failure{{Reason: kmsstate.ReasonStateStale, Detail: "syncs stopped"}}}},
			preflight:       preflightOf("2", operatorv1.KMSPreflightResultSucceeded, "kek-b"),
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonKMSPluginsNotHealthy, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonKMSPluginsNotHealthy}, Faults: []kmsstate.Failure{{Reason: kmsstate.ReasonStateStale}}, Admitted: []string{"2 by preflight"}},
		},
		{
			name:            "kmsstate has no fresh verdict: a new read key waits, whatever the policy",
			candidate:       ectest.Secrets(ectest.Identity(), ectest.KMS("1")),
			health:          kmsVerdict{err: &kmsstate.UnhealthyError{Failures: []kmsstate.Failure{{Reason: kmsstate.ReasonStateStale, Detail: "syncs stopped"}}}},
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonKMSPluginsNotHealthy, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonKMSPluginsNotHealthy}, Faults: []kmsstate.Failure{{Reason: kmsstate.ReasonStateStale}}},
		},
		{
			name:        "kmsstate has no fresh verdict: a new read key with a bound preflight comes in",
			candidate:   ectest.Secrets(ectest.Identity(), ectest.KMS("1")),
			health:      kmsVerdict{err: &kmsstate.UnhealthyError{Failures: []kmsstate.Failure{{Reason: kmsstate.ReasonStateStale, Detail: "syncs stopped"}}}},
			preflight:   preflightOf("1", operatorv1.KMSPreflightResultSucceeded, "kek-a"),
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantDecision: decision{KMSChanged: true, Admitted: []string{"1 by preflight"}},
		},
		{
			name:            "a failed preflight and an unhealthy deployed key: the reason is the preflight, the message lists both",
			deployed:        deployedKMS1,
			candidate:       ectest.Secrets(ectest.KMS("1"), ectest.KMS("2"), ectest.Identity()),
			health:          health([]string{"1", "2"}, healthyReport("master-0", "1")),
			preflight:       preflightOf("2", operatorv1.KMSPreflightResultFailed, ""),
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonPreflightFailed, wantDegraded: operatorv1.ConditionTrue,
			wantEvents:   []string{EventBlocked, EventDegraded},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonPreflightFailed, ReasonKMSPluginsNotHealthy}, Faults: []kmsstate.Failure{{Reason: kmsstate.ReasonHealthReportMissing, Node: "master-1", KeyID: "1"}}},
		},
		{
			name:            "a write key change is a KMS change",
			deployed:        ectest.Secrets(ectest.Identity(), ectest.KMS("1")),
			candidate:       ectest.Secrets(ectest.KMS("1"), ectest.Identity()),
			health:          health([]string{"1"}, healthyReport("master-0", "1")),
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonKMSPluginsNotHealthy, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonKMSPluginsNotHealthy, ReasonKMSPluginsNotHealthy}, Faults: []kmsstate.Failure{{Reason: kmsstate.ReasonHealthReportMissing, Node: "master-1", KeyID: "1"}}, Unsettled: []string{"1"}},
		},
		{
			name:            "read key dropped too early",
			deployed:        ectest.Secrets(ectest.KMS("2"), ectest.KMS("1"), ectest.Identity()),
			candidate:       ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			health:          allHealthy("2"),
			keySecrets:      []*corev1.Secret{keySecret("1", "secrets"), keySecret("2")},
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonReadKeyStillInUse, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonReadKeyStillInUse}, Dropped: []string{"secrets kms-v2:1_secrets AnnotationsNotRewritten"}},
		},
		{
			name:       "a read key waiting for its migration for long is never Degraded",
			deployed:   ectest.Secrets(ectest.KMS("2"), ectest.KMS("1"), ectest.Identity()),
			candidate:  ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			health:     allHealthy("2"),
			keySecrets: []*corev1.Secret{keySecret("1", "secrets"), keySecret("2")},
			conditions: []operatorv1.OperatorCondition{{Type: ConditionProgressing, Status: operatorv1.ConditionTrue, Reason: string(ReasonReadKeyStillInUse),
				LastTransitionTime: metav1.NewTime(t0.Add(-48 * time.Hour))}},
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonReadKeyStillInUse, wantDegraded: operatorv1.ConditionFalse,
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonReadKeyStillInUse}, Dropped: []string{"secrets kms-v2:1_secrets AnnotationsNotRewritten"}},
		},
		{
			name:        "a revert drops the failed revision's new read key without migration evidence",
			deployed:    ectest.Secrets(ectest.KMS("1"), ectest.KMS("2"), ectest.Identity()),
			candidate:   ectest.Secrets(ectest.KMS("1"), ectest.Identity()),
			health:      allHealthy("1"),
			keySecrets:  []*corev1.Secret{keySecret("1", "secrets"), keySecret("2")},
			revertOf:    "candidate",
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantDecision: decision{KMSChanged: true, Healthy: []string{"1"}, Dropped: []string{"secrets kms-v2:2_secrets"}, Revert: true},
		},
		{
			// The 3-node lab with library-go's reporter, kube-apiserver-operator's timings: the failed revision's
			// pod on master-1 publishes no report while its new key's plugin fails, so its reports of key 1 are
			// stale by the time kmsrollback reverts (5 minutes not ready).
			name:      "a revert is not held for the kept keys' reports, which the failed node cannot publish",
			deployed:  ectest.Secrets(ectest.KMS("1"), ectest.KMS("2"), ectest.Identity()),
			candidate: ectest.Secrets(ectest.KMS("1"), ectest.Identity()),
			health: health([]string{"1", "2"}, healthyReport("master-0", "1"), operatorv1.KMSPluginHealthReport{
				NodeName: "master-1", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "kek-a", LastCheckedTime: metav1.NewTime(t0.Add(-5 * time.Minute))}),
			keySecrets:  []*corev1.Secret{keySecret("1", "secrets"), keySecret("2")},
			revertOf:    "candidate",
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantDecision: decision{KMSChanged: true, Dropped: []string{"secrets kms-v2:2_secrets"}, Revert: true},
		},
		{
			name:      "the same stale report holds a candidate that is not a revert",
			deployed:  ectest.Secrets(ectest.KMS("1"), ectest.KMS("2"), ectest.Identity()),
			candidate: ectest.Secrets(ectest.KMS("1"), ectest.Identity()),
			health: health([]string{"1", "2"}, healthyReport("master-0", "1"), operatorv1.KMSPluginHealthReport{
				NodeName: "master-1", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "kek-a", LastCheckedTime: metav1.NewTime(t0.Add(-5 * time.Minute))}),
			keySecrets:      []*corev1.Secret{keySecret("1", "secrets"), keySecret("2")},
			revertOf:        "sha256:another-config",
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonReadKeyStillInUse, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonReadKeyStillInUse, ReasonKMSPluginsNotHealthy}, Faults: []kmsstate.Failure{{Reason: kmsstate.ReasonHealthReportStale, Node: "master-1", KeyID: "1"}}, Dropped: []string{"secrets kms-v2:2_secrets AnnotationsNotRewritten"}},
		},
		{
			// A revert of a failed promotion drops no read key: it is still a revert.
			name:      "a revert that only demotes the failed revision's write key",
			deployed:  ectest.Secrets(ectest.KMS("2"), ectest.KMS("1"), ectest.Identity()),
			candidate: ectest.Secrets(ectest.KMS("1"), ectest.KMS("2"), ectest.Identity()),
			health: health([]string{"1", "2"}, healthyReport("master-0", "1"), healthyReport("master-0", "2"), operatorv1.KMSPluginHealthReport{
				NodeName: "master-1", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "kek-a", LastCheckedTime: metav1.NewTime(t0.Add(-5 * time.Minute))}),
			keySecrets:  []*corev1.Secret{keySecret("1", "secrets"), keySecret("2")},
			revertOf:    "candidate",
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantDecision: decision{KMSChanged: true, Revert: true},
		},
		{
			name:            "the same drop is blocked when it is not the revert",
			deployed:        ectest.Secrets(ectest.KMS("1"), ectest.KMS("2"), ectest.Identity()),
			candidate:       ectest.Secrets(ectest.KMS("1"), ectest.Identity()),
			health:          allHealthy("1"),
			keySecrets:      []*corev1.Secret{keySecret("1", "secrets"), keySecret("2")},
			revertOf:        "sha256:another-config",
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonReadKeyStillInUse, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonReadKeyStillInUse}, Dropped: []string{"secrets kms-v2:2_secrets AnnotationsNotRewritten"}},
		},
		{
			name:        "no etcd access: read key dropped after migration and the window, by the annotations",
			deployed:    ectest.Secrets(ectest.KMS("2"), ectest.KMS("1"), ectest.Identity()),
			candidate:   ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			health:      allHealthy("2"),
			keySecrets:  []*corev1.Secret{keySecretAt("1", t0.Add(-72*time.Hour), "secrets"), keySecretAt("2", t0.Add(-25*time.Hour), "secrets")},
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantDecision: decision{KMSChanged: true, Healthy: []string{"2"}, Dropped: []string{"secrets kms-v2:1_secrets AnnotationsPassed"}},
		},
		{
			name:            "no etcd access: migrated inside the window",
			deployed:        ectest.Secrets(ectest.KMS("2"), ectest.KMS("1"), ectest.Identity()),
			candidate:       ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			health:          allHealthy("2"),
			keySecrets:      []*corev1.Secret{keySecret("1", "secrets"), keySecretAt("2", t0.Add(-time.Hour), "secrets")},
			wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonRollbackWindowNotPassed, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventWaiting},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonRollbackWindowNotPassed}, Dropped: []string{"secrets kms-v2:1_secrets AnnotationsRollbackWindow"}, WindowUntil: time.Date(2026, 12, 3, 11, 0, 0, 0, time.UTC)},
		},
		{
			name:            "no etcd access: a migration recorded without a timestamp cannot open the window",
			deployed:        ectest.Secrets(ectest.KMS("2"), ectest.KMS("1"), ectest.Identity()),
			candidate:       ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			health:          allHealthy("2"),
			keySecrets:      []*corev1.Secret{keySecret("1", "secrets"), keySecret("2", "secrets")},
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonReadKeyStillInUse, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonReadKeyStillInUse}, Dropped: []string{"secrets kms-v2:1_secrets AnnotationsNoTimestamp"}},
		},
		{
			name:            "no etcd access: an aescbc read key of a non-KMS change, not migrated",
			deployed:        ectest.Secrets(ectest.AESCBC("2", ectest.AESKeyB), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()),
			candidate:       ectest.Secrets(ectest.AESCBC("2", ectest.AESKeyB), ectest.Identity()),
			health:          health(nil),
			keySecrets:      []*corev1.Secret{keySecret("1", "secrets"), keySecret("2")},
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonReadKeyStillInUse, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{Blocking: []Reason{ReasonReadKeyStillInUse}, Dropped: []string{"secrets aescbc:1 AnnotationsNotRewritten"}},
		},
		{
			name:            "etcd census: aescbc read key dropped while values are still under it",
			deployed:        ectest.Secrets(ectest.KMS("2"), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()),
			candidate:       ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			health:          health(nil), // not a KMS change: plugin health is not asked
			census:          &fakeCensus{reports: map[string]*evidence.Report{"secrets": census("secrets", t0.Add(-time.Hour), map[evidence.Key]int64{{Kind: etcdvalue.KindAESCBC, Name: "1"}: 3})}, finished: t0.Add(-48 * time.Hour)},
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonReadKeyStillInUse, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{Blocking: []Reason{ReasonReadKeyStillInUse}, Dropped: []string{"secrets aescbc:1 ObjectsUnderKey (3 objects)"}},
		},
		{
			name:      "etcd census: no value found where the API's count says the scan did not look",
			deployed:  ectest.Secrets(ectest.KMS("2"), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()),
			candidate: ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			health:    health(nil),
			census: &fakeCensus{reports: map[string]*evidence.Report{"secrets": func() *evidence.Report {
				r := census("secrets", t0.Add(-time.Hour), nil)
				r.Resources[0].APICount.Objects = 9
				return r
			}()}, finished: t0.Add(-48 * time.Hour)},
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonReadKeyStillInUse, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{Blocking: []Reason{ReasonReadKeyStillInUse}, Dropped: []string{"secrets aescbc:1 CountNotConfirmed"}},
		},
		{
			name:            "etcd census: no scan yet",
			deployed:        ectest.Secrets(ectest.KMS("2"), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()),
			candidate:       ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			health:          health(nil),
			census:          &fakeCensus{finished: t0.Add(-48 * time.Hour)},
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonReadKeyStillInUse, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{Blocking: []Reason{ReasonReadKeyStillInUse}, Dropped: []string{"secrets aescbc:1 NoReport"}},
		},
		{
			name:            "etcd census: no finished migration",
			deployed:        ectest.Secrets(ectest.KMS("2"), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()),
			candidate:       ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			health:          health(nil),
			census:          &fakeCensus{reports: map[string]*evidence.Report{"secrets": census("secrets", t0.Add(-time.Hour), nil)}},
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonReadKeyStillInUse, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{Blocking: []Reason{ReasonReadKeyStillInUse}, Dropped: []string{"secrets aescbc:1 MigrationNotFinished"}},
		},
		{
			name:            "etcd census: the scan predates the migration",
			deployed:        ectest.Secrets(ectest.KMS("2"), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()),
			candidate:       ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			health:          health(nil),
			census:          &fakeCensus{reports: map[string]*evidence.Report{"secrets": census("secrets", t0.Add(-48*time.Hour), nil)}, finished: t0.Add(-30 * time.Hour)},
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonReadKeyStillInUse, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{Blocking: []Reason{ReasonReadKeyStillInUse}, Dropped: []string{"secrets aescbc:1 ReportPredatesMigration"}},
		},
		{
			name:            "etcd census: migrated and verified, inside the rollback window",
			deployed:        ectest.Secrets(ectest.KMS("2"), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()),
			candidate:       ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			health:          health(nil),
			census:          &fakeCensus{reports: map[string]*evidence.Report{"secrets": census("secrets", t0.Add(-time.Hour), nil)}, finished: t0.Add(-2 * time.Hour)},
			wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonRollbackWindowNotPassed, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventWaiting},
			wantDecision: decision{Blocking: []Reason{ReasonRollbackWindowNotPassed}, Dropped: []string{"secrets aescbc:1 RollbackWindowNotPassed"}, WindowUntil: time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)},
		},
		{
			name:      "etcd census: inside the window for long is never Degraded",
			deployed:  ectest.Secrets(ectest.KMS("2"), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()),
			candidate: ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			health:    health(nil),
			conditions: []operatorv1.OperatorCondition{{Type: ConditionProgressing, Status: operatorv1.ConditionTrue, Reason: string(ReasonRollbackWindowNotPassed),
				LastTransitionTime: metav1.NewTime(t0.Add(-20 * time.Hour))}},
			census:          &fakeCensus{reports: map[string]*evidence.Report{"secrets": census("secrets", t0.Add(-time.Hour), nil)}, finished: t0.Add(-2 * time.Hour)},
			wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonRollbackWindowNotPassed, wantDegraded: operatorv1.ConditionFalse,
			wantDecision: decision{Blocking: []Reason{ReasonRollbackWindowNotPassed}, Dropped: []string{"secrets aescbc:1 RollbackWindowNotPassed"}, WindowUntil: time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)},
		},
		{
			name:        "etcd census: migrated, verified and the window passed",
			deployed:    ectest.Secrets(ectest.KMS("2"), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()),
			candidate:   ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			health:      health(nil),
			census:      &fakeCensus{reports: map[string]*evidence.Report{"secrets": census("secrets", t0.Add(-time.Hour), nil)}, finished: t0.Add(-25 * time.Hour)},
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantDecision: decision{Dropped: []string{"secrets aescbc:1 CensusPassed"}},
		},
		{
			name:      "etcd census: the window ends after the change waited for it",
			deployed:  ectest.Secrets(ectest.KMS("2"), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()),
			candidate: ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			health:    health(nil),
			conditions: []operatorv1.OperatorCondition{{Type: ConditionProgressing, Status: operatorv1.ConditionFalse, Reason: string(ReasonRollbackWindowNotPassed),
				LastTransitionTime: metav1.NewTime(t0.Add(-25 * time.Hour))}},
			census:      &fakeCensus{reports: map[string]*evidence.Report{"secrets": census("secrets", t0.Add(-time.Hour), nil)}, finished: t0.Add(-25 * time.Hour)},
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventUnblocked},
			wantDecision: decision{Dropped: []string{"secrets aescbc:1 CensusPassed"}},
		},
		{
			name:            "etcd census: a KMS provider dropped while values are under its older KEK id",
			deployed:        ectest.Secrets(ectest.KMS("2"), ectest.KMS("1"), ectest.Identity()),
			candidate:       ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			health:          allHealthy("2"),
			census:          &fakeCensus{reports: map[string]*evidence.Report{"secrets": census("secrets", t0.Add(-time.Hour), map[evidence.Key]int64{{Kind: etcdvalue.KindKMSv2, Name: "1_secrets", KEKID: "kek-old", DEKSourceType: etcdvalue.DEKSourceHKDFSeed}: 2})}, finished: t0.Add(-48 * time.Hour)},
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonReadKeyStillInUse, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonReadKeyStillInUse}, Dropped: []string{"secrets kms-v2:1_secrets ObjectsUnderKey (2 objects)"}},
		},
		{
			name:            "etcd census: identity dropped while plaintext values remain",
			deployed:        ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			candidate:       ectest.Secrets(ectest.KMS("2")),
			health:          allHealthy("2"),
			census:          &fakeCensus{reports: map[string]*evidence.Report{"secrets": census("secrets", t0.Add(-time.Hour), map[evidence.Key]int64{{Kind: etcdvalue.KindIdentity}: 1})}, finished: t0.Add(-48 * time.Hour)},
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonReadKeyStillInUse, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{Blocking: []Reason{ReasonReadKeyStillInUse}, Dropped: []string{"secrets identity ObjectsUnderKey (1 objects)"}},
		},
		{
			name: "etcd census: a resource taken out of a wildcard loses the wildcard's read key",
			deployed: &apiserverv1.EncryptionConfiguration{Resources: []apiserverv1.ResourceConfiguration{
				{Resources: []string{"*.*"}, Providers: []apiserverv1.ProviderConfiguration{ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()}}}},
			candidate: &apiserverv1.EncryptionConfiguration{Resources: []apiserverv1.ResourceConfiguration{
				{Resources: []string{"secrets"}, Providers: []apiserverv1.ProviderConfiguration{ectest.AESCBC("2", ectest.AESKeyB), ectest.Identity()}},
				{Resources: []string{"*.*"}, Providers: []apiserverv1.ProviderConfiguration{ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()}}}},
			health:          health(nil),
			census:          &fakeCensus{reports: map[string]*evidence.Report{"secrets": census("secrets", t0.Add(-time.Hour), map[evidence.Key]int64{{Kind: etcdvalue.KindAESCBC, Name: "1"}: 4})}, finished: t0.Add(-48 * time.Hour)},
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonReadKeyStillInUse, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{Blocking: []Reason{ReasonReadKeyStillInUse}, Dropped: []string{"secrets aescbc:1 ObjectsUnderKey (4 objects)"}},
		},
		{
			name:            "etcd census: a read key dropped from a wildcard has no census",
			deployed:        &apiserverv1.EncryptionConfiguration{Resources: []apiserverv1.ResourceConfiguration{{Resources: []string{"*.apps"}, Providers: []apiserverv1.ProviderConfiguration{ectest.AESCBC("2", ectest.AESKeyB), ectest.AESCBC("1", ectest.AESKeyA)}}}},
			candidate:       &apiserverv1.EncryptionConfiguration{Resources: []apiserverv1.ResourceConfiguration{{Resources: []string{"*.apps"}, Providers: []apiserverv1.ProviderConfiguration{ectest.AESCBC("2", ectest.AESKeyB)}}}},
			health:          health(nil),
			census:          &fakeCensus{reports: map[string]*evidence.Report{"secrets": census("secrets", t0.Add(-time.Hour), nil)}, finished: t0.Add(-48 * time.Hour)},
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonReadKeyStillInUse, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{Blocking: []Reason{ReasonReadKeyStillInUse}, Dropped: []string{"*.apps aescbc:1 NoReport"}},
		},
		{
			name:            "etcd census: a blocked drop can be forced",
			deployed:        ectest.Secrets(ectest.KMS("2"), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()),
			candidate:       ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			health:          health(nil),
			census:          &fakeCensus{reports: map[string]*evidence.Report{"secrets": census("secrets", t0.Add(-time.Hour), map[evidence.Key]int64{{Kind: etcdvalue.KindAESCBC, Name: "1"}: 3})}, finished: t0.Add(-48 * time.Hour)},
			force:           "candidate",
			wantAllowed:     true,
			wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonForced, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventForced},
			wantDecision: decision{Blocking: []Reason{ReasonReadKeyStillInUse}, Dropped: []string{"secrets aescbc:1 ObjectsUnderKey (3 objects)"}, Forced: true},
		},
		{
			name:        "etcd census: a revert needs no evidence",
			deployed:    ectest.Secrets(ectest.KMS("2"), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity()),
			candidate:   ectest.Secrets(ectest.KMS("2"), ectest.Identity()),
			health:      health(nil),
			census:      &fakeCensus{},
			revertOf:    "candidate",
			wantAllowed: true, wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonAsExpected, wantDegraded: operatorv1.ConditionFalse,
			wantDecision: decision{Dropped: []string{"secrets aescbc:1"}, Revert: true},
		},
		{
			name:            "KMS removed altogether while data may be under it",
			deployed:        ectest.Secrets(ectest.KMS("1"), ectest.Identity()),
			candidate:       ectest.Secrets(ectest.Identity()),
			health:          health(nil),
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonReadKeyStillInUse, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventBlocked},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonReadKeyStillInUse}, Dropped: []string{"secrets kms-v2:1_secrets AnnotationsNotRewritten"}},
		},
		{
			name:            "undecodable candidate",
			deployed:        deployedKMS1,
			rawCandidate:    "kind: EncryptionConfiguration\napiVersion: apiserver.config.k8s.io/v1\nresources: {}\n",
			health:          allHealthy("1"),
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonInvalidEncryptionConfig, wantDegraded: operatorv1.ConditionTrue,
			wantEvents:   []string{EventBlocked, EventDegraded},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonInvalidEncryptionConfig}},
		},
		{
			name:            "forced: the override names this candidate",
			candidate:       ectest.Secrets(ectest.KMS("1"), ectest.Identity()),
			health:          health([]string{"1"}),
			force:           "candidate",
			wantAllowed:     true,
			wantProgressing: operatorv1.ConditionFalse, wantReason: ReasonForced, wantDegraded: operatorv1.ConditionFalse,
			wantEvents:   []string{EventForced},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonNewKMSKeyWrites}, NewWrite: []string{"1"}, Forced: true},
		},
		{
			name:            "the override for another candidate is ignored",
			candidate:       ectest.Secrets(ectest.KMS("1"), ectest.Identity()),
			health:          health([]string{"1"}),
			force:           revisions.CandidateHash([]byte("an older candidate")),
			wantProgressing: operatorv1.ConditionTrue, wantReason: ReasonNewKMSKeyWrites, wantDegraded: operatorv1.ConditionTrue,
			wantEvents:   []string{EventBlocked, EventDegraded},
			wantDecision: decision{KMSChanged: true, Blocking: []Reason{ReasonNewKMSKeyWrites}, NewWrite: []string{"1"}, IgnoredForce: true},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			candidate := ectest.Marshal(t, s.candidate)
			if s.rawCandidate != "" {
				candidate = []byte(s.rawCandidate)
			}
			var objs []runtime.Object
			if candidate != nil {
				objs = append(objs, encryptionConfigSecret("encryption-config", candidate))
			}
			if s.deployed != nil {
				objs = append(objs, encryptionConfigSecret("encryption-config-1", ectest.Marshal(t, s.deployed)))
			}
			spec := &operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}
			if s.force != "" {
				force := s.force
				if force == "candidate" {
					force = revisions.CandidateHash(candidate)
				}
				spec.UnsupportedConfigOverrides.Raw = []byte(fmt.Sprintf(`{"kmsguard":{"forceRevision":%q}}`, force))
			}
			operator := v1helpers.NewFakeOperatorClient(spec, &operatorv1.OperatorStatus{LatestAvailableRevision: 1, Conditions: s.conditions}, nil)
			keySecrets := s.keySecrets
			if keySecrets == nil {
				// The keys library-go made for the configs, not migrated.
				keySecrets = []*corev1.Secret{keySecret("1"), keySecret("2")}
			}
			recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))

			opts := Options{
				Configs:            revisions.Secrets(fake.NewClientset(objs...).CoreV1(), operandNamespace, operator),
				Nodes:              kmsstate.NodeListerFunc(func(context.Context) ([]string, error) { return nodes, nil }),
				Health:             s.health,
				Preflight:          PreflightFromStatus(preflightStatus(s.preflight), secretLister(t, keySecrets...), "kube-apiserver"),
				UnverifiedReadKeys: s.policy,
				Migration:          evidence.KeySecretMigrations(secretLister(t, keySecrets...), "kube-apiserver"),
				OperatorClient:     operator,
				Recorder:           recorder,
				Clock:              clocktesting.NewFakePassiveClock(t0),
			}
			if s.noPreflight {
				opts.Preflight = nil
			}
			if s.census != nil {
				opts.Census = s.census
			}
			if s.revertOf != "" {
				revert := s.revertOf
				if revert == "candidate" {
					revert = revisions.CandidateHash(candidate)
				}
				opts.Reverts = revertsFunc(func(_ context.Context, hash string) (bool, error) { return hash == revert, nil })
			}
			gate := newTestGate(t, opts)
			allowed, err := gate.Precondition(context.Background())
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if allowed != s.wantAllowed {
				t.Errorf("allowed = %v, want %v", allowed, s.wantAllowed)
			}
			_, status, _, _ := operator.GetOperatorState()
			conventionstest.ExpectRegisteredReasons(t, ConditionReasons(), status.Conditions...)
			progressing := v1helpers.FindOperatorCondition(status.Conditions, ConditionProgressing)
			degraded := v1helpers.FindOperatorCondition(status.Conditions, ConditionDegraded)
			if progressing == nil || degraded == nil {
				t.Fatalf("conditions not applied: %+v", status.Conditions)
			}
			if progressing.Status != s.wantProgressing || progressing.Reason != string(s.wantReason) {
				t.Errorf("Progressing = %s/%s, want %s/%s: %s", progressing.Status, progressing.Reason, s.wantProgressing, s.wantReason, progressing.Message)
			}
			if degraded.Status != s.wantDegraded {
				t.Errorf("Degraded = %s/%s, want %s: %s", degraded.Status, degraded.Reason, s.wantDegraded, degraded.Message)
			}
			if degraded.Status == operatorv1.ConditionTrue && degraded.Reason != string(s.wantReason) {
				t.Errorf("Degraded reason = %s, want %s", degraded.Reason, s.wantReason)
			}
			want := s.wantDecision
			want.Hash = revisions.CandidateHash(candidate)
			if diff := cmp.Diff(want, judged(t, gate)); diff != "" {
				t.Errorf("verdict (-want +got):\n%s", diff)
			}
			if got, want := eventReasons(recorder), strings.Join(s.wantEvents, ","); got != want {
				t.Errorf("events %q, want %q", got, want)
			}
		})
	}
}

// TestPreconditionInvalidConfig: every class of kube-apiserver validation error blocks a KMS change and
// degrades at once, on the field kube-apiserver's own validation refuses.
func TestPreconditionInvalidConfig(t *testing.T) {
	withKMS := func(mutate func(*apiserverv1.KMSConfiguration)) *apiserverv1.EncryptionConfiguration {
		p := ectest.KMS("1")
		mutate(p.KMS)
		return ectest.Secrets(p, ectest.Identity())
	}
	cacheSize := int32(100)
	scenarios := []struct {
		name      string
		candidate *apiserverv1.EncryptionConfiguration
		// wantFields are the fields kube-apiserver's validation refuses, with their values; the message carries its
		// own words for each (TestGateConditions).
		wantFields []string
	}{
		{"endpoint not unix", withKMS(func(k *apiserverv1.KMSConfiguration) { k.Endpoint = "tcp://10.0.0.1:9000" }), []string{"Invalid value resources[0].providers[0].kms.endpoint=tcp://10.0.0.1:9000"}},
		{"name with a colon", withKMS(func(k *apiserverv1.KMSConfiguration) { k.Name = "1:secrets" }), []string{"Invalid value resources[0].providers[0].kms.name=1:secrets"}},
		{"duplicate v2 names", ectest.Secrets(ectest.KMS("1"), apiserverv1.ProviderConfiguration{KMS: &apiserverv1.KMSConfiguration{APIVersion: "v2", Name: "1_secrets", Endpoint: "unix:///var/run/kmsplugin/kms-2.sock"}}), []string{"Invalid value resources[0].providers[1].kms.name=1_secrets"}},
		{"cachesize on v2", withKMS(func(k *apiserverv1.KMSConfiguration) { k.CacheSize = &cacheSize }), []string{"Invalid value resources[0].providers[0].kms.cachesize=100"}},
		{"negative timeout", withKMS(func(k *apiserverv1.KMSConfiguration) { k.Timeout = &metav1.Duration{Duration: -time.Second} }), []string{"Invalid value resources[0].providers[0].kms.timeout=&Duration{Duration:-1s,}"}},
		{"no endpoint", withKMS(func(k *apiserverv1.KMSConfiguration) { k.Endpoint = "" }), []string{"Invalid value resources[0].providers[0].kms.endpoint="}},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			candidate := ectest.Marshal(t, s.candidate)
			operator := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)
			recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
			gate := newTestGate(t, Options{
				Configs: revisions.ConfigSourceFunc(func(context.Context) (revisions.Configs, error) {
					return revisions.Configs{Candidate: candidate, CandidateName: "test/encryption-config"}, nil
				}),
				Nodes:          kmsstate.NodeListerFunc(func(context.Context) ([]string, error) { return nodes, nil }),
				Health:         allHealthy("1", "2"),
				Preflight:      PreflightFromStatus(preflightStatus(preflightOf("1", operatorv1.KMSPreflightResultSucceeded, "kek-a")), secretLister(t, keySecret("1")), "kube-apiserver"),
				Migration:      evidence.KeySecretMigrations(secretLister(t), "kube-apiserver"),
				OperatorClient: operator,
				Recorder:       recorder,
				Clock:          clocktesting.NewFakePassiveClock(t0),
			})
			allowed, err := gate.Precondition(context.Background())
			if err != nil || allowed {
				t.Fatalf("Precondition = %v, %v; want false, nil", allowed, err)
			}
			_, status, _, _ := operator.GetOperatorState()
			degraded := v1helpers.FindOperatorCondition(status.Conditions, ConditionDegraded)
			if degraded == nil || degraded.Status != operatorv1.ConditionTrue || degraded.Reason != string(ReasonInvalidEncryptionConfig) {
				t.Fatalf("Degraded = %+v, want True/%s", degraded, ReasonInvalidEncryptionConfig)
			}
			if got := invalidFields(t, gate); !reflect.DeepEqual(got, s.wantFields) {
				t.Errorf("refused fields %q, want %q", got, s.wantFields)
			}
		})
	}
}

// TestPreconditionBlockedDuration: a promotion held by a fault degrades once Progressing has been True for
// DegradedAfter, and a recovery emits KMSRolloutUnblocked. TestGateConditions words the times.
func TestPreconditionBlockedDuration(t *testing.T) {
	blocked := func(since time.Duration) []operatorv1.OperatorCondition {
		c := condition(ConditionProgressing, operatorv1.ConditionTrue, string(ReasonKMSPluginsNotHealthy), "waiting")
		c.LastTransitionTime = metav1.NewTime(t0.Add(-since))
		return []operatorv1.OperatorCondition{c}
	}
	scenarios := []struct {
		name         string
		conditions   []operatorv1.OperatorCondition
		health       kmsVerdict
		wantDegraded operatorv1.ConditionStatus
		wantReason   Reason
		wantEvents   string
	}{
		{"blocked for less than DegradedAfter", blocked(5 * time.Minute), health([]string{"1"}), operatorv1.ConditionFalse, ReasonAsExpected, ""},
		{"blocked for longer than DegradedAfter", blocked(20 * time.Minute), health([]string{"1"}), operatorv1.ConditionTrue, ReasonKMSPluginsNotHealthy, EventDegraded},
		{"plugins healthy again", blocked(20 * time.Minute), allHealthy("1"), operatorv1.ConditionFalse, ReasonAsExpected, EventUnblocked},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			operator := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{Conditions: s.conditions}, nil)
			recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
			deployed := ectest.Marshal(t, ectest.Secrets(ectest.Identity(), ectest.KMS("1")))
			candidate := ectest.Marshal(t, ectest.Secrets(ectest.KMS("1"), ectest.Identity()))
			gate := newTestGate(t, Options{
				Configs: revisions.ConfigSourceFunc(func(context.Context) (revisions.Configs, error) {
					return revisions.Configs{Candidate: candidate, Deployed: deployed}, nil
				}),
				Nodes:          kmsstate.NodeListerFunc(func(context.Context) ([]string, error) { return nodes, nil }),
				Health:         s.health,
				Migration:      evidence.KeySecretMigrations(secretLister(t), "kube-apiserver"),
				OperatorClient: operator,
				Recorder:       recorder,
				Clock:          clocktesting.NewFakePassiveClock(t0),
			})
			if _, err := gate.Precondition(context.Background()); err != nil {
				t.Fatal(err)
			}
			_, status, _, _ := operator.GetOperatorState()
			degraded := v1helpers.FindOperatorCondition(status.Conditions, ConditionDegraded)
			if degraded.Status != s.wantDegraded || degraded.Reason != string(s.wantReason) {
				t.Errorf("Degraded = %s %s %q, want %s %s", degraded.Status, degraded.Reason, degraded.Message, s.wantDegraded, s.wantReason)
			}
			if got := eventReasons(recorder); got != s.wantEvents {
				t.Errorf("events %q, want %q", got, s.wantEvents)
			}
		})
	}
}

// TestReadinessCheck: the readiness check judges the copy the revision controller made, not the source secret.
func TestReadinessCheck(t *testing.T) {
	operator := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{LatestAvailableRevision: 1}, nil)
	client := fake.NewClientset(
		// The source already went back to no KMS; revision 2 was copied while it had KMS key 1 as a read key.
		encryptionConfigSecret("encryption-config", ectest.Marshal(t, ectest.Secrets(ectest.Identity()))),
		encryptionConfigSecret("encryption-config-2", ectest.Marshal(t, ectest.Secrets(ectest.Identity(), ectest.KMS("1")))),
	)
	gate := newTestGate(t, Options{
		Configs:            revisions.Secrets(client.CoreV1(), operandNamespace, operator),
		Nodes:              kmsstate.NodeListerFunc(func(context.Context) ([]string, error) { return nodes, nil }),
		Health:             health([]string{"1"}),
		Preflight:          PreflightFromStatus(preflightStatus(operatorv1.KMSPreflightCheck{}), secretLister(t, keySecret("1")), "kube-apiserver"),
		UnverifiedReadKeys: BlockUnverifiedReadKeys,
		Migration:          evidence.KeySecretMigrations(secretLister(t), "kube-apiserver"),
		OperatorClient:     operator,
		Recorder:           events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0)),
		Clock:              clocktesting.NewFakePassiveClock(t0),
	})
	if allowed, err := gate.Precondition(context.Background()); err != nil || !allowed {
		t.Errorf("Precondition on the source = %v, %v; want true: it changes no KMS", allowed, err)
	}
	if ready, err := gate.ReadinessCheck(context.Background(), 2); err != nil || ready {
		t.Errorf("ReadinessCheck(2) = %v, %v; want false: the copy adds KMS key 1, unverified, under the Block policy", ready, err)
	}
}

func eventReasons(recorder events.InMemoryRecorder) string {
	var reasons []string
	for _, e := range recorder.Events() {
		reasons = append(reasons, e.Reason)
	}
	return strings.Join(reasons, ",")
}

type revertsFunc func(ctx context.Context, hash string) (bool, error)

func (f revertsFunc) IsRevert(ctx context.Context, hash string) (bool, error) { return f(ctx, hash) }

// TestSecondLine: once ConfigSyncPrecondition judges the config before library-go's resource sync copies it, the
// revision controller's hooks set no condition; they hold a revision only when encryption-config itself is refused,
// with one KMSRolloutBlocked event per message.
func TestSecondLine(t *testing.T) {
	ctx := context.Background()
	admitted := ectest.Marshal(t, ectest.Secrets(ectest.Identity(), ectest.KMS("1")))
	refused := ectest.Marshal(t, ectest.Secrets(ectest.KMS("2"), ectest.Identity(), ectest.KMS("1")))
	candidate := admitted
	operator := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)
	recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
	gate := newTestGate(t, Options{
		Configs: revisions.ConfigSourceFunc(func(context.Context) (revisions.Configs, error) {
			return revisions.Configs{Candidate: candidate, Deployed: admitted, CandidateName: "operand/encryption-config"}, nil
		}),
		Nodes:          kmsstate.NodeListerFunc(func(context.Context) ([]string, error) { return nodes, nil }),
		Health:         allHealthy("1"),
		OperatorClient: operator,
		Recorder:       recorder,
		Clock:          clocktesting.NewFakePassiveClock(t0),
	})
	syncPrecondition := gate.ConfigSyncPrecondition(revisions.ConfigSourceFunc(func(context.Context) (revisions.Configs, error) {
		return revisions.Configs{Candidate: refused, Deployed: admitted, CandidateName: "managed/encryption-config-x"}, nil
	}))

	// The sync is held, with the gate's conditions; the revision of whatever else changed is not.
	if allowed, err := syncPrecondition(ctx); err != nil || allowed {
		t.Fatalf("sync precondition = %v, %v; want false", allowed, err)
	}
	if allowed, err := gate.Precondition(ctx); err != nil || !allowed {
		t.Fatalf("Precondition = %v, %v; want true: encryption-config still holds the admitted config", allowed, err)
	}
	_, status, _, _ := operator.GetOperatorState()
	if c := v1helpers.FindOperatorCondition(status.Conditions, ConditionProgressing); c == nil || c.Reason != string(ReasonNewKMSKeyWrites) {
		t.Fatalf("Progressing %+v, want the sync's verdict %s, not overwritten by the second line", c, ReasonNewKMSKeyWrites)
	}

	// Should the refused config reach encryption-config anyway (written around the sync), the second line holds
	// the revision, evented once.
	candidate = refused
	for i := 0; i < 2; i++ {
		if allowed, err := gate.Precondition(ctx); err != nil || allowed {
			t.Fatalf("Precondition = %v, %v; want false", allowed, err)
		}
	}
	if got := eventReasons(recorder); got != EventBlocked+","+EventDegraded+","+EventBlocked {
		t.Errorf("events %q, want the sync's %s and %s, then one %s of the second line", got, EventBlocked, EventDegraded, EventBlocked)
	}
}

// TestSecondLineKeepsToTheSync: a config the sync let through is not held by the second line when its evidence
// turns bad before the revision exists (a plugin that starts ahead of its revision and fails): encryption-config
// would otherwise hold a config every revision waits on. kmsrollback acts on such a revision.
func TestSecondLineKeepsToTheSync(t *testing.T) {
	ctx := context.Background()
	deployed := ectest.Marshal(t, ectest.Secrets(ectest.Identity()))
	newReadKey := ectest.Marshal(t, ectest.Secrets(ectest.Identity(), ectest.KMS("1")))
	configs := func(context.Context) (revisions.Configs, error) {
		return revisions.Configs{Candidate: newReadKey, Deployed: deployed, CandidateName: "c"}, nil
	}
	verdict := health([]string{"1"}) // no node reports key 1: unverified, admitted by the default policy
	recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
	gate := newTestGate(t, Options{
		Configs:        revisions.ConfigSourceFunc(configs),
		Nodes:          kmsstate.NodeListerFunc(func(context.Context) ([]string, error) { return nodes, nil }),
		Health:         healthFunc(func() kmsVerdict { return verdict }),
		OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
		Recorder:       recorder,
		Clock:          clocktesting.NewFakePassiveClock(t0),
	})
	syncPrecondition := gate.ConfigSyncPrecondition(revisions.ConfigSourceFunc(configs))
	if allowed, err := syncPrecondition(ctx); err != nil || !allowed {
		t.Fatalf("sync precondition = %v, %v; want true (admitted unverified)", allowed, err)
	}
	// The copied config's plugin now runs ahead on master-1 and fails there.
	verdict = health([]string{"1"}, operatorv1.KMSPluginHealthReport{NodeName: "master-1", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusError,
		Detail: "connection refused", LastCheckedTime: metav1.NewTime(t0.Add(-time.Second))})
	if allowed, err := gate.Precondition(ctx); err != nil || !allowed {
		t.Errorf("Precondition = %v, %v; want true: the sync admitted this config", allowed, err)
	}
	// The sync itself now refuses the same config (no new copy would be made).
	if allowed, err := syncPrecondition(ctx); err != nil || allowed {
		t.Errorf("sync precondition = %v, %v; want false on the new evidence", allowed, err)
	}
}

// TestSecondLineKeepsToTheSyncAcrossARestart: with Options.Admitted, what the sync let through is kept on the operator
// resource, and a new process's second line keeps to it; without it, the new process judges it again and holds the
// revision. A record that cannot be written holds the copy; one that cannot be decoded starts afresh.
func TestSecondLineKeepsToTheSyncAcrossARestart(t *testing.T) {
	ctx := context.Background()
	deployed := ectest.Marshal(t, ectest.Secrets(ectest.Identity()))
	newReadKey := ectest.Marshal(t, ectest.Secrets(ectest.Identity(), ectest.KMS("1")))
	configs := revisions.ConfigSourceFunc(func(context.Context) (revisions.Configs, error) {
		return revisions.Configs{Candidate: newReadKey, Deployed: deployed, CandidateName: "c"}, nil
	})
	verdict := health([]string{"1"})
	newGate := func(admitted operatorstate.Resource) (*Gate, func(context.Context) (bool, error)) {
		g := newTestGate(t, Options{
			Configs:        configs,
			Nodes:          kmsstate.NodeListerFunc(func(context.Context) ([]string, error) { return nodes, nil }),
			Health:         healthFunc(func() kmsVerdict { return verdict }),
			OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
			Recorder:       events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0)),
			Clock:          clocktesting.NewFakePassiveClock(t0),
			Admitted:       admitted,
		})
		return g, g.ConfigSyncPrecondition(configs)
	}
	failing := health([]string{"1"}, operatorv1.KMSPluginHealthReport{NodeName: "master-1", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusError,
		Detail: "connection refused", LastCheckedTime: metav1.NewTime(t0.Add(-time.Second))})

	resource := operatorstate.NewFakeResource()
	_, syncPrecondition := newGate(resource)
	if allowed, err := syncPrecondition(ctx); err != nil || !allowed {
		t.Fatalf("sync precondition = %v, %v; want true", allowed, err)
	}
	if allowed, err := syncPrecondition(ctx); err != nil || !allowed || resource.Writes() != 1 {
		t.Fatalf("sync precondition again = %v, %v, %d writes; want true and the record written once", allowed, err, resource.Writes())
	}
	// The operator restarts; meanwhile the copied config's plugin runs ahead on master-1 and fails.
	verdict = failing
	restarted, _ := newGate(resource)
	if allowed, err := restarted.Precondition(ctx); err != nil || !allowed {
		t.Errorf("after a restart with the record: Precondition = %v, %v; want true, as the sync admitted this config", allowed, err)
	}
	forgetful, _ := newGate(nil)
	if allowed, err := forgetful.Precondition(ctx); err != nil || allowed {
		t.Errorf("after a restart without a record: Precondition = %v, %v; want false, judged again", allowed, err)
	}

	// A record that cannot be written: the sync does not copy, and says why.
	verdict = health([]string{"1"})
	unwritable := operatorstate.NewFakeResource()
	unwritable.FailWrites(errors.New("etcdserver: request timed out"))
	_, syncPrecondition = newGate(unwritable)
	if allowed, err := syncPrecondition(ctx); allowed || err == nil || !strings.Contains(err.Error(), "keeping the rollout gate's admission") {
		t.Errorf("sync precondition with an unwritable record = %v, %v; want false and the write's error", allowed, err)
	}

	// A record that cannot be decoded starts afresh: the second line judges, as without one.
	corrupt := operatorstate.NewFakeResource()
	if err := corrupt.ApplyAnnotations(ctx, "test", map[string]string{operatorstate.AnnotationPrefix + AdmittedStoreName: "{not json"}); err != nil {
		t.Fatal(err)
	}
	verdict = failing
	g, _ := newGate(corrupt)
	if allowed, err := g.Precondition(ctx); err != nil || allowed {
		t.Errorf("with a corrupt record: Precondition = %v, %v; want false, judged again", allowed, err)
	}
}

// healthFunc is a HealthReader whose verdict a test changes.
type healthFunc func() kmsVerdict

func (f healthFunc) Current() (kmsstate.State, error) { return f().Current() }

// invalidFields are the fields kube-apiserver's validation refused in the gate's verdict, "<type> <field>=<value>",
// from the InvalidConfigError that blocks it.
func invalidFields(t *testing.T, g *Gate) []string {
	t.Helper()
	v := judgeNow(t, g)
	var invalid *InvalidConfigError
	var aggregate utilerrors.Aggregate
	if len(v.Blocking) == 0 || !errors.As(v.Blocking[0], &invalid) || !errors.As(invalid.Err, &aggregate) {
		t.Fatalf("blocking %v, want kube-apiserver's validation errors first", v.Blocking)
	}
	var fields []string
	for _, err := range aggregate.Errors() {
		var fe *field.Error
		if !errors.As(err, &fe) {
			t.Fatalf("validation error %v is no field error", err)
		}
		fields = append(fields, fmt.Sprintf("%s %s=%v", fe.Type, fe.Field, fe.BadValue))
	}
	return fields
}
