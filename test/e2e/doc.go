// Package e2e tests kmsguard against a real kube-apiserver and etcd (test/kmsenv) that encrypt through the
// fake KMS v2 plugin (pkg/kmsplugin/fake). Run it with `make test-e2e`, which builds the binaries first.
package e2e
