package main

import (
	"fmt"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
)

// keyIDFromSocket returns the encryption-key secret id of one of library-go's plugin sockets, e.g. "1" for
// unix:///var/run/kmsplugin/kms-1.sock. library-go's reporter accepts only such sockets, and so does this
// one, so that both report under the same key ids.
func keyIDFromSocket(socket string) (string, error) {
	id, ok := encryptionconfig.KMSKeyIDFromEndpoint(socket)
	if !ok {
		return "", fmt.Errorf("--kms-sockets entry %q does not match unix:///var/run/kmsplugin/kms-<id>.sock", socket)
	}
	return id, nil
}
