package kmsrecovery

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	operatorv1 "github.com/openshift/api/operator/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/kmsguard/kmsguard/internal/conditions"
)

// ConditionDegraded is the controller's condition. Its suffix makes library-go's status controllers roll it
// into the ClusterOperator's Degraded.
const ConditionDegraded = "KMSRecoveryDegraded"

// Reason is the reason of KMSRecoveryDegraded.
type Reason string

const (
	// ReasonAsExpected: no object of the encrypted resources is undecryptable.
	ReasonAsExpected Reason = conditions.ReasonAsExpected
	// ReasonUndecryptableObjects: objects are undecryptable and no consent names their key.
	ReasonUndecryptableObjects Reason = "UndecryptableObjects"
	// ReasonConsentMismatch: the consent names a key no undecryptable object is stored under.
	ReasonConsentMismatch Reason = "ConsentMatchesNoObject"
	// ReasonConsentAmbiguous: the consent names a bare KEK id that undecryptable objects of several KMS
	// providers are stored under; it must name one as <provider>:<KEK id>.
	ReasonConsentAmbiguous Reason = "ConsentAmbiguous"
	// ReasonConsentUnprovable: the consent names "unknown" or "identity": no etcd evidence shows a key the
	// objects were written under, so nothing tells them from objects an outage or corruption made unreadable.
	ReasonConsentUnprovable Reason = "ConsentUnprovable"
	// ReasonConsentNamesCurrentKey: the consent names a KEK id a plugin serves or kmsstate has settled on: the
	// key is not lost.
	ReasonConsentNamesCurrentKey Reason = "ConsentNamesCurrentKey"
	// ReasonKMSUnhealthy: the plugins of the current keys are not healthy on every node, or their health is
	// unknown: a KMS outage makes objects unreadable that are not lost, so a consent waits.
	ReasonKMSUnhealthy Reason = "KMSUnhealthy"
	// ReasonDeletionFailed: with consent, some deletes failed (RBAC, feature gate, ...).
	ReasonDeletionFailed Reason = "DeletionFailed"
	// ReasonNotManaged: the consent would delete objects, but spec.managementState is not Managed: nothing is
	// deleted (and the ConfigMap is not written) until it is.
	ReasonNotManaged Reason = "ConsentNotActedOnOperatorNotManaged"
)

// controllerName names ConditionControllerDegraded.
const controllerName = "KMSRecovery"

// ConditionControllerDegraded is True with the error while a sync fails (a scan fails, the ConfigMap cannot be
// written), as library-go's encryption controllers report theirs; False once a sync succeeds.
var ConditionControllerDegraded = conditions.ControllerDegradedType(controllerName)

// Events emitted by the controller besides the Deleter's.
const (
	// EventUndecryptableObjects (Warning) when KMSRecoveryDegraded turns True or changes reason.
	EventUndecryptableObjects = "UndecryptableObjectsFound"
	// EventRecovered when it turns False again.
	EventRecovered = "UndecryptableObjectsResolved"
)

// maxListedInMessage is how many objects a message names.
const maxListedInMessage = 20

// verdict is what one sync found and did: the typed data KMSRecoveryDegraded is rendered from (condition). The
// controller keeps the last one it applied.
type verdict struct {
	// Findings are the undecryptable objects left after any deletion of the sync.
	Findings *Findings
	// Consent is what the admin named, "" when nothing; ConsentErr is CheckConsent's refusal of it (a
	// *ConsentError), nil when nothing is undecryptable or the consent deleted.
	Consent    string
	ConsentErr error
	// Deletion is the last deletion run of this process, nil when none ran; DeletedNow says this sync ran it.
	Deletion   *DeletionReport
	DeletedNow bool
	// Recreated are the objects Deletion deleted that a scan has listed since.
	Recreated sets.Set[ObjectRef]
	// RecordErr is why the ConfigMap with the full list could not be written, nil when it was (or had nothing to
	// hold, or the operator is not Managed).
	RecordErr error
}

