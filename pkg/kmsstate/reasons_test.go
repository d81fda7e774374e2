package kmsstate

import (
	"slices"
	"testing"
)

// TestReasonRegistry: the registry is derived from severity, so each reason left out of KMSPluginsDegraded must
// be ranked there, and every other ranked reason is registered.
func TestReasonRegistry(t *testing.T) {
	registered := ConditionReasons()
	for _, r := range Reasons() {
		if !readerOnly[r] && !slices.Contains(registered, string(r)) {
			t.Errorf("%s is ranked by severity and neither reader-only nor registered", r)
		}
	}
	for r := range readerOnly {
		if !slices.Contains(Reasons(), r) {
			t.Errorf("reader-only %s is not ranked by severity: it would be in no registry", r)
		}
		if slices.Contains(registered, string(r)) {
			t.Errorf("reader-only %s is registered as a condition reason", r)
		}
	}
}
