package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/kmsguard/kmsguard/internal/cli"

	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubefake "k8s.io/client-go/kubernetes/fake"

	"github.com/kmsguard/kmsguard/internal/etcdtest"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
)

// TestVerifyCanDrop: --can-drop applies evidence.CanDropReadKey, the rollout gate's rule, to the scan: refused
// while values are under the key, refused inside the rollback window, allowed after it; the text and JSON
// reports say why, and the exit code is exitReadKeyInUse while a named key may not go.
func TestVerifyCanDrop(t *testing.T) {
	secretsGR := schema.GroupResource{Resource: "secrets"}
	want := evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: "vault", KEKID: "kek-2"}
	scenarios := []struct {
		name        string
		old         int
		finishedAgo time.Duration
		wantCode    int
		wantReason  evidence.PruneReason
		wantText    string
	}{
		{name: "objects under the read key", old: 1, finishedAgo: 48 * time.Hour, wantCode: exitReadKeyInUse, wantReason: evidence.PruneObjectsUnderKey,
			wantText: "ObjectsUnderKey: read key aescbc:1 cannot be dropped: 1 objects are still stored under it (secrets)"},
		{name: "inside the rollback window", finishedAgo: time.Hour, wantCode: exitReadKeyInUse, wantReason: evidence.PruneRollbackWindow,
			wantText: "RollbackWindowNotPassed: read key aescbc:1 cannot be dropped: the rollback window lasts until"},
		{name: "no finished migration", wantCode: exitReadKeyInUse, wantReason: evidence.PruneMigrationNotFinished},
		{name: "after the window", finishedAgo: 48 * time.Hour, wantCode: cli.ExitOK, wantText: "aescbc:1  secrets   true"},
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
					finished = time.Now().Add(-s.finishedAgo)
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
					if s.wantText != "" && !strings.Contains(out.String(), s.wantText) {
						t.Errorf("output does not contain %q:\n%s", s.wantText, out.String())
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
				v := report.CanDrop[0]
				if v.ReadKey != "aescbc:1" || v.Resource != "secrets" || v.MayDrop != (s.wantReason == "") || v.Reason != s.wantReason ||
					(s.wantReason != "" && !strings.Contains(v.Message, "cannot be dropped")) {
					t.Errorf("verdict %+v, want reason %q", v, s.wantReason)
				}
				if report.Verified != (s.old == 0) {
					t.Errorf("verified %v with %d objects under the old key", report.Verified, s.old)
				}
			})
		}
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
