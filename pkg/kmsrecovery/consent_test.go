package kmsrecovery_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	operatorv1 "github.com/openshift/api/operator/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kmsguard/kmsguard/internal/recoverytest"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// corruptPlaintext is an unencrypted protobuf value cut short: identity, and undecodable.
var corruptPlaintext = []byte("k8s\x00\n\x0c\n\x02v1\x12\x06Secret\x1a")

// healthReport is node's report on library-go key "1".
func healthReport(node string, status operatorv1.KMSPluginHealthStatus, kekID string) operatorv1.KMSPluginHealthReport {
	return operatorv1.KMSPluginHealthReport{NodeName: node, KeyID: "1", Status: status, RemoteKeyID: kekID, LastCheckedTime: metav1.NewTime(t0)}
}

// kmsState evaluates reports with kmsstate's own code, for nodes master-0 and master-1 and key "1"; each
// element of rounds is one evaluation, the memory carried to the next.
func kmsState(rounds ...[]operatorv1.KMSPluginHealthReport) kmsstate.State {
	var state kmsstate.State
	var memory kmsstate.Memory
	for _, reports := range rounds {
		state, memory = kmsstate.Evaluate(kmsstate.Config{}, memory, kmsstate.Observation{
			Now: t0, Nodes: []string{"master-0", "master-1"}, KeyIDs: []string{"1"}, Reports: reports,
		})
	}
	return state
}

// withFailures is state with failures added, as kmsstate adds what each kube-apiserver's own view shows.
func withFailures(state kmsstate.State, failures ...kmsstate.Failure) kmsstate.State {
	state.Failures = append(state.Failures, failures...)
	return state
}

// decryptFailing is a kube-apiserver on node failing to read key 1's data, from its own counters.
func decryptFailing(node string) kmsstate.Failure {
	return kmsstate.Failure{Reason: kmsstate.ReasonDecryptFailing, Node: node, KeyID: "1", Detail: "255 failed reads of KMS-encrypted data since the last check"}
}

// healthyOn is every node's plugin of key "1" healthy, serving kekID.
func healthyOn(kekID string) []operatorv1.KMSPluginHealthReport {
	return []operatorv1.KMSPluginHealthReport{
		healthReport("master-0", operatorv1.KMSPluginHealthStatusHealthy, kekID),
		healthReport("master-1", operatorv1.KMSPluginHealthStatusHealthy, kekID),
	}
}

func stateView(state kmsstate.State) kmsrecovery.KMSView {
	return kmsrecovery.KMSViewFunc(func(context.Context) (kmsrecovery.KMSSnapshot, error) {
		return kmsrecovery.SnapshotFromKMSState(state), nil
	})
}

