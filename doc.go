// Package kmsguard is the documentation root of kmsguard: a library of library-go style controllers that keep
// an OpenShift control plane alive and honest when it encrypts etcd data with an external KMS (KMS v2). It
// holds no code; the packages are:
//
//	pkg/kmsstate          detects: per node and per key KMS health, KEK id rotations; the Reader the others consume
//	pkg/kmsprecondition   gates: no static-pod revision that adds or drops an encryption key without evidence
//	pkg/kmsrollback       reverts: a revision whose KMS config makes kube-apiservers fail
//	pkg/kmsrecovery       recovers: deletes the objects of a lost key, with consent naming it
//	pkg/kmsmigration      migrates and proves: rewrites old objects, proves the result from raw etcd values
//
// and their building blocks pkg/encryptionconfig, pkg/etcdvalue, pkg/etcdclient, pkg/overrides,
// pkg/encryptionstatus, pkg/kmsplugin/pluginprobe (the node-side plugin prober) and pkg/kmsplugin/fake. The
// README shows how they talk to each other.
//
// # Glossary
//
// These words mean one thing in every package, type, field, flag, JSON key, condition and consent:
//
//   - key id: the number of one of library-go's encryption key secrets, encryption-key-<component>-<n>. For a
//     KMS key it is also the <n> of the plugin socket unix:///var/run/kmsplugin/kms-<n>.sock and of the
//     provider name library-go writes. It names a key in the encryption config. Fields: KeyID, KeyIDs; JSON
//     keyID; operator API: KMSPluginHealthReport.KeyID; metrics label key_id.
//   - KEK id: the id of the remote key encryption key a KMS v2 plugin returns from Status and Encrypt
//     (upstream's "key_id"), which kube-apiserver stores in every value it writes (EncryptedObject.keyID). The
//     KMS can change it behind the same key id: a rotation. Fields: KEKID; JSON kekID; flag --kek-id; operator
//     API: KMSPluginHealthReport.RemoteKeyID. kube-apiserver's metrics carry only its hash (key_id_hash,
//     kmsstate.KEKIDHash).
//   - write key: the first provider of a resource's entry in the encryption config, what kube-apiserver
//     writes with; for KMS v2 together with the KEK id its plugin returns (evidence.WriteKey).
//   - read key: any provider of the entry; a value written under one becomes unreadable when the config stops
//     listing it (evidence.ReadKey, evidence.CanDropReadKey).
//   - consent id: what a lost-key recovery consent names, the key an undecryptable object was written under:
//     <provider>:<KEK id> for a KMS v2 value, <kind>:<name> for aescbc, aesgcm and secretbox
//     (kmsrecovery.Object.ConsentID).
package kmsguard
