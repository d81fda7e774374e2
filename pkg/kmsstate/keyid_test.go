package kmsstate

import "testing"

func TestKeyIDHash(t *testing.T) {
	scenarios := []struct {
		name  string
		keyID string
		want  string
	}{
		{
			// The fake plugin's first key id, as a real kube-apiserver v1.36 published it.
			name:  "as kube-apiserver publishes it",
			keyID: "key-1",
			want:  "sha256:be2974546978e3739e6d6da85c4be9f334ce32df2b9fd4b6ff1b55c0d57e9d44",
		},
		{
			name:  "SHA-256 test vector",
			keyID: "abc",
			want:  "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		},
		{
			// kube-apiserver's getHash returns "" rather than the hash of nothing.
			name:  "empty key id",
			keyID: "",
			want:  "",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			if got := KEKIDHash(s.keyID); got != s.want {
				t.Errorf("KEKIDHash(%q) = %q, want %q", s.keyID, got, s.want)
			}
		})
	}
}
