package kmsprecondition

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/kmsguard/kmsguard/internal/conditions"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// Reason is the reason of the KMSRolloutGateProgressing and KMSRolloutGateDegraded conditions.
type Reason string

// The reasons a candidate is blocked, most severe first: when several hold, the first names the conditions
// and the message lists them all. The order is the order in which the admin has to act: a config kube-apiserver
// would refuse is fixed first; losing data is worse than waiting; a failed preflight is a verdict while a
// missing one may still come; plugin health is the last thing to settle but for the rollback window, which ends by
// itself at a known time.
const (
	// ReasonInvalidEncryptionConfig: kube-apiserver would refuse the candidate. Waiting cannot help, so
	// Degraded is set at once.
	ReasonInvalidEncryptionConfig Reason = "InvalidEncryptionConfig"
	// ReasonNewKMSKeyWrites: a KMS key new to the candidate writes a resource, before any kube-apiserver has been
	// shown to read with it. library-go adds a key as a read key first; only a hand-made or forced config does
	// this. Degraded at once.
	ReasonNewKMSKeyWrites Reason = "NewKMSKeyWrites"
	// ReasonReadKeyStillInUse: the candidate drops a read key (KMS, aescbc, aesgcm, secretbox, identity) that
	// data is still stored under, or without the evidence that none is.
	ReasonReadKeyStillInUse Reason = "ReadKeyStillInUse"
	// ReasonPreflightFailed: library-go's KMS preflight ran for a new key's configuration and failed. Degraded at
	// once.
	ReasonPreflightFailed Reason = "PreflightFailed"
	// ReasonPreflightNotPassed: a new read key is unverified and Options.UnverifiedReadKeys is
	// BlockUnverifiedReadKeys.
	ReasonPreflightNotPassed Reason = "PreflightNotPassed"
	// ReasonKMSPluginsNotHealthy: a plugin of a deployed key is not healthy, or not freshly reported, on a node; a
	// promoted key's plugins do not agree on one KEK id; or a node reports a new key's plugin failing.
	ReasonKMSPluginsNotHealthy Reason = "KMSPluginsNotHealthy"
	// ReasonRollbackWindowNotPassed: the candidate drops read keys that hold no data any more, before the rollback
	// window since they stopped being write keys has passed. It needs no action and never degrades.
	ReasonRollbackWindowNotPassed Reason = "RollbackWindowNotPassed"
)

// Reasons of an open gate.
const (
	// ReasonAsExpected: no KMS change pending, or a KMS change whose checks all pass.
	ReasonAsExpected Reason = conditions.ReasonAsExpected
	// ReasonForced: the candidate would have been blocked, and the admin forced it through
	// unsupportedConfigOverrides.
	ReasonForced Reason = "Forced"
)

// severity ranks the blocking reasons in the order of the constants above.
var severity = conditions.NewSeverity(ReasonInvalidEncryptionConfig, ReasonNewKMSKeyWrites, ReasonReadKeyStillInUse, ReasonPreflightFailed,
	ReasonPreflightNotPassed, ReasonKMSPluginsNotHealthy, ReasonRollbackWindowNotPassed)

// needsAdmin are the reasons that no amount of waiting resolves: they degrade without the grace period.
func needsAdmin(r Reason) bool {
	return r == ReasonInvalidEncryptionConfig || r == ReasonNewKMSKeyWrites || r == ReasonPreflightFailed
}

// neverDegrades are the reasons that normal operation passes through and that end without anyone acting: the
// migration that lets a read key go (library-go's migration controller, kmsmigration, which report their own
// failures) and the rollback window, which ends at a known time.
func neverDegrades(r Reason) bool {
	return r == ReasonReadKeyStillInUse || r == ReasonRollbackWindowNotPassed
}

// waitsOnTime are the reasons that end at a known time with nothing in progress meanwhile: the rollback window. The
// gate holds the change, but says so with KMSRolloutGateProgressing False: Progressing is for a revision or a
// migration that moves.
func waitsOnTime(r Reason) bool { return r == ReasonRollbackWindowNotPassed }

