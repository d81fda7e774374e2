package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubefake "k8s.io/client-go/kubernetes/fake"

	"github.com/kmsguard/kmsguard/internal/cli"
	"github.com/kmsguard/kmsguard/internal/etcdtest"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
)

// TestVerifyCanDrop: --can-drop applies evidence.CanDropReadKey, the rollout gate's rule, to the scan: refused
// while values are under the key, refused inside the rollback window, allowed after it; the text and JSON
// reports carry the rule's verdict, and the exit code is exitReadKeyInUse while a named key may not go.
// TestPrintDropVerdicts words the text report.
func TestVerifyCanDrop(t *testing.T) {
	secretsGR := schema.GroupResource{Resource: "secrets"}
	want := evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: "vault", KEKID: "kek-2"}
	aescbc1 := evidence.ReadKey{Kind: etcdvalue.KindAESCBC, Name: "1"}
	scenarios := []struct {
		name        string
		old         int
		finishedAgo time.Duration
		wantCode    int
		// wantRefusal is the rule's refusal, given when the migration finished; nil when the key may go.
		wantRefusal func(finished time.Time) *evidence.PruneError
	}{
		{name: "objects under the read key", old: 1, finishedAgo: 48 * time.Hour, wantCode: exitReadKeyInUse,
			wantRefusal: func(time.Time) *evidence.PruneError {
				return &evidence.PruneError{Reason: evidence.PruneObjectsUnderKey, Key: aescbc1, Objects: 1, Resources: []string{"secrets"}}
			}},
		{name: "inside the rollback window", finishedAgo: time.Hour, wantCode: exitReadKeyInUse,
			wantRefusal: func(finished time.Time) *evidence.PruneError {
				return &evidence.PruneError{Reason: evidence.PruneRollbackWindow, Key: aescbc1, Until: finished.Add(24 * time.Hour)}
			}},
		{name: "no finished migration", wantCode: exitReadKeyInUse,
			wantRefusal: func(time.Time) *evidence.PruneError {
				return &evidence.PruneError{Reason: evidence.PruneMigrationNotFinished, Key: aescbc1}
			}},
		{name: "after the window", finishedAgo: 48 * time.Hour, wantCode: cli.ExitOK},
	}
	for _, s := range scenarios {
		for _, format := range []cli.OutputFormat{cli.OutputText, cli.OutputJSON} {
			t.Run(s.name+" "+string(format), func(t *testing.T) {
				kv := etcdtest.NewKV()
				kv.Store("/kubernetes.io/secrets/a/new", etcdtest.KMSv2Value("vault", "kek-2"))
				count := int64(1)
				if s.old > 0 {
					kv.Store("/kubernetes.io/secrets/a/old", etcdtest.AESCBCValue("1"))
					count++
				}
				finished := time.Time{}
				if s.finishedAgo > 0 {
					// Whole seconds: the JSON report keeps no more.
					finished = time.Now().Add(-s.finishedAgo).Truncate(time.Second)
				}
				// The verdict the report must carry.
				wantVerdict := dropVerdict{ReadKey: "aescbc:1", Resource: "secrets", MayDrop: s.wantRefusal == nil}
				if !finished.IsZero() {
					at := metav1.NewTime(finished)
					wantVerdict.MigrationFinished = &at
				}
				if s.wantRefusal != nil {
					refusal := s.wantRefusal(finished)
					wantVerdict.Reason, wantVerdict.Message = refusal.Reason, refusal.Error()
				}
				c := verifyClients{kv: kv, counter: countsCounter{secretsGR: count}, lookup: crdLookup{},
					migrationFinished: func(context.Context, schema.GroupResource) (time.Time, error) { return finished, nil }}
				o := &verifyOptions{output: format, pageSize: 100, maxListed: 10, rollbackWindow: 24 * time.Hour, canDrop: []string{"aescbc:1"}}
				drops, err := o.parseCanDrop()
				if err != nil {
					t.Fatal(err)
				}
				var out, errOut bytes.Buffer
				code, err := o.verify(context.Background(), c, []schema.GroupResource{secretsGR}, want, drops, &out, &errOut)
				if code != s.wantCode || err != nil {
					t.Fatalf("got %d, %v; want %d\n%s", code, err, s.wantCode, out.String())
				}
				if format == cli.OutputText {
					// The report ends with the verdicts' table.
					var verdicts bytes.Buffer
					printDropVerdicts(&verdicts, []dropVerdict{wantVerdict})
					if !strings.HasSuffix(out.String(), verdicts.String()) {
						t.Errorf("output does not end with the verdicts\n%s\n:\n%s", verdicts.String(), out.String())
					}
					return
				}
				var report struct {
					Verified bool          `json:"verified"`
					CanDrop  []dropVerdict `json:"canDrop"`
				}
				if err := json.Unmarshal(out.Bytes(), &report); err != nil {
					t.Fatalf("not JSON: %v\n%s", err, out.String())
				}
				if len(report.CanDrop) != 1 {
					t.Fatalf("canDrop %+v, want one verdict", report.CanDrop)
				}
				if diff := cmp.Diff(wantVerdict, report.CanDrop[0]); diff != "" {
					t.Errorf("verdict (-want +got):\n%s", diff)
				}
				if report.Verified != (s.old == 0) {
					t.Errorf("verified %v with %d objects under the old key", report.Verified, s.old)
				}
			})
		}
	}
}

