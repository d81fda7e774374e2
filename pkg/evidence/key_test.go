package evidence_test

import (
	"strings"
	"testing"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
)

func TestParseWriteKey(t *testing.T) {
	scenarios := []struct {
		in      string
		want    evidence.WriteKey
		wantErr string
	}{
		{in: "identity", want: evidence.WriteKey{Kind: etcdvalue.KindIdentity}},
		{in: "aescbc:1", want: evidence.WriteKey{Kind: etcdvalue.KindAESCBC, Name: "1"}},
		{in: "aesgcm:key:with:colons", want: evidence.WriteKey{Kind: etcdvalue.KindAESGCM, Name: "key:with:colons"}},
		{in: "kms-v2:kms:key-2", want: currentKey},
		{in: "kms-v2:aws:arn:aws:kms:us-east-1:1234:key/abc", want: evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: "aws", KEKID: "arn:aws:kms:us-east-1:1234:key/abc"}},
		{in: "kms-v2:kms", wantErr: "needs a provider name and a KEK id"},
		{in: "kms-v2::key", wantErr: "needs a provider name and a KEK id"},
		{in: "identity:x", wantErr: "identity takes no name"},
		{in: "aescbc", wantErr: "needs a name"},
		{in: "rot13:x", wantErr: "unknown write key kind"},
		{in: "", wantErr: "unknown write key kind"},
	}
	for _, s := range scenarios {
		t.Run(s.in, func(t *testing.T) {
			got, err := evidence.ParseWriteKey(s.in)
			if s.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantErr) {
					t.Fatalf("got %+v, %v; want an error containing %q", got, err, s.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != s.want {
				t.Errorf("got %+v, want %+v", got, s.want)
			}
			if got.String() != s.in {
				t.Errorf("String() = %q, want %q", got.String(), s.in)
			}
		})
	}
}
