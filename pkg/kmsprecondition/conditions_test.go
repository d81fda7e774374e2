package kmsprecondition

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kmsguard/kmsguard/internal/conventionstest"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// TestGateConditions is the wording of KMSRolloutGateProgressing and KMSRolloutGateDegraded: each row renders a
// verdict, the typed data the gate decided (TestPrecondition asserts it), into both whole conditions.
func TestGateConditions(t *testing.T) {
	const name, hash = "openshift-config-managed/encryption-config-kube-apiserver", "sha256:c4nd1d4te"
	configs := revisions.Configs{CandidateName: name}
	kmsChange := func(blocking ...BlockingError) verdict {
		return verdict{Configs: configs, Hash: hash, KMSChanged: true, Nodes: nodes, Blocking: blocking}
	}
	unreachable := &PluginsNotHealthyError{Err: &kmsstate.UnhealthyError{Failures: []kmsstate.Failure{
		{Reason: kmsstate.ReasonPluginUnreachable, Node: "master-1", KeyID: "1", Detail: "connection refused"}}}}
	aescbc1 := DroppedProvider{Resource: "secrets", Kind: etcdvalue.KindAESCBC, Name: "1", KeyID: "1"}
	kms1 := DroppedProvider{Resource: "secrets", Kind: etcdvalue.KindKMSv2, Name: "1_secrets", KeyID: "1"}
	withEvidence := func(d DroppedProvider, evidence string) DroppedProvider {
		d.Evidence = evidence
		return d
	}
	const (
		blockedFrom     = "no revision is created from " + name + " (" + hash + ") until: "
		forceHint       = "; to force exactly this candidate, set spec.unsupportedConfigOverrides.kmsguard.forceRevision to \"" + hash + "\""
		unreachableSays = "KMS plugins of the candidate are not healthy (PluginUnreachable): KMS plugins not healthy: PluginUnreachable: node master-1 key 1: connection refused"
	)
	progressingSince := func(ago time.Duration) []operatorv1.OperatorCondition {
		return []operatorv1.OperatorCondition{{Type: ConditionProgressing, Status: operatorv1.ConditionTrue, Reason: string(ReasonKMSPluginsNotHealthy),
			LastTransitionTime: metav1.NewTime(t0.Add(-ago))}}
	}
	scenarios := []struct {
		name                  string
		v                     verdict
		previous              []operatorv1.OperatorCondition
		progressing, degraded operatorv1.OperatorCondition
	}{
		{name: "nothing KMS in the candidate", v: verdict{Configs: configs, Hash: hash},
			progressing: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected),
				Message: "no KMS provider change and no dropped read key pending in " + name},
			degraded: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected)}},
		{name: "no candidate at all", v: verdict{Hash: hash},
			progressing: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected),
				Message: "no KMS provider change and no dropped read key pending in (no encryption config)"},
			degraded: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected)}},
		{name: "a KMS change that may roll out, by the evidence for each key",
			v: func() verdict {
				v := kmsChange()
				v.Keys = keyClasses{Deployed: []string{"1"}, Promoted: []string{"1"}, NewRead: []string{"2", "3", "4"}}
				v.Admitted = []admittedKey{
					{KeyID: "2", Preflight: PreflightEvidence{Outcome: PreflightSucceeded, Detail: `the preflight of key 2's configuration "H2" succeeded (KEK id "kek-b")`}},
					{KeyID: "3", HealthyOn: nodes},
					{KeyID: "4", Unverified: true, Preflight: PreflightEvidence{Outcome: PreflightUnverified, Detail: `no preflight result recorded (key 4's configuration is "H4")`}},
				}
				return v
			}(),
			progressing: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected),
				Message: "the KMS change in " + name + " (sha256:c4nd1d4te) may roll out: keys [1] healthy on nodes [master-0 master-1], and promoted keys [1] on one KEK id each; new read key 2: the preflight of key 2's configuration \"H2\" succeeded (KEK id \"kek-b\"); new read key 3: its plugin is healthy on nodes [master-0 master-1] ahead of its revision; new read key 4: UNVERIFIED (no preflight result recorded (key 4's configuration is \"H4\"); no node runs its plugin yet); admitted by the Admit policy: a read key writes nothing, and a revision whose kube-apiserver cannot reach its plugin is reverted by kmsrollback"},
			degraded: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected)}},
		{name: "a change that only drops read keys the evidence lets go",
			v: verdict{Configs: configs, Hash: hash, Dropped: []DroppedProvider{aescbc1, kms1},
				Allowed: []DroppedProvider{withEvidence(aescbc1, "no value stored under it"), withEvidence(kms1, "migrated long ago")}},
			progressing: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected),
				Message: "the change in " + name + " (sha256:c4nd1d4te) may roll out; dropped read keys: secrets read key aescbc:1: no value stored under it; secrets read key kms-v2:1_secrets (key 1): migrated long ago"},
			degraded: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected)}},
		{name: "a revert drops read keys unjudged",
			v: verdict{Configs: configs, Hash: hash, KMSChanged: true, Revert: true, Dropped: []DroppedProvider{aescbc1}},
			progressing: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected),
				Message: "the KMS change in " + name + " (sha256:c4nd1d4te) may roll out; it is a revert to an earlier revision's config, so the read keys it drops (secrets aescbc:1) never wrote anything"},
			degraded: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected)}},
		{name: "blocked by a fault: Degraded only after DegradedAfter", v: kmsChange(unreachable),
			progressing: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(ReasonKMSPluginsNotHealthy),
				Message: blockedFrom + unreachableSays + forceHint},
			degraded: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected),
				Message: "a KMS change has been waiting since 2026-12-02T12:00:00Z; Degraded at 2026-12-02T12:15:00Z if it still waits on a fault"}},
		{name: "blocked by a fault for longer than DegradedAfter", v: kmsChange(unreachable), previous: progressingSince(20 * time.Minute),
			progressing: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(ReasonKMSPluginsNotHealthy),
				Message: blockedFrom + unreachableSays + forceHint},
			degraded: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(ReasonKMSPluginsNotHealthy),
				Message: "blocked since 2026-12-02T11:40:00Z: " + blockedFrom + unreachableSays + forceHint}},
		{name: "blocked by what needs the admin: Degraded at once, listing every reason, most severe first",
			v: kmsChange(&InvalidConfigError{Err: errors.New("resources[0].providers[0].kms.endpoint: Invalid value: \"tcp://10.0.0.1:9000\": unsupported scheme")},
				&NewKeyWritesError{KeyIDs: []string{"3"}}, &PreflightError{Failed: true, Detail: "the preflight of key 2's configuration \"H2\" failed"},
				&PreflightError{Detail: "new read keys [4] are unverified"},
				&PluginsNotHealthyError{Err: &keyNotEvaluatedError{KeyID: "5", Evaluated: []string{"1"}, At: t0.Add(-time.Minute)}},
				&PluginsNotHealthyError{Err: &kekNotSettledError{KeyID: "1"}}),
			progressing: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(ReasonInvalidEncryptionConfig),
				Message: blockedFrom + "the candidate encryption config is invalid: resources[0].providers[0].kms.endpoint: Invalid value: \"tcp://10.0.0.1:9000\": unsupported scheme; KMS keys [3] are new to the candidate and already write a resource; a new key must first roll out as a read key to every kube-apiserver, as library-go adds it; the KMS preflight failed: the preflight of key 2's configuration \"H2\" failed; the KMS preflight has not passed: new read keys [4] are unverified; KMS plugins of the candidate are not healthy: kmsstate has not evaluated new key 5 yet (it evaluated keys [1] at 2026-12-02T11:59:00Z); KMS plugins of the candidate are not healthy: key 1 becomes a write key, and its plugins have not agreed on one KEK id on every node yet" + forceHint},
			degraded: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(ReasonInvalidEncryptionConfig),
				Message: "blocked since 2026-12-02T12:00:00Z: " + blockedFrom + "the candidate encryption config is invalid: resources[0].providers[0].kms.endpoint: Invalid value: \"tcp://10.0.0.1:9000\": unsupported scheme; KMS keys [3] are new to the candidate and already write a resource; a new key must first roll out as a read key to every kube-apiserver, as library-go adds it; the KMS preflight failed: the preflight of key 2's configuration \"H2\" failed; the KMS preflight has not passed: new read keys [4] are unverified; KMS plugins of the candidate are not healthy: kmsstate has not evaluated new key 5 yet (it evaluated keys [1] at 2026-12-02T11:59:00Z); KMS plugins of the candidate are not healthy: key 1 becomes a write key, and its plugins have not agreed on one KEK id on every node yet" + forceHint}},
		{name: "blocked by what ends by itself: never Degraded",
			v: verdict{Configs: configs, Hash: hash, Dropped: []DroppedProvider{aescbc1, kms1}, Blocking: []BlockingError{
				&ReadKeyStillInUseError{Dropped: []DroppedProvider{withEvidence(kms1, "3 objects are still stored under it")}},
				&RollbackWindowError{Dropped: []DroppedProvider{withEvidence(aescbc1, "no value stored under it")}, Until: t0.Add(time.Hour)}}},
			previous: progressingSince(48 * time.Hour),
			progressing: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(ReasonReadKeyStillInUse),
				Message: blockedFrom + "the candidate drops read keys that data may still be stored under: secrets read key kms-v2:1_secrets (key 1): 3 objects are still stored under it; the candidate drops read keys before the rollback window has passed (until 2026-12-02T13:00:00Z): secrets read key aescbc:1: no value stored under it" + forceHint},
			degraded: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected),
				Message: "the change has been waiting since 2026-11-30T12:00:00Z for what normal operation ends by itself; never Degraded for that"}},
		{name: "the override names another candidate",
			v: func() verdict { v := kmsChange(unreachable); v.IgnoredForce = true; return v }(),
			progressing: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(ReasonKMSPluginsNotHealthy),
				Message: blockedFrom + unreachableSays + forceHint + " (spec.unsupportedConfigOverrides.kmsguard.forceRevision names another candidate and is ignored)"},
			degraded: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected),
				Message: "a KMS change has been waiting since 2026-12-02T12:00:00Z; Degraded at 2026-12-02T12:15:00Z if it still waits on a fault"}},
		{name: "forced",
			v: func() verdict { v := kmsChange(&NewKeyWritesError{KeyIDs: []string{"1"}}); v.Forced = true; return v }(),
			progressing: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonForced),
				Message: "the change in " + name + " (sha256:c4nd1d4te) is FORCED by spec.unsupportedConfigOverrides.kmsguard.forceRevision although: KMS keys [1] are new to the candidate and already write a resource; a new key must first roll out as a read key to every kube-apiserver, as library-go adds it; remove the override once the revision is rolled out"},
			degraded: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonForced),
				Message: "the change in " + name + " (sha256:c4nd1d4te) is FORCED by spec.unsupportedConfigOverrides.kmsguard.forceRevision although: KMS keys [1] are new to the candidate and already write a resource; a new key must first roll out as a read key to every kube-apiserver, as library-go adds it; remove the override once the revision is rolled out"}},
	}
	g := &Gate{options: Options{DegradedAfter: DefaultDegradedAfter, RollbackWindow: DefaultRollbackWindow}}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			got := g.conditions(s.v, s.previous, t0)
			conventionstest.ExpectRegisteredReasons(t, ConditionReasons(), got.progressing, got.degraded)
			s.progressing.Type, s.degraded.Type = ConditionProgressing, ConditionDegraded
			if diff := cmp.Diff(s.progressing, got.progressing); diff != "" {
				t.Errorf("%s (-want +got):\n%s", ConditionProgressing, diff)
			}
			if diff := cmp.Diff(s.degraded, got.degraded); diff != "" {
				t.Errorf("%s (-want +got):\n%s", ConditionDegraded, diff)
			}
		})
	}
}

