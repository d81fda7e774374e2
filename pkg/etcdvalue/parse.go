package etcdvalue

import (
	"bytes"
	"unicode/utf8"
)

// Parse classifies raw, a value as stored in etcd by kube-apiserver under
// its resource prefix (for example /registry/secrets/<namespace>/<name>).
//
// Parse decrypts nothing and needs no key material. It never panics, does
// not retain raw, and never copies payload bytes into the Value or the
// error. Every error is a *ParseError wrapping ErrMalformed or
// ErrUnknownFormat.
func Parse(raw []byte) (Value, error) {
	if len(raw) == 0 {
		return Value{}, malformed("", "value is empty")
	}
	if bytes.HasPrefix(raw, encryptedPrefix) {
		return parseEncrypted(raw[len(encryptedPrefix):])
	}
	if isSerializedObject(raw) {
		return Value{Kind: KindIdentity}, nil
	}
	if bytes.HasPrefix(encryptedPrefix, raw) {
		// Too short to be anything but a value cut short, encrypted or not.
		return Value{}, malformed("", "value is %d bytes, cut short inside the encryption prefix", len(raw))
	}
	return Value{}, unknownFormat("value has no encryption prefix and does not start like a protobuf, JSON or CBOR object")
}

// parseEncrypted classifies rest, a value with encryptedPrefix removed.
func parseEncrypted(rest []byte) (Value, error) {
	format, ok := lookupFormat(rest)
	if !ok {
		// A complete "<provider>:<version>:" that is not one of ours was
		// written by some other kube-apiserver; anything less is cut short.
		if _, version, found := bytes.Cut(rest, []byte(":")); found && bytes.IndexByte(version, ':') >= 0 {
			return Value{}, unknownFormat("unknown encryption provider or version")
		}
		return Value{}, malformed("", "encryption prefix is cut short before the provider version")
	}

	name, payload, err := splitName(format.kind, rest[len(format.marker):])
	if err != nil {
		return Value{}, err
	}

	v := Value{Kind: format.kind}
	if format.kind == KindKMSv2 {
		obj, err := decodeEncryptedObject(payload)
		if err != nil {
			return Value{}, err
		}
		v.KEKID = string(obj.keyID)
		v.DEKSourceType = obj.dekSourceType()
	} else if len(payload) < format.minPayload {
		return Value{}, malformed(format.kind, "payload is %d bytes, shorter than the %d bytes every %s value has",
			len(payload), format.minPayload, format.kind)
	}
	// Converted only now: a malformed value costs no allocation for its name.
	v.Name = string(name)
	return v, nil
}

// splitName splits rest, the part of a value after its provider marker, into
// the name and the payload that follows the ':' ending the name.
func splitName(kind Kind, rest []byte) (name, payload []byte, err error) {
	// Names are never empty. KMS v2 names cannot contain ':', so the first
	// ':' ends the name. Other names can (see the package documentation);
	// for them a ':' in the first byte belongs to the name, and the first
	// one after it is taken as the end.
	from := 1
	if kind == KindKMSv2 {
		from = 0
	}
	end := -1
	if len(rest) > from {
		end = bytes.IndexByte(rest[from:], ':')
	}
	if end < 0 {
		return nil, nil, malformed(kind, "prefix is cut short: no ':' ends the name")
	}
	end += from
	if end == 0 {
		return nil, nil, malformed(kind, "name is empty")
	}
	name = rest[:end]
	// kube-apiserver reads names from its encryption configuration, which
	// is decoded from YAML or JSON into Go strings and is therefore valid
	// UTF-8. Checking this keeps a corrupt prefix from passing ciphertext
	// off as a name.
	if !utf8.Valid(name) {
		return nil, nil, malformed(kind, "name of %d bytes is not valid UTF-8", len(name))
	}
	return name, rest[end+1:], nil
}