// allWaitOnTime says whether every blocking reason waits on time alone (waitsOnTime).
func allWaitOnTime(blocking []BlockingError) bool {
	for _, b := range blocking {
		if !waitsOnTime(b.Reason()) {
			return false
		}
	}
	return len(blocking) > 0
}

// BlockingError is one reason the candidate may not be rolled out. Its Reason picks the condition reason.
type BlockingError interface {
	error
	Reason() Reason
}

// NewKeyWritesError: KMS keys new to the candidate write a resource.
type NewKeyWritesError struct {
	KeyIDs []string
}

func (e *NewKeyWritesError) Error() string {
	return fmt.Sprintf("KMS keys %v are new to the candidate and already write a resource; a new key must first roll out as a read key to every kube-apiserver, as library-go adds it", e.KeyIDs)
}
func (e *NewKeyWritesError) Reason() Reason { return ReasonNewKMSKeyWrites }

// InvalidConfigError: the candidate fails kube-apiserver's own decoding or validation.
type InvalidConfigError struct {
	Err error
}

func (e *InvalidConfigError) Error() string {
	return "the candidate encryption config is invalid: " + e.Err.Error()
}
func (e *InvalidConfigError) Unwrap() error  { return e.Err }
func (e *InvalidConfigError) Reason() Reason { return ReasonInvalidEncryptionConfig }

// DroppedProvider is a read key of the deployed config that the candidate no longer lists for a resource: a KMS
// provider, an aescbc, aesgcm or secretbox key, or identity.
type DroppedProvider struct {
	Resource string
	// Kind is the kind of the key (etcdvalue.KindAESCBC, ...).
	Kind etcdvalue.Kind
	// Name is the provider name (KMS) or key name (aescbc, aesgcm, secretbox), empty for identity; stored
	// values carry it in their prefix (k8s:enc:kms:v2:<name>:, k8s:enc:aescbc:v1:<name>:), so a value written
	// under it is unreadable once no provider of that kind and name is left.
	Name string
	// KeyID is library-go's key id behind it (the <id> of library-go's kms-<id>.sock, or the key name), empty
	// when there is none (identity).
	KeyID string
	// Evidence says what the evidence showed: why data may remain, or why it may go.
	Evidence string
	// cause is the rule that decided, the typed form of Evidence; refusal is the census's refusal
	// (evidence.CanDropReadKey), nil where the census let the key go or the annotations decided.
	cause   dropCause
	refusal *evidence.PruneError
}

// dropCause names the rule that decided a dropped read key: a census refusal is its evidence.PruneReason.
type dropCause string

const (
	// dropNoSource: neither Options.Census nor Options.Migration is set.
	dropNoSource dropCause = "NoEvidenceSource"
	// dropCensusPassed: the census shows no value under the key, and the rollback window has passed.
	dropCensusPassed dropCause = "CensusPassed"
	// dropNoKeyID: the annotations cannot speak for a key without a library-go key id (identity).
	dropNoKeyID dropCause = "AnnotationsNoKeyID"
	// dropNotRewritten: library-go records no migration of the resource to a newer key.
	dropNotRewritten dropCause = "AnnotationsNotRewritten"
	// dropNoTimestamp: the migration is recorded without its migrated-timestamp.
	dropNoTimestamp dropCause = "AnnotationsNoTimestamp"
	// dropAnnotationsWindow: migrated, inside the rollback window.
	dropAnnotationsWindow dropCause = "AnnotationsRollbackWindow"
	// dropAnnotationsPassed: migrated, and the rollback window has passed.
	dropAnnotationsPassed dropCause = "AnnotationsPassed"
)

// readKey is the key as the evidence package counts values: the whole provider or key, every KEK id of it.
func (d DroppedProvider) readKey() evidence.ReadKey {
	return evidence.ReadKey{Kind: d.Kind, Name: d.Name}
}

func (d DroppedProvider) String() string {
	key := d.readKey().String()
	if d.KeyID != "" && d.KeyID != d.Name {
		key += " (key " + d.KeyID + ")"
	}
	return fmt.Sprintf("%s read key %s: %s", d.Resource, key, d.Evidence)
}

// ReadKeyStillInUseError: the candidate drops read keys that values are still stored under, or without evidence
// that none is.
type ReadKeyStillInUseError struct {
	Dropped []DroppedProvider
}

