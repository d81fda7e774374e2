package main

import (
	"fmt"
	"regexp"
)

// This file repeats unexported pieces of library-go's kms-health-reporter
// (pkg/operator/encryption/kms/health), which `kmsguard health-reporter` must
// match exactly to be a drop-in replacement for it. Exporting them from
// library-go (a KMSSocketPattern variable in package health) would remove these copies. Importing that package only
// for its exported Subcommand constant is avoided on purpose: it links
// k8s.io/apiserver/pkg/server, a large dependency this binary otherwise has
// no use for.

// kmsSocketPattern is the endpoint of a KMS plugin that library-go's plugin
// lifecycle controller co-locates with an apiserver; the capture is the id of
// the encryption-key secret the plugin serves. A copy of library-go's
// health.kmsSocketPattern (options.go, cmd.go).
var kmsSocketPattern = regexp.MustCompile(`^unix:///var/run/kmsplugin/kms-(\d+)\.sock$`)

// keyIDFromSocket returns the encryption-key secret id of a socket that
// matches kmsSocketPattern, e.g. "1" for unix:///var/run/kmsplugin/kms-1.sock.
func keyIDFromSocket(socket string) (string, error) {
	m := kmsSocketPattern.FindStringSubmatch(socket)
	if m == nil {
		return "", fmt.Errorf("--kms-sockets entry %q does not match %s", socket, kmsSocketPattern)
	}
	return m[1], nil
}
