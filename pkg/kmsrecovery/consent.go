package kmsrecovery

import (
	"context"
	"fmt"
	"sort"
	"strings"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/overrides"
)

// The consent: spec.unsupportedConfigOverrides.kmsguard.confirmDataLoss = "<provider>:<KEK id>" (pkg/overrides).
// It names the lost key, not a boolean: a forgotten "confirm: true" would silently delete whatever becomes
// unreadable next month, for whatever reason (a KMS outage after a restart makes every object unreadable for a
// while). A KEK id only matches objects etcd shows were written under a key the admin has declared lost, and
// CheckConsent still refuses it while the KMS says the key is in use or cannot be asked.

// OverrideField is the path of the consent in an operator spec, for messages.
const OverrideField = overrides.ConfirmDataLossField

// ConsentFromSpec returns what spec.unsupportedConfigOverrides.kmsguard.confirmDataLoss names, "" when
// none (overrides.FromSpec). An override that is not a JSON object is an error: it must not be read as consent,
// nor hide one.
func ConsentFromSpec(spec *operatorv1.OperatorSpec) (string, error) {
	o, err := overrides.FromSpec(spec)
	return o.ConfirmDataLoss, err
}

// ConsentError says why undecryptable objects are not deleted. Reason picks the condition reason and the exit
// code of `kmsguard recover`.
type ConsentError struct {
	// Why is the reason; see the Reason constants.
	Why Reason
	// Consent is what the admin named, "" when nothing.
	Consent string
	// Found are the consent ids (Object.ConsentID) undecryptable objects are stored under.
	Found []string
	// Count is the number of undecryptable objects.
	Count int
	// Detail is the evidence behind Why: where a KEK id is in use, what is unhealthy.
	Detail string
}

func (e *ConsentError) Error() string {
	found := strings.Join(e.Found, ", ")
	switch e.Why {
	case ReasonUndecryptableObjects:
		return fmt.Sprintf("%d undecryptable objects, stored under %s; nothing is deleted without consent naming the lost key", e.Count, found)
	case ReasonConsentMismatch:
		return fmt.Sprintf("the consent names %q, but the %d undecryptable objects are stored under %s; nothing is deleted", e.Consent, e.Count, found)
	case ReasonConsentAmbiguous:
		return fmt.Sprintf("the consent names %q, the KEK id of undecryptable objects of several KMS providers (%s); name one as <provider>:<KEK id>; nothing is deleted", e.Consent, e.Detail)
	case ReasonConsentUnprovable:
		return fmt.Sprintf("the consent names %q, which is no key etcd shows the objects were written under: %s; nothing is deleted by a consent alone", e.Consent, e.Detail)
	case ReasonConsentNamesCurrentKey:
		return fmt.Sprintf("the consent names %q, a KEK id that is in use (%s): objects under it are not lost, something else keeps them from being read; nothing is deleted", e.Consent, e.Detail)
	case ReasonKMSUnhealthy:
		return fmt.Sprintf("the consent names %q, but the KMS plugins of the current keys are not known healthy (%s): an outage makes objects unreadable that are not lost; nothing is deleted until they are", e.Consent, e.Detail)
	case ReasonNotManaged:
		return fmt.Sprintf("the consent names %q, the key of %d undecryptable objects, but %s: nothing is deleted unless it is Managed", e.Consent, e.Count, e.Detail)
	default:
		return fmt.Sprintf("%s: %s", e.Why, e.Detail)
	}
}

// Reason is the condition reason.
func (e *ConsentError) Reason() Reason { return e.Why }

// Consented are the objects a consent allows to delete.
type Consented struct {
	// ConsentID is the Object.ConsentID the consent resolved to (a bare KEK id resolves to <provider>:<KEK id>).
	ConsentID string
	// Objects are the undecryptable objects stored under it.
	Objects []Object
}