// TestCheckConsent is the consent rule: undecryptable Secrets under kms:key-lost (3), kms:key-other (1),
// other-kms:key-shared and kms:key-shared (one each: two providers whose KMSs use the same key id), one whose
// value etcd no longer holds (unknown) and one corrupt plaintext (identity). Only a consent naming a key
// etcd shows, that no plugin serves and kmsstate does not know as current, with the plugins healthy, yields
// objects to delete.
func TestCheckConsent(t *testing.T) {
	cluster := recoverytest.NewCluster()
	addSecrets(cluster, "app", "lost", 3, lostKey, false)
	cluster.Add(recoverytest.Secrets, "app", "other", "key-other", false)
	cluster.AddKMS(recoverytest.Secrets, "app", "shared-a", "other-kms", "key-shared", false)
	cluster.AddKMS(recoverytest.Secrets, "app", "shared-b", recoverytest.Provider, "key-shared", false)
	cluster.AddRaw(recoverytest.Secrets, "app", "corrupt", corruptPlaintext, false)
	cluster.Add(recoverytest.Secrets, "app", "vanished", lostKey, false)
	raw := withoutKey{RawValueReader: cluster.Raw(), key: recoverytest.EtcdKey(recoverytest.Secrets, "app", "vanished")}
	findings, err := (&kmsrecovery.Scanner{Client: cluster.Dynamic, Raw: raw}).Scan(context.Background(), []kmsrecovery.Resource{recoverytest.Secrets}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantFound := []string{"identity", "kms:key-lost", "kms:key-other", "kms:key-shared", "other-kms:key-shared", "unknown"}
	if diff := cmp.Diff(wantFound, findings.ConsentIDs()); diff != "" {
		t.Fatalf("scan found (-want +got):\n%s", diff)
	}

	healthy := stateView(kmsState(healthyOn(liveKey)))
	empty := &kmsrecovery.Findings{}
	scenarios := []struct {
		name     string
		findings *kmsrecovery.Findings
		consent  string
		kms      kmsrecovery.KMSView

		wantReason kmsrecovery.Reason // "" for consent given
		wantDetail string
		wantID     string
		wantCount  int
	}{
		{name: "nothing undecryptable, no consent", findings: empty},
		{name: "nothing undecryptable, stale consent", findings: empty, consent: lostKey},
		{name: "missing consent", consent: "", kms: healthy, wantReason: kmsrecovery.ReasonUndecryptableObjects},
		{name: "consent unknown: no etcd evidence of a key", consent: kmsrecovery.UnknownConsentID, kms: healthy, wantReason: kmsrecovery.ReasonConsentUnprovable, wantDetail: "nothing shows which key"},
		{name: "consent identity: corrupt plaintext", consent: "identity", kms: healthy, wantReason: kmsrecovery.ReasonConsentUnprovable, wantDetail: "corrupt, not encrypted"},
		{name: "wrong key id", consent: "key-typo", kms: healthy, wantReason: kmsrecovery.ReasonConsentMismatch},
		{name: "a provider with the wrong KEK id", consent: "other-kms:key-lost", kms: healthy, wantReason: kmsrecovery.ReasonConsentMismatch},
		{name: "bare KEK id of two providers", consent: "key-shared", kms: healthy, wantReason: kmsrecovery.ReasonConsentAmbiguous, wantDetail: "kms:key-shared, other-kms:key-shared"},
		{name: "KEK id of two providers, qualified", consent: "other-kms:key-shared", kms: healthy, wantID: "other-kms:key-shared", wantCount: 1},
		{name: "bare KEK id of one provider", consent: lostKey, kms: healthy, wantID: "kms:key-lost", wantCount: 3},
		{name: "qualified KEK id", consent: "kms:key-lost", kms: healthy, wantID: "kms:key-lost", wantCount: 3},
		{
			name: "a plugin serves the KEK id", consent: "kms:key-lost",
			kms:        stateView(kmsState(healthyOn(lostKey))),
			wantReason: kmsrecovery.ReasonConsentNamesCurrentKey, wantDetail: "node master-0 key 1",
		},
		{
			name: "an unhealthy report names the KEK id", consent: "kms:key-lost",
			kms: kmsrecovery.KMSViewFunc(func(context.Context) (kmsrecovery.KMSSnapshot, error) {
				var s kmsrecovery.KMSSnapshot
				s.AddReports([]operatorv1.KMSPluginHealthReport{healthReport("master-0", operatorv1.KMSPluginHealthStatusUnhealthy, lostKey)})
				return s, nil
			}),
			wantReason: kmsrecovery.ReasonConsentNamesCurrentKey, wantDetail: "node master-0 key 1 (Unhealthy report)",
		},
		{
			// The key was destroyed while current: its plugins fail now, kmsstate still knows the KEK id as the
			// one every node agreed on. An outage looks the same.
			name: "kmsstate's settled KEK id", consent: "kms:key-lost",
			kms: stateView(kmsState(healthyOn(lostKey), []operatorv1.KMSPluginHealthReport{
				healthReport("master-0", operatorv1.KMSPluginHealthStatusError, kmsrecovery.UnknownConsentID),
				healthReport("master-1", operatorv1.KMSPluginHealthStatusError, kmsrecovery.UnknownConsentID),
			})),
			wantReason: kmsrecovery.ReasonConsentNamesCurrentKey, wantDetail: "kmsstate's settled KEK id of key 1",
		},
		{
			name: "the current key's plugin unhealthy on one node", consent: "kms:key-lost",
			kms: stateView(kmsState([]operatorv1.KMSPluginHealthReport{
				healthReport("master-0", operatorv1.KMSPluginHealthStatusHealthy, liveKey),
				healthReport("master-1", operatorv1.KMSPluginHealthStatusUnhealthy, liveKey),
			})),
			wantReason: kmsrecovery.ReasonKMSUnhealthy, wantDetail: "PluginUnhealthy: node master-1 key 1",
		},
		{
			// The lost key's objects fail every LIST of them on every apiserver; the plugins answer under the
			// current KEK. Counting those failures would hold the deletion that ends them for ever.
			name: "apiservers fail to decrypt, the plugins healthy", consent: "kms:key-lost",
			kms:    stateView(withFailures(kmsState(healthyOn(liveKey)), decryptFailing("master-0"), decryptFailing("master-1"))),
			wantID: "kms:key-lost", wantCount: 3,
		},
		{
			name: "apiservers fail to decrypt, a plugin unhealthy", consent: "kms:key-lost",
			kms: stateView(withFailures(kmsState([]operatorv1.KMSPluginHealthReport{
				healthReport("master-0", operatorv1.KMSPluginHealthStatusHealthy, liveKey),
				healthReport("master-1", operatorv1.KMSPluginHealthStatusUnhealthy, liveKey),
			}), decryptFailing("master-0"))),
			wantReason: kmsrecovery.ReasonKMSUnhealthy, wantDetail: "PluginUnhealthy: node master-1 key 1",
		},
		{
			name: "no report from a node", consent: "kms:key-lost",
			kms:        stateView(kmsState(healthyOn(liveKey)[:1])),
			wantReason: kmsrecovery.ReasonKMSUnhealthy, wantDetail: "HealthReportMissing: node master-1 key 1",
		},
		{
			name: "kmsstate has not evaluated yet", consent: "kms:key-lost",
			kms:        kmsrecovery.KMSStateView(notEvaluated{}),
			wantReason: kmsrecovery.ReasonKMSUnhealthy, wantDetail: "kmsstate has not evaluated",
		},
		{
			// A healthy verdict kmsstate has not renewed for longer than its bound says nothing about now.
			name: "kmsstate's healthy verdict is stale", consent: "kms:key-lost",
			kms:        kmsrecovery.KMSStateView(lastEvaluated{state: kmsState(healthyOn(liveKey)), now: t0.Add(time.Hour)}),
			wantReason: kmsrecovery.ReasonKMSUnhealthy, wantDetail: "StateStale",
		},
		{
			name: "the KMS view cannot be read", consent: "kms:key-lost",
			kms: kmsrecovery.KMSViewFunc(func(context.Context) (kmsrecovery.KMSSnapshot, error) {
				return kmsrecovery.KMSSnapshot{}, errors.New("kubeapiservers.operator.openshift.io is forbidden")
			}),
			wantReason: kmsrecovery.ReasonKMSUnhealthy, wantDetail: "forbidden",
		},
		{name: "no KMS view", consent: "kms:key-lost", wantReason: kmsrecovery.ReasonKMSUnhealthy, wantDetail: "no view of the KMS plugins"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			f := s.findings
			if f == nil {
				f = findings
			}
			consented, err := kmsrecovery.CheckConsent(context.Background(), f, s.consent, s.kms)
			if s.wantReason == "" {
				if err != nil {
					t.Fatalf("got %v, want consent", err)
				}
				if consented.ConsentID != s.wantID || len(consented.Objects) != s.wantCount {
					t.Fatalf("consented %s with %d objects, want %s with %d", consented.ConsentID, len(consented.Objects), s.wantID, s.wantCount)
				}
				for _, o := range consented.Objects {
					if o.ConsentID != s.wantID {
						t.Errorf("object %s under %s given for consent %s", o.ObjectRef, o.ConsentID, s.wantID)
					}
				}
				return
			}
			var refusal *kmsrecovery.ConsentError
			if !errors.As(err, &refusal) {
				t.Fatalf("got %T %v, want a *ConsentError", err, err)
			}
			if len(consented.Objects) != 0 {
				t.Errorf("refused, yet %d objects given", len(consented.Objects))
			}
			if refusal.Reason() != s.wantReason || !strings.Contains(refusal.Error(), s.wantDetail) {
				t.Errorf("got reason %s: %v; want %s containing %q", refusal.Reason(), refusal, s.wantReason, s.wantDetail)
			}
			if !cmp.Equal(refusal.Found, wantFound) || refusal.Count != 8 {
				t.Errorf("found %v, count %d; want %v, 8", refusal.Found, refusal.Count, wantFound)
			}
		})
	}
}