// condition renders KMSRecoveryDegraded from a verdict.
func (c *Controller) condition(v verdict) operatorv1.OperatorCondition {
	findings, consent, consentErr, deletion := v.Findings, v.Consent, v.ConsentErr, v.Deletion
	listed := "the full list is in " + c.configMapRef()
	if v.RecordErr != nil {
		listed = fmt.Sprintf("the full list could not be written to %s (%v); `kmsguard recover` lists them", c.configMapRef(), v.RecordErr)
	}
	cond := operatorv1.OperatorCondition{Type: ConditionDegraded, Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected)}
	var parts []string
	switch {
	case findings.Count() == 0:
		parts = append(parts, fmt.Sprintf("no undecryptable objects in %s", c.resourceNames()))
	case v.DeletedNow && deletion != nil && deletion.Count(OutcomeFailed) > 0:
		cond.Status, cond.Reason = operatorv1.ConditionTrue, string(ReasonDeletionFailed)
		parts = append(parts, fmt.Sprintf("%d undecryptable objects remain (%s); %d deletes failed: %s; %s",
			findings.Count(), findings.Summary(), deletion.Count(OutcomeFailed), failures(deletion), listed))
	default:
		reason := ReasonUndecryptableObjects
		var refusal *ConsentError
		if errors.As(consentErr, &refusal) {
			reason = refusal.Reason()
		}
		cond.Status, cond.Reason = operatorv1.ConditionTrue, string(reason)
		parts = append(parts, fmt.Sprintf("%d objects cannot be decrypted: %s; %s. Their data is lost unless the key is restored in the KMS",
			findings.Count(), findings.Summary(), listed))
		switch reason {
		case ReasonUndecryptableObjects:
		case ReasonConsentMismatch:
			parts = append(parts, fmt.Sprintf("%s names key %q, which no undecryptable object is stored under", OverrideField, consent))
		default:
			parts = append(parts, OverrideField+": "+refusal.Error())
		}
		if provable := ProvableConsentIDs(findings.ConsentIDs()); len(provable) > 0 {
			parts = append(parts, fmt.Sprintf("to delete the objects of a lost key (KEP-3926 unsafe delete; operators recreate what they own), set %s to its key, one of %s",
				OverrideField, strings.Join(provable, ", ")))
		}
		if len(ProvableConsentIDs(findings.ConsentIDs())) < len(findings.ConsentIDs()) {
			parts = append(parts, "objects under unknown or identity cannot be deleted by a consent: etcd does not show a lost key behind them")
		}
		if findings.EtcdUnreadable != "" {
			parts = append(parts, fmt.Sprintf("no stored value could be read (%s): run `kmsguard recover` on a control-plane node with its copy of the etcd client credentials (runbook UndecryptableObjects); this controller scans again as soon as it can read etcd",
				findings.EtcdUnreadable))
		}
	}
	if deletion != nil {
		parts = append(parts, deletionMessage(deletion, v.Recreated))
	}
	cond.Message = conditions.Truncate(strings.Join(parts, "; "))
	return cond
}

// deletionMessage reports the last deletion run and which deleted objects came back.
func deletionMessage(deletion *DeletionReport, recreated sets.Set[ObjectRef]) string {
	deleted := deletion.Count(OutcomeDeleted)
	msg := fmt.Sprintf("at %s %s", deletion.Time.Format("2006-01-02T15:04:05Z"), deletion)
	if deleted == 0 {
		return msg
	}
	var notBack, expected []string
	for _, r := range deletion.Results {
		if r.Outcome != OutcomeDeleted || recreated.Has(r.ObjectRef) {
			continue
		}
		if r.OperatorManaged {
			expected = append(expected, r.ObjectRef.String())
		} else {
			notBack = append(notBack, r.ObjectRef.String())
		}
	}
	msg += fmt.Sprintf("; %d of %d deleted objects have been recreated", recreated.Len(), deleted)
	if len(expected) > 0 {
		msg += fmt.Sprintf("; not yet recreated by their operators: %s", list(expected))
	}
	if len(notBack) > 0 {
		msg += fmt.Sprintf("; not recreated, and no operator is expected to (restore them from a backup or recreate them): %s", list(notBack))
	}
	return msg
}

func failures(deletion *DeletionReport) string {
	var out []string
	for _, r := range deletion.Results {
		if r.Outcome == OutcomeFailed {
			out = append(out, r.ObjectRef.String()+": "+r.Error)
		}
	}
	return list(out)
}

func list(items []string) string {
	sort.Strings(items)
	if len(items) > maxListedInMessage {
		return strings.Join(items[:maxListedInMessage], ", ") + fmt.Sprintf(" and %d more", len(items)-maxListedInMessage)
	}
	return strings.Join(items, ", ")
}

func (c *Controller) resourceNames() string {
	names := make([]string, 0, len(c.options.Resources))
	for _, r := range c.options.Resources {
		names = append(names, r.GroupResource().String())
	}
	return strings.Join(names, ", ")
}

func (c *Controller) configMapRef() string {
	return "configmap " + c.options.Namespace + "/" + ConfigMapName
}
