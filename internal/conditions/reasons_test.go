package conditions

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestSeverityReasons(t *testing.T) {
	s := NewSeverity[reason]("Worst", "Bad", "Mild", "Bad")
	got := s.Reasons()
	if want := []reason{"Worst", "Bad", "Mild"}; !slices.Equal(got, want) {
		t.Fatalf("Reasons() = %v, want %v: most severe first, each once", got, want)
	}
	got[0] = "Changed"
	if s.Reasons()[0] != "Worst" {
		t.Error("Reasons() shares its slice with the Severity: a caller changed the order")
	}
}

// TestControllerDegradedReasons: every reason ControllerDegraded sets is registered.
func TestControllerDegradedReasons(t *testing.T) {
	registered := ControllerDegradedReasons()
	for _, err := range []error{nil, errors.New("etcdserver: request timed out"), &PanicError{Value: "boom"}} {
		if c := ControllerDegraded("Foo", err); !slices.Contains(registered, c.Reason) {
			t.Errorf("ControllerDegraded(%v) sets reason %q, which ControllerDegradedReasons (%s) does not register", err, c.Reason, strings.Join(registered, ", "))
		}
	}
}

func TestReasonStrings(t *testing.T) {
	if got, want := ReasonStrings[reason]("Worst", "Bad"), []string{"Worst", "Bad"}; !slices.Equal(got, want) {
		t.Errorf("ReasonStrings = %q, want %q, in order", got, want)
	}
	if got := ReasonStrings[reason](); got == nil || len(got) != 0 {
		t.Errorf("ReasonStrings() = %#v, want an empty list", got)
	}
}
