package etcdvalue_test

import (
	"testing"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
)

// BenchmarkParse measures Parse on the values a migration verifier reads
// for every key in etcd. The KMS v2 values are the shape kube-apiserver
// writes for a small Secret: about 1 KiB of ciphertext, a cloud KMS key
// name as key ID and a 256-byte wrapped seed.
func BenchmarkParse(b *testing.B) {
	typical := validObject()
	typical.EncryptedData = aesPayload(1024)
	typical.EncryptedDEKSource = aesPayload(256)
	annotated := validObject()
	annotated.EncryptedData = aesPayload(1024)
	annotated.EncryptedDEKSource = aesPayload(256)
	annotated.Annotations = map[string][]byte{
		"version.kms.example.com":   []byte("3"),
		"algorithm.kms.example.com": []byte("RSA_OAEP_256"),
	}

	benchmarks := []struct {
		name string
		raw  []byte
	}{
		{name: "kms-v2", raw: kmsv2Value("kms-provider", marshal(b, typical))},
		{name: "kms-v2 with annotations", raw: kmsv2Value("kms-provider", marshal(b, annotated))},
		{name: "aescbc", raw: encrypted("aescbc:v1:", "1", aesPayload(1056))},
		{name: "identity", raw: append([]byte("k8s\x00"), aesPayload(1024)...)},
	}

	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bm.raw)))
			for b.Loop() {
				if _, err := etcdvalue.Parse(bm.raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
