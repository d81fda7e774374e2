package lab

import "testing"

// TestVerifiedUnder: a KMSEncryptionVerified message counts as proof under a key only when every resource's line
// names a write key of that library-go key and, when asked, at that KEK id; a key id is not matched as a prefix of
// another ("3" is not "31").
func TestVerifiedUnder(t *testing.T) {
	const kms = "secrets: 362/362 under kms-v2:3_secrets:kek-2\nconfigmaps: 40/40 under kms-v2:3_configmaps:kek-2"
	for _, tc := range []struct {
		name, message, keyID, kekID string
		want                        bool
	}{
		{name: "key and KEK", message: kms, keyID: "3", kekID: "kek-2", want: true},
		{name: "key only", message: kms, keyID: "3", want: true},
		{name: "KEK only", message: kms, kekID: "kek-2", want: true},
		{name: "another KEK", message: kms, keyID: "3", kekID: "kek-3"},
		{name: "another key", message: kms, keyID: "2"},
		{name: "a key id that is a prefix", message: "secrets: 5/5 under kms-v2:31_secrets:kek-2", keyID: "3"},
		{name: "one resource under another key", message: "secrets: 362/362 under kms-v2:3_secrets:kek-2\nconfigmaps: 40/40 under aescbc:2", keyID: "3"},
		{name: "aescbc", message: "secrets: 10/10 under aescbc:2\nconfigmaps: 4/4 under aescbc:2", keyID: "2", want: true},
		{name: "aescbc asked for a KEK", message: "secrets: 10/10 under aescbc:2", keyID: "2", kekID: "kek-2"},
		{name: "counts after the key", message: "secrets: 360/362 under kms-v2:3_secrets:kek-2, 2 under other keys (first: /registry/secrets/a/b)", keyID: "3", kekID: "kek-2", want: true},
		{name: "no resource line", message: "no resource is encrypted", keyID: "3"},
		{name: "empty", message: "", kekID: "kek-2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := verifiedUnder(tc.message, tc.keyID, tc.kekID); got != tc.want {
				t.Errorf("verifiedUnder(%q, key %q, KEK %q) = %v, want %v", tc.message, tc.keyID, tc.kekID, got, tc.want)
			}
		})
	}
}
