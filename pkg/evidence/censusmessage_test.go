package evidence

import (
	"fmt"
	"testing"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
)

// TestDescribeResource: the line of KMSEncryptionVerified's message for one resource, as an admin reads it. The
// controller's tests assert the report it is made of; this is the wording.
func TestDescribeResource(t *testing.T) {
	writeKey := WriteKey{Kind: etcdvalue.KindKMSv2, Name: "1_secrets", KEKID: "kek-b"}
	seven := make([]string, 7)
	for i := range seven {
		seven[i] = fmt.Sprintf("/registry/secrets/a/%d", i)
	}
	scenarios := []struct {
		name   string
		report ResourceReport
		want   string
	}{
		{
			name:   "every value under the write key",
			report: ResourceReport{Resource: "secrets", Total: 2, UnderWriteKey: 2},
			want:   "secrets: 2/2 under kms-v2:1_secrets:kek-b",
		},
		{
			name: "values under other keys: the first five are named",
			report: ResourceReport{Resource: "secrets", Total: 9, UnderWriteKey: 2, NotUnderWriteKey: 7,
				NotUnderWriteKeyListed: seven},
			want: "secrets: 2/9 under kms-v2:1_secrets:kek-b, 7 under other keys (first: /registry/secrets/a/0, /registry/secrets/a/1, /registry/secrets/a/2, /registry/secrets/a/3, /registry/secrets/a/4)",
		},
		{
			name:   "unparsable values",
			report: ResourceReport{Resource: "secrets", Total: 3, UnderWriteKey: 2, Corrupt: 1},
			want:   "secrets: 2/3 under kms-v2:1_secrets:kek-b, 1 unparsable",
		},
		{
			name: "sampled objects the API could not return",
			report: ResourceReport{Resource: "secrets", Total: 2, UnderWriteKey: 2,
				Samples: []SampleResult{{Key: "/registry/secrets/a/0", Error: "Internal error occurred: failed to decrypt"}, {Key: "/registry/secrets/a/1"}}},
			want: "secrets: 2/2 under kms-v2:1_secrets:kek-b, 1 of 2 sampled objects failed to read through the API",
		},
	}
	for _, s := range scenarios {
		if got := describeResource(&s.report, writeKey); got != s.want {
			t.Errorf("%s:\n got %s\nwant %s", s.name, got, s.want)
		}
	}
}
