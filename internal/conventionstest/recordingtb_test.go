package conventionstest

import (
	"fmt"
	"runtime"
	"testing"
)

// recordingTB is a testing.TB that records failures instead of failing, so that the tests of this package can
// check that a helper fails when the behaviour it checks is broken. Like testing's, its Fatal ends the goroutine.
type recordingTB struct {
	testing.TB
	failures []string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *recordingTB) Fatal(args ...any) {
	r.failures = append(r.failures, fmt.Sprint(args...))
	runtime.Goexit()
}

// failures runs check on a recordingTB, in a goroutine of its own since a Fatal ends it, and returns what failed.
func failures(check func(testing.TB)) []string {
	r := &recordingTB{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(r)
	}()
	<-done
	return r.failures
}
