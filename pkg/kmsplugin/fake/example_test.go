package fake_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"sigs.k8s.io/yaml"

	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
)

// This example starts one node's plugin and writes the EncryptionConfiguration
// that points a kube-apiserver at it. An e2e test would write the YAML to the
// file named by --encryption-provider-config.
func Example() {
	// Keep the directory short: unix socket paths are limited to about
	// 108 bytes.
	dir, err := os.MkdirTemp("", "kms")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	kms := fake.NewKMS()
	plugin := fake.NewPlugin(kms, filepath.Join(dir, "kms.sock"))
	if err := plugin.Start(); err != nil {
		panic(err)
	}
	defer plugin.Stop()

	config := apiserverv1.EncryptionConfiguration{
		TypeMeta: metav1.TypeMeta{APIVersion: "apiserver.config.k8s.io/v1", Kind: "EncryptionConfiguration"},
		Resources: []apiserverv1.ResourceConfiguration{{
			Resources: []string{"secrets"},
			Providers: []apiserverv1.ProviderConfiguration{
				{KMS: &apiserverv1.KMSConfiguration{
					APIVersion: "v2",
					Name:       "fake",
					Endpoint:   plugin.Endpoint(),
					Timeout:    &metav1.Duration{Duration: 3 * time.Second},
				}},
				// identity lets the apiserver read data written before
				// encryption was turned on.
				{Identity: &apiserverv1.IdentityConfiguration{}},
			},
		}},
	}
	out, err := yaml.Marshal(config)
	if err != nil {
		panic(err)
	}
	// The directory is random; hide it so the output is stable.
	fmt.Print(strings.ReplaceAll(string(out), dir, "$DIR"))

	// Output:
	// apiVersion: apiserver.config.k8s.io/v1
	// kind: EncryptionConfiguration
	// resources:
	// - providers:
	//   - kms:
	//       apiVersion: v2
	//       endpoint: unix://$DIR/kms.sock
	//       name: fake
	//       timeout: 3s
	//   - identity: {}
	//   resources:
	//   - secrets
}

// This example shows the key operations a test uses to drive the key
// encryption key through its life; every plugin sharing the KMS sees them.
func ExampleKMS() {
	kms := fake.NewKMS()
	fmt.Println("current:", kms.CurrentKEKID())

	old := kms.CurrentKEKID()
	fmt.Println("rotated to:", kms.Rotate())

	// A disabled key can come back; a destroyed one cannot.
	fmt.Println("disable:", kms.Disable(old))
	fmt.Println("restore:", kms.Restore(old))
	fmt.Println("destroy:", kms.Destroy(old))
	fmt.Println("restore:", kms.Restore(old))

	// Output:
	// current: key-1
	// rotated to: key-2
	// disable: <nil>
	// restore: <nil>
	// destroy: <nil>
	// restore: rpc error: code = NotFound desc = fake kms: key "key-1" has been destroyed
}