// withoutKey is etcd without one key, as after the object was deleted behind the scan's back.
type withoutKey struct {
	kmsrecovery.RawValueReader
	key string
}

func (w withoutKey) RawValue(ctx context.Context, etcdKey string) ([]byte, error) {
	if etcdKey == w.key {
		return nil, nil
	}
	return w.RawValueReader.RawValue(ctx, etcdKey)
}

type notEvaluated struct{}

func (notEvaluated) Current() (kmsstate.State, error) {
	return kmsstate.State{}, &kmsstate.UnhealthyError{Failures: []kmsstate.Failure{{Reason: kmsstate.ReasonStateNotEvaluated, Detail: "kmsstate has not evaluated any report yet"}}}
}

// lastEvaluated is a kmsstate verdict held to kmsstate's freshness bound at now.
type lastEvaluated struct {
	state kmsstate.State
	now   time.Time
}

func (l lastEvaluated) Current() (kmsstate.State, error) {
	if err := l.state.Fresh(l.now, 2*time.Minute); err != nil {
		return kmsstate.State{}, err
	}
	return l.state, nil
}

func TestConsentFromSpec(t *testing.T) {
	scenarios := []struct {
		raw     string
		want    string
		wantErr bool
	}{
		{raw: "", want: ""},
		{raw: `{"kmsguard":{"confirmDataLoss":" key-lost "}}`, want: "key-lost"},
		{raw: `{"kmsguard":{"forceRevision":"sha256:x"}}`, want: ""},
		{raw: `[1]`, wantErr: true},
	}
	for _, s := range scenarios {
		spec := &operatorv1.OperatorSpec{UnsupportedConfigOverrides: runtime.RawExtension{Raw: []byte(s.raw)}}
		got, err := kmsrecovery.ConsentFromSpec(spec)
		if got != s.want || (err != nil) != s.wantErr {
			t.Errorf("%s: got %q, %v; want %q, error %v", s.raw, got, err, s.want, s.wantErr)
		}
	}
}