// TestPrintDropVerdicts is the wording of the text report's verdicts: a table, with the rule's reason and words
// for a key that may not go.
func TestPrintDropVerdicts(t *testing.T) {
	finished := metav1.NewTime(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	var out bytes.Buffer
	printDropVerdicts(&out, []dropVerdict{
		{ReadKey: "aescbc:1", Resource: "secrets", MayDrop: true, MigrationFinished: &finished},
		{ReadKey: "aescbc:1", Resource: "configmaps", Reason: evidence.PruneObjectsUnderKey,
			Message: "read key aescbc:1 cannot be dropped: 2 objects are still stored under it (configmaps)"},
	})
	want := "\n" +
		"READ KEY  RESOURCE    MAY DROP  MIGRATION FINISHED    WHY NOT\n" +
		"aescbc:1  secrets     true      2026-12-01T12:00:00Z  -\n" +
		"aescbc:1  configmaps  false     -                     ObjectsUnderKey: read key aescbc:1 cannot be dropped: 2 objects are still stored under it (configmaps)\n"
	if out.String() != want {
		t.Errorf("output\n%q\nwant\n%q", out.String(), want)
	}
	out.Reset()
	if printDropVerdicts(&out, nil); out.Len() != 0 {
		t.Errorf("no verdicts printed %q, want nothing", out.String())
	}
}

func TestParseReadKey(t *testing.T) {
	for in, want := range map[string]evidence.ReadKey{
		"identity":             {Kind: etcdvalue.KindIdentity},
		"aescbc:3":             {Kind: etcdvalue.KindAESCBC, Name: "3"},
		"secretbox:k":          {Kind: etcdvalue.KindSecretbox, Name: "k"},
		"kms-v2:1_secrets":     {Kind: etcdvalue.KindKMSv2, Name: "1_secrets"},
		"kms-v2:1_secrets:a:b": {Kind: etcdvalue.KindKMSv2, Name: "1_secrets", KEKID: "a:b"},
	} {
		got, err := parseReadKey(in)
		if err != nil || got != want {
			t.Errorf("parseReadKey(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "identity:x", "aescbc", "kms-v2:", "rot13:x"} {
		if _, err := parseReadKey(in); err == nil {
			t.Errorf("parseReadKey(%q) succeeded", in)
		}
	}
}

// TestKeySecretMigrationFinished: without --migration-finished the finish is library-go's migrated-timestamp of
// the newest key secret of the component that lists the resource, read with one LIST.
func TestKeySecretMigrationFinished(t *testing.T) {
	stamp := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	migrated, _ := json.Marshal(secrets.MigratedGroupResources{Resources: []schema.GroupResource{{Resource: "secrets"}}})
	kube := kubefake.NewClientset(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{
		Name: "encryption-key-openshift-kube-apiserver-2", Namespace: keySecretsNamespace,
		Labels: map[string]string{secrets.EncryptionKeySecretsLabel: defaultKeySecretComponent},
		Annotations: map[string]string{
			secrets.EncryptionSecretMigratedResources: string(migrated),
			secrets.EncryptionSecretMigratedTimestamp: stamp.Format(time.RFC3339),
		},
	}})
	finished, err := keySecretMigrationFinished(context.Background(), kube, defaultKeySecretComponent)
	if err != nil {
		t.Fatal(err)
	}
	for gr, want := range map[schema.GroupResource]time.Time{{Resource: "secrets"}: stamp, {Resource: "configmaps"}: {}} {
		if got, err := finished(context.Background(), gr); err != nil || !got.Equal(want) {
			t.Errorf("%s: finished %v, %v; want %v", gr, got, err, want)
		}
	}
	other, err := keySecretMigrationFinished(context.Background(), kube, "openshift-apiserver")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := other(context.Background(), schema.GroupResource{Resource: "secrets"}); !got.IsZero() {
		t.Errorf("another component's secrets count: %v", got)
	}
}