// unprovable are the consent ids that name no key: UnknownConsentID (no etcd access, a value etcd no longer holds or
// that cannot be classified) and identity (plaintext that does not decode: corruption, not a lost key).
var unprovable = map[string]string{
	UnknownConsentID: "without etcd access, or for a value etcd no longer holds or cannot classify, nothing shows which key an object was written under; " +
		"read the values from etcd (kmsguard recover --etcd-*; the controller's Options.Raw) so that the consent can name a key",
	string(etcdvalue.KindIdentity): "identity values are stored unencrypted: one that does not decode is corrupt, not encrypted under a lost key",
}

// ProvableConsentIDs returns the ids of keyIDs a consent may name: all but "unknown" and "identity".
func ProvableConsentIDs(keyIDs []string) []string {
	var out []string
	for _, id := range keyIDs {
		if _, ok := unprovable[id]; !ok {
			out = append(out, id)
		}
	}
	return out
}

// CheckConsent is the one consent rule of `kmsguard recover` and the Controller. It returns the objects the
// consent allows to delete, or a *ConsentError; with nothing undecryptable it returns no objects and nil.
//
//	consent                                                  result
//	none                                                     UndecryptableObjects
//	"unknown" or "identity" (no etcd evidence of a key)      ConsentUnprovable
//	names no undecryptable object                            ConsentMatchesNoObject
//	a bare KEK id found under several KMS providers          ConsentAmbiguous
//	a KEK id a plugin serves or kmsstate has settled on      ConsentNamesCurrentKey
//	the current keys' plugins not healthy, or not known      KMSUnhealthy
//	otherwise                                                the objects under <provider>:<KEK id>
//
// A consent names "<provider>:<KEK id>" for KMS v2 values, as Findings.ConsentIDs lists them, or the bare KEK id
// when a single provider has undecryptable objects under it; "aescbc:<key name>" and the like for the other
// providers. kms may be nil only where nothing is undecryptable or no consent is given: a consent is never
// taken without the KMS view.
func CheckConsent(ctx context.Context, findings *Findings, consent string, kms KMSView) (Consented, error) {
	if findings.Count() == 0 {
		return Consented{}, nil
	}
	refuse := func(why Reason, detail string) (Consented, error) {
		return Consented{}, &ConsentError{Why: why, Consent: consent, Found: findings.ConsentIDs(), Count: findings.Count(), Detail: detail}
	}
	if consent == "" {
		return refuse(ReasonUndecryptableObjects, "")
	}
	if why, ok := unprovable[consent]; ok {
		return refuse(ReasonConsentUnprovable, why)
	}
	matched := map[string][]Object{}
	for _, o := range findings.Objects() {
		if o.ConsentID == consent || (o.Kind == etcdvalue.KindKMSv2 && o.KEKID == consent) {
			matched[o.ConsentID] = append(matched[o.ConsentID], o)
		}
	}
	switch len(matched) {
	case 0:
		return refuse(ReasonConsentMismatch, "")
	case 1:
	default:
		ids := make([]string, 0, len(matched))
		for id := range matched {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		return refuse(ReasonConsentAmbiguous, strings.Join(ids, ", "))
	}
	var chosen Consented
	for id, objects := range matched {
		chosen = Consented{ConsentID: id, Objects: objects}
	}
	if kms == nil {
		return refuse(ReasonKMSUnhealthy, "no view of the KMS plugins is configured")
	}
	snapshot, err := kms.KMSSnapshot(ctx)
	if err != nil {
		return refuse(ReasonKMSUnhealthy, err.Error())
	}
	if chosen.Objects[0].Kind == etcdvalue.KindKMSv2 {
		if uses := snapshot.currentUse(chosen.Objects[0].KEKID); len(uses) > 0 {
			return refuse(ReasonConsentNamesCurrentKey, strings.Join(uses, ", "))
		}
	}
	if snapshot.Unhealthy != nil {
		return refuse(ReasonKMSUnhealthy, snapshot.Unhealthy.Error())
	}
	return chosen, nil
}