func (e *ReadKeyStillInUseError) Error() string {
	return "the candidate drops read keys that data may still be stored under: " + joinDropped(e.Dropped)
}
func (e *ReadKeyStillInUseError) Reason() Reason { return ReasonReadKeyStillInUse }

// RollbackWindowError: the evidence shows no value under the dropped read keys, but the rollback window since
// they stopped being write keys has not passed. It ends by itself at Until, so it never degrades.
type RollbackWindowError struct {
	Dropped []DroppedProvider
	// Until is when the last of their windows ends.
	Until time.Time
}

func (e *RollbackWindowError) Error() string {
	return fmt.Sprintf("the candidate drops read keys before the rollback window has passed (until %s): %s",
		e.Until.UTC().Format(time.RFC3339), joinDropped(e.Dropped))
}
func (e *RollbackWindowError) Reason() Reason { return ReasonRollbackWindowNotPassed }

func joinDropped(dropped []DroppedProvider) string {
	parts := make([]string, 0, len(dropped))
	for _, d := range dropped {
		parts = append(parts, d.String())
	}
	return strings.Join(parts, "; ")
}

// PreflightError: library-go's KMS preflight failed for a new key's configuration, or a new read key is unverified
// and the policy blocks it.
type PreflightError struct {
	// Failed is true when the preflight ran and failed, false when it has not (yet) passed.
	Failed bool
	Detail string
}

func (e *PreflightError) Error() string {
	if e.Failed {
		return "the KMS preflight failed: " + e.Detail
	}
	return "the KMS preflight has not passed: " + e.Detail
}

func (e *PreflightError) Reason() Reason {
	if e.Failed {
		return ReasonPreflightFailed
	}
	return ReasonPreflightNotPassed
}

// PluginsNotHealthyError: kmsstate does not show a deployed key's plugins healthy on every node, a promoted key's
// plugins agreeing on one KEK id, or a new key's plugin, where it reports, working.
type PluginsNotHealthyError struct {
	// Err is what the HealthReader returned, usually a *kmsstate.UnhealthyError.
	Err error
}

func (e *PluginsNotHealthyError) Error() string {
	var unhealthy *kmsstate.UnhealthyError
	if errors.As(e.Err, &unhealthy) {
		// kmsstate's reason names the class of failure (PluginUnreachable, HealthReportStale, ...).
		return fmt.Sprintf("KMS plugins of the candidate are not healthy (%s): %v", unhealthy.Reason(), e.Err)
	}
	return "KMS plugins of the candidate are not healthy: " + e.Err.Error()
}
func (e *PluginsNotHealthyError) Unwrap() error  { return e.Err }
func (e *PluginsNotHealthyError) Reason() Reason { return ReasonKMSPluginsNotHealthy }

// keyNotEvaluatedError: kmsstate's latest evaluation, at At, did not include a new key yet (it evaluated the keys
// Evaluated): its key list reads the configs every sync.
type keyNotEvaluatedError struct {
	KeyID     string
	Evaluated []string
	At        time.Time
}

func (e *keyNotEvaluatedError) Error() string {
	return fmt.Sprintf("kmsstate has not evaluated new key %s yet (it evaluated keys %v at %s)", e.KeyID, e.Evaluated, e.At.UTC().Format(time.RFC3339))
}

// kekNotSettledError: a key the candidate promotes to write key has plugins that have not agreed on one KEK id.
type kekNotSettledError struct {
	KeyID string
}

func (e *kekNotSettledError) Error() string {
	return fmt.Sprintf("key %s becomes a write key, and its plugins have not agreed on one KEK id on every node yet", e.KeyID)
}

// sortBlocking orders blocking errors most severe first.
func sortBlocking(errs []BlockingError) {
	sort.SliceStable(errs, func(i, j int) bool { return severity.MoreSevere(errs[i].Reason(), errs[j].Reason()) })
}

func joinBlocking(errs []BlockingError) string {
	parts := make([]string, 0, len(errs))
	for _, err := range errs {
		parts = append(parts, err.Error())
	}
	return strings.Join(parts, "; ")
}
