package tbrecorder_test

import (
	"slices"
	"testing"

	"github.com/kmsguard/kmsguard/internal/tbrecorder"
)

// TestFailures: every failure is recorded in order, and a Fatal ends the check there.
func TestFailures(t *testing.T) {
	scenarios := []struct {
		name  string
		check func(testing.TB)
		want  []string
	}{
		{name: "nothing fails", check: func(testing.TB) {}},
		{name: "Errorf goes on", check: func(tb testing.TB) { tb.Errorf("a %d", 1); tb.Errorf("b") }, want: []string{"a 1", "b"}},
		{name: "Fatal stops", check: func(tb testing.TB) { tb.Errorf("a"); tb.Fatal("b"); tb.Errorf("never") }, want: []string{"a", "b"}},
		{name: "Fatalf stops", check: func(tb testing.TB) { tb.Fatalf("c %s", "x"); tb.Errorf("never") }, want: []string{"c x"}},
	}
	for _, s := range scenarios {
		if got := tbrecorder.Failures(s.check); !slices.Equal(got, s.want) {
			t.Errorf("%s: failures %q, want %q", s.name, got, s.want)
		}
	}
}
