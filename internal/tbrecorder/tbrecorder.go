// Package tbrecorder is a testing.TB that records failures instead of failing, for the tests of test helpers
// (internal/conventionstest, internal/cli/clitest): they must show that a helper fails when what it checks is
// broken, which a real *testing.T cannot show without failing the test itself.
package tbrecorder

import (
	"fmt"
	"runtime"
	"testing"
)

// TB records what a check reports through Errorf, Fatal and Fatalf. Like testing's, Fatal and Fatalf end the
// goroutine, so a check must run in a goroutine of its own (Run). Methods it does not implement are the embedded
// nil testing.TB's, and panic: a helper that calls them is not one TB can test.
type TB struct {
	testing.TB
	Failures []string
}

// Helper does nothing: there is no call stack to trim.
func (r *TB) Helper() {}

// Errorf records a failure and returns.
func (r *TB) Errorf(format string, args ...any) {
	r.Failures = append(r.Failures, fmt.Sprintf(format, args...))
}

// Fatal records a failure and ends the goroutine.
func (r *TB) Fatal(args ...any) {
	r.Failures = append(r.Failures, fmt.Sprint(args...))
	runtime.Goexit()
}

// Fatalf records a failure and ends the goroutine.
func (r *TB) Fatalf(format string, args ...any) {
	r.Failures = append(r.Failures, fmt.Sprintf(format, args...))
	runtime.Goexit()
}

// Run runs check(tb) in a goroutine of its own, since a Fatal ends it, and waits for it. tb is a *TB or a type
// that embeds one (to add Cleanup, for example).
func Run(tb testing.TB, check func(testing.TB)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(tb)
	}()
	<-done
}

// Failures runs check on a new TB and returns what it reported.
func Failures(check func(testing.TB)) []string {
	r := &TB{}
	Run(r, check)
	return r.Failures
}