// TestDroppedEvidence is the wording of what the evidence showed for a dropped read key (DroppedProvider.Evidence),
// which both conditions carry: each row judges one key by the census or, without etcd access, by library-go's
// annotations, and states the whole of it.
func TestDroppedEvidence(t *testing.T) {
	aescbc1 := DroppedProvider{Resource: "secrets", Kind: etcdvalue.KindAESCBC, Name: "1", KeyID: "1"}
	kms1 := DroppedProvider{Resource: "secrets", Kind: etcdvalue.KindKMSv2, Name: "1_secrets", KeyID: "1"}
	identity := DroppedProvider{Resource: "secrets", Kind: etcdvalue.KindIdentity}
	apps := DroppedProvider{Resource: "*.apps", Kind: etcdvalue.KindAESCBC, Name: "1", KeyID: "1"}
	const annotations = "(" + annotationSource + ")"
	withCount := func(objects int64) *fakeCensus {
		r := census("secrets", t0.Add(-time.Hour), map[evidence.Key]int64{{Kind: etcdvalue.KindAESCBC, Name: "1"}: objects})
		return &fakeCensus{reports: map[string]*evidence.Report{"secrets": r}, finished: t0.Add(-48 * time.Hour)}
	}
	scenarios := []struct {
		name    string
		dropped DroppedProvider
		// census judges by the census; keySecrets, without it, by library-go's annotations.
		census     *fakeCensus
		keySecrets []*corev1.Secret
		want       string
	}{
		{name: "annotations: not migrated", dropped: kms1, keySecrets: []*corev1.Secret{keySecret("1", "secrets"), keySecret("2")},
			want: "no key newer than 1 lists secrets in encryption.apiserver.operator.openshift.io/migrated-resources " + annotations},
		{name: "annotations: migrated without a timestamp", dropped: kms1, keySecrets: []*corev1.Secret{keySecret("1", "secrets"), keySecret("2", "secrets")},
			want: "the migration is recorded without a migrated-timestamp, so the rollback window cannot be measured " + annotations},
		{name: "annotations: inside the window", dropped: kms1, keySecrets: []*corev1.Secret{keySecret("1", "secrets"), keySecretAt("2", t0.Add(-time.Hour), "secrets")},
			want: "migrated 2026-12-02T11:00:00Z, but the rollback window of 24h0m0s lasts until 2026-12-03T11:00:00Z " + annotations},
		{name: "annotations: the window passed", dropped: kms1, keySecrets: []*corev1.Secret{keySecretAt("1", t0.Add(-72*time.Hour), "secrets"), keySecretAt("2", t0.Add(-25*time.Hour), "secrets")},
			want: "migrated 2026-12-01T11:00:00Z and the rollback window of 24h0m0s has passed " + annotations},
		{name: "annotations: identity has no key id", dropped: identity, keySecrets: []*corev1.Secret{keySecret("1")},
			want: "library-go records no migration away from identity " + annotations},
		{name: "census: values under the key", dropped: aescbc1, census: withCount(3),
			want: "3 objects are still stored under it (secrets) (evidence: raw etcd census of secrets started 2026-12-02T11:00:00Z, migration to kms-v2:2_secrets:kek-a finished 2026-11-30T12:00:00Z)"},
		{name: "census: the API's count does not confirm the scan", dropped: aescbc1, census: func() *fakeCensus {
			r := census("secrets", t0.Add(-time.Hour), nil)
			r.Resources[0].APICount.Objects = 9
			return &fakeCensus{reports: map[string]*evidence.Report{"secrets": r}, finished: t0.Add(-48 * time.Hour)}
		}(),
			want: "the API's object count does not confirm the scan: secrets: etcd holds 5 keys under /registry/secrets/, the API lists 9 objects (both at revision 0) (evidence: raw etcd census of secrets started 2026-12-02T11:00:00Z, migration to kms-v2:2_secrets:kek-a finished 2026-11-30T12:00:00Z)"},
		{name: "census: no scan yet", dropped: aescbc1, census: &fakeCensus{finished: t0.Add(-48 * time.Hour)},
			want: "no census report (evidence: raw etcd census, no report of secrets yet, migration finished 2026-11-30T12:00:00Z)"},
		{name: "census: no finished migration", dropped: aescbc1, census: &fakeCensus{reports: map[string]*evidence.Report{"secrets": census("secrets", t0.Add(-time.Hour), nil)}},
			want: "no migration to the write key has finished (evidence: raw etcd census of secrets started 2026-12-02T11:00:00Z, no finished migration known)"},
		{name: "census: the scan predates the migration", dropped: aescbc1,
			census: &fakeCensus{reports: map[string]*evidence.Report{"secrets": census("secrets", t0.Add(-48*time.Hour), nil)}, finished: t0.Add(-30 * time.Hour)},
			want:   "the census report was started before the migration finished (evidence: raw etcd census of secrets started 2026-11-30T12:00:00Z, migration to kms-v2:2_secrets:kek-a finished 2026-12-01T06:00:00Z)"},
		{name: "census: inside the window", dropped: aescbc1,
			census: &fakeCensus{reports: map[string]*evidence.Report{"secrets": census("secrets", t0.Add(-time.Hour), nil)}, finished: t0.Add(-2 * time.Hour)},
			want:   "no value stored under it, but the rollback window of 24h0m0s lasts until 2026-12-03T10:00:00Z (evidence: raw etcd census of secrets started 2026-12-02T11:00:00Z, migration to kms-v2:2_secrets:kek-a finished 2026-12-02T10:00:00Z)"},
		{name: "census: the window passed", dropped: aescbc1,
			census: &fakeCensus{reports: map[string]*evidence.Report{"secrets": census("secrets", t0.Add(-time.Hour), nil)}, finished: t0.Add(-25 * time.Hour)},
			want:   "no value stored under it and the rollback window of 24h0m0s has passed (evidence: raw etcd census of secrets started 2026-12-02T11:00:00Z, migration to kms-v2:2_secrets:kek-a finished 2026-12-01T11:00:00Z)"},
		{name: "census: a wildcard is not scanned", dropped: apps,
			census: &fakeCensus{reports: map[string]*evidence.Report{"secrets": census("secrets", t0.Add(-time.Hour), nil)}, finished: t0.Add(-48 * time.Hour)},
			want:   "no census report (evidence: raw etcd census, no report of *.apps yet, migration finished 2026-11-30T12:00:00Z; the census scans resources, not wildcards: list the resources *.apps covers explicitly)"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			opts := Options{RollbackWindow: DefaultRollbackWindow}
			if s.census != nil {
				opts.Census = s.census
			} else {
				opts.Migration = evidence.KeySecretMigrations(secretLister(t, s.keySecrets...), "kube-apiserver")
			}
			g := &Gate{options: opts}
			blocking, allowed, err := g.checkDropped(context.Background(), []DroppedProvider{s.dropped}, t0)
			if err != nil {
				t.Fatal(err)
			}
			var got []DroppedProvider
			for _, b := range blocking {
				switch e := b.(type) {
				case *ReadKeyStillInUseError:
					got = append(got, e.Dropped...)
				case *RollbackWindowError:
					got = append(got, e.Dropped...)
				}
			}
			got = append(got, allowed...)
			if len(got) != 1 || got[0].Evidence != s.want {
				t.Errorf("evidence %+v, want %q", got, s.want)
			}
		})
	}
}

