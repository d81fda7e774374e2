package evidence

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
)

// WriteKeyOf is what values written with a config's key record: its kind and name, and for KMS v2 the KEK id
// the provider's plugin returns, which no config holds (kekID; ignored for other kinds, whose values record
// none). It is the one translation from an encryption config's key to the evidence's.
func WriteKeyOf(key encryptionconfig.StorageKey, kekID string) WriteKey {
	w := WriteKey{Kind: key.Kind, Name: key.Name}
	if key.Kind == etcdvalue.KindIdentity {
		w.Name = ""
	}
	if key.Kind == etcdvalue.KindKMSv2 {
		w.KEKID = kekID
	}
	return w
}

// WriteKeyFromConfig is the write key of resources under an EncryptionConfiguration (as encryptionconfig.Decode
// returns it): the first key of each resource's first provider, its entry found as kube-apiserver finds it (the
// resource's own, else "*.<group>", else "*.*"; encryptionconfig.KeysFor). The resources must share it, since a
// a census counts values against one write key.
//
// A KMS v2 value also records the KEK id its plugin returned, which no config holds: kekID is that id, as the
// plugin's Status reports it, and is required for a KMS v2 write provider (*MissingKEKIDError) and refused for
// any other, whose values record none (*UnusedKEKIDError). A resource no entry covers is stored unencrypted and
// has no write key to verify (*ResourceNotEncryptedError).
func WriteKeyFromConfig(config *apiserverv1.EncryptionConfiguration, resources []schema.GroupResource, kekID string) (WriteKey, error) {
	switch {
	case config == nil:
		return WriteKey{}, errors.New("no encryption config")
	case len(resources) == 0:
		return WriteKey{}, errors.New("no resources to find the write key of")
	}
	var want *WriteKey
	for _, gr := range resources {
		keys, found := encryptionconfig.KeysFor(config, gr)
		if !found {
			return WriteKey{}, &ResourceNotEncryptedError{Resource: gr}
		}
		key, ok := keys.WriteKey()
		if !ok {
			return WriteKey{}, fmt.Errorf("%s: the entry %q has no provider", gr, keys.Resource)
		}
		if key.Kind == etcdvalue.KindKMSv2 && kekID == "" {
			return WriteKey{}, &MissingKEKIDError{Resource: gr, Entry: keys.Resource, Provider: key.Name}
		}
		w := WriteKeyOf(key, kekID)
		if err := w.Validate(); err != nil {
			return WriteKey{}, fmt.Errorf("%s (entry %q): %w", gr, keys.Resource, err)
		}
		if want != nil && *want != w {
			return WriteKey{}, fmt.Errorf("the resources have different write providers (%s, %s): verify them one at a time", *want, w)
		}
		want = &w
	}
	if kekID != "" && want.Kind != etcdvalue.KindKMSv2 {
		return WriteKey{}, &UnusedKEKIDError{WriteKey: *want}
	}
	return *want, nil
}

// ResourceNotEncryptedError: no entry of the config covers the resource, so kube-apiserver stores it unencrypted
// and there is no write key to verify.
type ResourceNotEncryptedError struct {
	Resource schema.GroupResource
}

func (e *ResourceNotEncryptedError) Error() string {
	return fmt.Sprintf("the encryption config does not encrypt %s", e.Resource)
}

// MissingKEKIDError: the resource's write provider is KMS v2, and no KEK id was given. Without it every value of
// the provider would count as current, including those under a KEK the KMS rotated away from.
type MissingKEKIDError struct {
	Resource schema.GroupResource
	// Entry is the config's resource string the provider was found under ("secrets", "*.apps", "*.*").
	Entry string
	// Provider is the KMS v2 provider's name.
	Provider string
}

func (e *MissingKEKIDError) Error() string {
	return fmt.Sprintf("%s (entry %q): the write provider is KMS v2 %q, whose values record the KEK id its plugin returned, which no config holds: its current KEK id is needed",
		e.Resource, e.Entry, e.Provider)
}

// UnusedKEKIDError: a KEK id was given, but the write provider is not KMS v2 and its values record none; the
// KEK id was meant for another config or resource.
type UnusedKEKIDError struct {
	WriteKey WriteKey
}

func (e *UnusedKEKIDError) Error() string {
	return fmt.Sprintf("a KEK id was given, but the write provider is %s, whose values record none", e.WriteKey)
}
