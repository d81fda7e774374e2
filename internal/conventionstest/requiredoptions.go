package conventionstest

import (
	"strings"
	"testing"
)

// MissingOptions is a scenario of RequiredOptions: Clear removes options from complete ones, and Missing is what
// the constructor's error must name, sorted and comma-separated as internal/required writes it ("" when the
// options left are still enough).
type MissingOptions[O any] struct {
	Name    string
	Clear   func(*O)
	Missing string
}

// RequiredOptions checks that a constructor names each missing required option instead of building something
// that panics on its first sync: build accepts complete, and, given a copy of complete with a scenario's Clear
// applied, refuses it with an error ending in "missing required options: <Missing>" and builds nothing (or, with
// Missing "", builds it).
func RequiredOptions[O, C any](t *testing.T, complete O, build func(O) (*C, error), scenarios []MissingOptions[O]) {
	t.Run("complete", func(t *testing.T) {
		built, err := build(complete)
		expectRefused(t, built != nil, err, "")
	})
	for _, s := range scenarios {
		t.Run(s.Name, func(t *testing.T) {
			options := complete
			s.Clear(&options)
			built, err := build(options)
			expectRefused(t, built != nil, err, s.Missing)
		})
	}
}

// expectRefused checks one constructor call: with missing "", something built and no error; else nothing built
// and an error naming exactly missing.
func expectRefused(t testing.TB, built bool, err error, missing string) {
	t.Helper()
	switch {
	case missing == "" && (err != nil || !built):
		t.Errorf("refused complete options: built %v, error %v", built, err)
	case missing != "" && (err == nil || !strings.HasSuffix(err.Error(), "missing required options: "+missing)):
		t.Errorf("error %v, want one naming exactly %s", err, missing)
	case missing != "" && built:
		t.Errorf("built without %s", missing)
	}
}