// TestPreflightEvidence is the wording of what library-go's preflight proved about a key's configuration, which a
// new read key's admission (or refusal) carries: the gate tests assert the outcome, this the whole detail.
func TestPreflightEvidence(t *testing.T) {
	h1, err := KMSConfigHash(vaultKeyState("1"))
	if err != nil {
		t.Fatal(err)
	}
	h2, err := KMSConfigHash(vaultKeyState("2"))
	if err != nil {
		t.Fatal(err)
	}
	result := func(status operatorv1.KMSPreflightResultStatus, hash, remoteKeyID string) operatorv1.KMSPreflightCheck {
		return operatorv1.KMSPreflightCheck{ObservedConfigHash: hash, Result: operatorv1.KMSPreflightResult{Status: status, ConfigHash: hash, RemoteKeyID: remoteKeyID}}
	}
	scenarios := []struct {
		name  string
		check operatorv1.KMSPreflightCheck
		// noKeySecret leaves key 1 without its key secret.
		noKeySecret bool
		want        PreflightEvidence
	}{
		{name: "no key secret", noKeySecret: true, want: PreflightEvidence{Outcome: PreflightUnverified,
			Detail: "key 1 has no key secret openshift-config-managed/encryption-key-kube-apiserver-1, so no preflight is bound to it"}},
		{name: "no result", want: PreflightEvidence{Outcome: PreflightUnverified,
			Detail: `no preflight result recorded (key 1's configuration is "` + h1 + `")`}},
		{name: "a result for another configuration", check: result(operatorv1.KMSPreflightResultSucceeded, h2, "kek-a"), want: PreflightEvidence{Outcome: PreflightUnverified,
			Detail: `the preflight result (Succeeded) is for configuration "` + h2 + `", key 1's is "` + h1 + `"`}},
		{name: "failed", check: result(operatorv1.KMSPreflightResultFailed, h1, ""), want: PreflightEvidence{Outcome: PreflightFailed,
			Detail: `the preflight of key 1's configuration "` + h1 + `" failed`}},
		{name: "neither succeeded nor failed", check: result("Unknown", h1, ""), want: PreflightEvidence{Outcome: PreflightUnverified,
			Detail: `the preflight of key 1's configuration "` + h1 + `" ended "Unknown", which is neither Succeeded nor Failed`}},
		{name: "the always-succeed stub", check: result(operatorv1.KMSPreflightResultSucceeded, h1, AlwaysSucceedRemoteKeyID), want: PreflightEvidence{Outcome: PreflightUnverified,
			Detail: `the preflight of key 1's configuration "` + h1 + `" is library-go's always-succeed stub, which runs no plugin`}},
		{name: "succeeded through a plugin", check: result(operatorv1.KMSPreflightResultSucceeded, h1, "kek-a"), want: PreflightEvidence{Outcome: PreflightSucceeded,
			Detail: `the preflight of key 1's configuration "` + h1 + `" succeeded (KEK id "kek-a")`}},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			keySecrets := []*corev1.Secret{keySecret("1")}
			if s.noKeySecret {
				keySecrets = nil
			}
			got, err := PreflightFromStatus(preflightStatus(s.check), secretLister(t, keySecrets...), "kube-apiserver").PreflightOf(context.Background(), "1")
			if err != nil || got != s.want {
				t.Errorf("PreflightOf(1) = %+v, %v; want %+v", got, err, s.want)
			}
		})
	}
}
