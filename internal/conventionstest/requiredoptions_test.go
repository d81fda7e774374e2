package conventionstest

import (
	"errors"
	"testing"

	"github.com/kmsguard/kmsguard/internal/tbrecorder"
)

func TestExpectRefused(t *testing.T) {
	scenarios := []struct {
		name     string
		built    bool
		err      error
		missing  string
		wantFail bool
	}{
		{name: "complete options built", built: true},
		{name: "complete options refused", err: errors.New("foo: missing required options: Keys"), wantFail: true},
		{name: "complete options neither built nor refused", wantFail: true},
		{name: "missing option named", err: errors.New("foo: missing required options: Keys, Nodes"), missing: "Keys, Nodes"},
		{name: "missing option accepted", built: true, missing: "Keys", wantFail: true},
		{name: "missing option neither built nor refused", missing: "Keys", wantFail: true},
		{name: "missing option refused, but built too", built: true, err: errors.New("foo: missing required options: Keys"), missing: "Keys", wantFail: true},
		{name: "another option named", err: errors.New("foo: missing required options: Nodes"), missing: "Keys", wantFail: true},
		{name: "more options named", err: errors.New("foo: missing required options: Keys, Nodes"), missing: "Nodes", wantFail: true},
		{name: "another error", err: errors.New("foo: Keys is invalid"), missing: "Keys", wantFail: true},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			got := tbrecorder.Failures(func(t testing.TB) { expectRefused(t, s.built, s.err, s.missing) })
			if (len(got) > 0) != s.wantFail {
				t.Errorf("failures %q, want a failure: %v", got, s.wantFail)
			}
		})
	}
}
