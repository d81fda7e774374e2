package evidence

import (
	"fmt"
	"strings"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
)

// Key is what a stored value was written under, as far as its bytes tell: the transformer kind, the provider
// name (KMS) or key name (aescbc, aesgcm, secretbox), and for KMS v2 the KEK id and DEK source type.
// Values are counted per Key, so the number of counters is the number of distinct keys, not of objects.
type Key struct {
	Kind etcdvalue.Kind `json:"kind"`
	Name string         `json:"name,omitempty"`
	// KEKID is the KMS v2 KEK id; empty for other kinds.
	KEKID string `json:"kekID,omitempty"`
	// DEKSourceType is set for KMS v2 values only. kube-apiserver treats a value whose DEK source type
	// differs from what it writes as stale and rewrites it on update, so it is part of the key.
	DEKSourceType etcdvalue.DEKSourceType `json:"dekSourceType,omitempty"`
}

// keyOf is the Key of a parsed value.
func keyOf(v etcdvalue.Value) Key {
	return Key{Kind: v.Kind, Name: v.Name, KEKID: v.KEKID, DEKSourceType: v.DEKSourceType}
}

// String formats k in the syntax ParseWriteKey reads.
func (k Key) String() string {
	switch {
	case k.Kind == etcdvalue.KindIdentity:
		return string(k.Kind)
	case k.Kind == etcdvalue.KindKMSv2 && k.KEKID != "":
		return fmt.Sprintf("%s:%s:%s", k.Kind, k.Name, k.KEKID)
	default:
		return fmt.Sprintf("%s:%s", k.Kind, k.Name)
	}
}

// WriteKey is what "current" means: the first provider of the resource's encryption config and, for KMS v2,
// the KEK id its plugin's Status reports. Only values written by exactly that count as migrated.
type WriteKey struct {
	Kind  etcdvalue.Kind `json:"kind"`
	Name  string         `json:"name,omitempty"`
	KEKID string         `json:"kekID,omitempty"`
}

// String formats w in the syntax ParseWriteKey reads.
func (w WriteKey) String() string { return Key{Kind: w.Kind, Name: w.Name, KEKID: w.KEKID}.String() }

// Validate checks that w names one key kube-apiserver can write with. A KMS v2 write key needs its KEK id:
// without it every value of the provider would count as current, including those under a rotated-away key.
func (w WriteKey) Validate() error {
	switch w.Kind {
	case etcdvalue.KindIdentity:
		if w.Name != "" || w.KEKID != "" {
			return fmt.Errorf("identity write key has no name or KEK id")
		}
	case etcdvalue.KindKMSv2:
		if w.Name == "" || w.KEKID == "" {
			return fmt.Errorf("kms-v2 write key needs a provider name and a KEK id")
		}
		if strings.Contains(w.Name, ":") {
			return fmt.Errorf("kms-v2 provider name %q contains ':', which kube-apiserver rejects", w.Name)
		}
	case etcdvalue.KindAESCBC, etcdvalue.KindAESGCM, etcdvalue.KindSecretbox, etcdvalue.KindKMSv1:
		if w.Name == "" || w.KEKID != "" {
			return fmt.Errorf("%s write key needs a name and no KEK id", w.Kind)
		}
	default:
		return fmt.Errorf("unknown write key kind %q", w.Kind)
	}
	return nil
}

// Covers reports whether a value stored under k was written by w. A KMS v2 value must also carry the DEK
// source type current kube-apiserver releases write (locked since 1.29); an older one is stale to
// kube-apiserver and will be rewritten by a migration, so it is not migrated yet.
func (w WriteKey) Covers(k Key) bool {
	if k.Kind != w.Kind || k.Name != w.Name || k.KEKID != w.KEKID {
		return false
	}
	return k.Kind != etcdvalue.KindKMSv2 || k.DEKSourceType == etcdvalue.DEKSourceHKDFSeed
}

// ReadKey is a key that an encryption config may stop listing: a provider entry (kind and name). For KMS v2 a
// KeyID narrows it to one KEK id of the provider (a key the KMS is to retire); empty means the whole provider,
// which is what removing the provider from the config drops.
type ReadKey struct {
	Kind  etcdvalue.Kind `json:"kind"`
	Name  string         `json:"name,omitempty"`
	KEKID string         `json:"kekID,omitempty"`
}

// String formats r in the syntax ParseWriteKey reads.
func (r ReadKey) String() string { return Key{Kind: r.Kind, Name: r.Name, KEKID: r.KEKID}.String() }

// Covers reports whether a value stored under k can only be read with r.
func (r ReadKey) Covers(k Key) bool {
	if k.Kind != r.Kind || k.Name != r.Name {
		return false
	}
	return r.KEKID == "" || k.KEKID == r.KEKID
}

// ParseWriteKey reads the command-line syntax of a write key:
//
//	identity
//	aescbc:<key name>     (also aesgcm, secretbox, kms-v1: <provider name>)
//	kms-v2:<provider name>:<KEK id>
//
// KMS v2 provider names cannot contain ':', so everything after the second ':' is the KEK id, which may
// contain ':' (cloud KEK ids often do). Names of the other kinds may contain ':' and take the rest.
func ParseWriteKey(s string) (WriteKey, error) {
	kind, rest, _ := strings.Cut(s, ":")
	w := WriteKey{Kind: etcdvalue.Kind(kind)}
	switch w.Kind {
	case etcdvalue.KindIdentity:
		if rest != "" {
			return WriteKey{}, fmt.Errorf("write key %q: identity takes no name", s)
		}
	case etcdvalue.KindKMSv2:
		w.Name, w.KEKID, _ = strings.Cut(rest, ":")
	default:
		w.Name = rest
	}
	if err := w.Validate(); err != nil {
		return WriteKey{}, fmt.Errorf("write key %q: %w (want identity, <kind>:<name> or kms-v2:<provider>:<KEK id>)", s, err)
	}
	return w, nil
}
