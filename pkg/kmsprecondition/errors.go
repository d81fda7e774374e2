package kmsprecondition

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// Reason is the reason of the KMSRolloutGateProgressing and KMSRolloutGateDegraded conditions.
type Reason string

// The reasons a candidate is blocked, most severe first: when several hold, the first names the conditions
// and the message lists them all. The order is the order in which the admin has to act: a config kube-apiserver
// would refuse is fixed first; losing data is worse than waiting; a failed preflight is a verdict while a
// missing one may still come; plugin health is the last thing to settle.
const (
	// ReasonInvalidEncryptionConfig: kube-apiserver would refuse the candidate. Waiting cannot help, so
	// Degraded is set at once.
	ReasonInvalidEncryptionConfig Reason = "InvalidEncryptionConfig"
	// ReasonReadKeyStillInUse: the candidate drops a KMS provider that data may still be stored under.
	ReasonReadKeyStillInUse Reason = "ReadKeyStillInUse"
	// ReasonPreflightFailed: library-go's KMS preflight ran and failed. Degraded at once.
	ReasonPreflightFailed Reason = "PreflightFailed"
	// ReasonPreflightNotPassed: no preflight success for the current KMS configuration yet.
	ReasonPreflightNotPassed Reason = "PreflightNotPassed"
	// ReasonKMSPluginsNotHealthy: a plugin of the candidate is not healthy, or not freshly reported, on a node.
	ReasonKMSPluginsNotHealthy Reason = "KMSPluginsNotHealthy"
)

// Reasons of an open gate.
const (
	// ReasonAsExpected: no KMS change pending, or a KMS change whose checks all pass.
	ReasonAsExpected Reason = "AsExpected"
	// ReasonForced: the candidate would have been blocked, and the admin forced it through
	// unsupportedConfigOverrides.
	ReasonForced Reason = "Forced"
)

var severity = map[Reason]int{
	ReasonInvalidEncryptionConfig: 0,
	ReasonReadKeyStillInUse:       1,
	ReasonPreflightFailed:         2,
	ReasonPreflightNotPassed:      3,
	ReasonKMSPluginsNotHealthy:    4,
}

// needsAdmin are the reasons that no amount of waiting resolves: they degrade without the grace period.
func needsAdmin(r Reason) bool {
	return r == ReasonInvalidEncryptionConfig || r == ReasonPreflightFailed
}

// BlockingError is one reason the candidate may not be rolled out. Its Reason picks the condition reason.
type BlockingError interface {
	error
	Reason() Reason
}

// InvalidConfigError: the candidate fails kube-apiserver's own decoding or validation.
type InvalidConfigError struct {
	Err error
}

func (e *InvalidConfigError) Error() string {
	return "the candidate encryption config is invalid: " + e.Err.Error()
}
func (e *InvalidConfigError) Unwrap() error  { return e.Err }
func (e *InvalidConfigError) Reason() Reason { return ReasonInvalidEncryptionConfig }

// DroppedProvider is a KMS provider of the deployed config that the candidate no longer lists for a resource.
type DroppedProvider struct {
	Resource string
	// Name is the provider name; stored values carry it in their prefix (k8s:enc:kms:v2:<name>:), so a value
	// written by it is unreadable once no provider of that name is left.
	Name string
	// KeyID is the key behind the provider (the <id> of library-go's kms-<id>.sock, else the provider name).
	KeyID string
	// Evidence says why data may remain: what migration evidence is missing.
	Evidence string
}

func (d DroppedProvider) String() string {
	return fmt.Sprintf("%s provider %s (key %s): %s", d.Resource, d.Name, d.KeyID, d.Evidence)
}

// ReadKeyStillInUseError: the candidate drops KMS providers without evidence that their data was rewritten.
type ReadKeyStillInUseError struct {
	Dropped []DroppedProvider
}

func (e *ReadKeyStillInUseError) Error() string {
	parts := make([]string, 0, len(e.Dropped))
	for _, d := range e.Dropped {
		parts = append(parts, d.String())
	}
	return "the candidate drops KMS read providers that data may still be stored under: " + strings.Join(parts, "; ")
}
func (e *ReadKeyStillInUseError) Reason() Reason { return ReasonReadKeyStillInUse }

// PreflightError: library-go's KMS preflight has not passed for the KMS configuration of the candidate.
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

// PluginsNotHealthyError: kmsstate does not show every plugin of the candidate healthy on every node.
type PluginsNotHealthyError struct {
	// Err is what the HealthReader returned, usually a *kmsstate.UnhealthyError.
	Err error
}

func (e *PluginsNotHealthyError) Error() string {
	var unhealthy *kmsstate.UnhealthyError
	if errors.As(e.Err, &unhealthy) {
		// kmsstate's reason names the class of failure (PluginUnreachable, HealthReportStale, ...).
		return fmt.Sprintf("KMS plugins of the candidate are not healthy on every node (%s): %v", unhealthy.Reason(), e.Err)
	}
	return "KMS plugins of the candidate are not healthy on every node: " + e.Err.Error()
}
func (e *PluginsNotHealthyError) Unwrap() error  { return e.Err }
func (e *PluginsNotHealthyError) Reason() Reason { return ReasonKMSPluginsNotHealthy }

// sortBlocking orders blocking errors most severe first.
func sortBlocking(errs []BlockingError) {
	sort.SliceStable(errs, func(i, j int) bool { return severity[errs[i].Reason()] < severity[errs[j].Reason()] })
}

func joinBlocking(errs []BlockingError) string {
	parts := make([]string, 0, len(errs))
	for _, err := range errs {
		parts = append(parts, err.Error())
	}
	return strings.Join(parts, "; ")
}
