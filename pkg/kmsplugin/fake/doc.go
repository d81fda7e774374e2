// Package fake provides a real, in-process KMS v2 plugin for tests, with
// fault injection.
//
// A kube-apiserver configured with a "kms" provider of apiVersion v2 talks
// gRPC over a unix socket to a plugin, and the plugin talks to a remote key
// management service that holds the key encryption keys. This package keeps
// those two roles apart so that tests can model an OpenShift control plane
// faithfully: one KMS (the cloud service) shared by several Plugins (one per
// simulated control-plane node).
//
//   - KMS holds the keys. Tests rotate, disable, restore and destroy keys on
//     it, and every plugin that shares it sees the change at once, as nodes
//     sharing a cloud key would.
//   - Plugin is the per-node gRPC server. Tests make a single node's plugin
//     die (Stop), report itself unhealthy (SetUnhealthy), fail every call
//     (FailWith), answer one method with a gRPC status of its choosing
//     (FailMethodWith) or answer slowly (SetLatency), and count the calls the
//     apiserver made to it (Calls).
//
// Encryption is real AES-256-GCM, so a ciphertext written through one plugin
// can be read back through any other plugin sharing the KMS, and tampered
// ciphertext is rejected. Key material is generated with crypto/rand, lives in
// memory only, and is never logged, printed or returned in an error.
//
// KMS errors carry gRPC status codes chosen to mirror how cloud KMS services
// fail: a disabled key is FailedPrecondition, a destroyed or unknown key is
// NotFound, and a ciphertext that does not authenticate is InvalidArgument.
// The reasoning is given beside each error constructor.
package fake
