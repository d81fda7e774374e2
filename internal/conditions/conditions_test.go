package conditions

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
)

func TestTruncate(t *testing.T) {
	scenarios := []struct {
		name    string
		in      string
		wantLen int
		cut     bool
	}{
		{name: "empty", in: "", wantLen: 0},
		{name: "exactly the limit", in: strings.Repeat("a", MaxMessage), wantLen: MaxMessage},
		{name: "one over the limit", in: strings.Repeat("a", MaxMessage+1), wantLen: MaxMessage, cut: true},
		{name: "far over the limit", in: strings.Repeat("a", 10*MaxMessage), wantLen: MaxMessage, cut: true},
		// "é" is two bytes starting at odd offsets: the byte limit falls inside one, which is left out whole.
		{name: "cut inside a rune", in: "a" + strings.Repeat("é", MaxMessage), wantLen: MaxMessage - 1, cut: true},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			got := Truncate(s.in)
			if len(got) != s.wantLen {
				t.Errorf("len = %d, want %d", len(got), s.wantLen)
			}
			if cut := strings.HasSuffix(got, truncated); cut != s.cut {
				t.Errorf("marked as cut: %v, want %v", cut, s.cut)
			}
			if !utf8.ValidString(got) {
				t.Errorf("the cut left invalid UTF-8")
			}
			if !s.cut && got != s.in {
				t.Errorf("a message within the limit changed")
			}
		})
	}
}

func TestToApply(t *testing.T) {
	long := strings.Repeat("x", MaxMessage+10)
	scenarios := []struct {
		name string
		in   operatorv1.OperatorCondition
		want operatorv1.OperatorCondition
	}{
		{
			name: "every field carried",
			in:   operatorv1.OperatorCondition{Type: "FooDegraded", Status: operatorv1.ConditionTrue, Reason: "Bar", Message: "baz"},
			want: operatorv1.OperatorCondition{Type: "FooDegraded", Status: operatorv1.ConditionTrue, Reason: "Bar", Message: "baz"},
		},
		{
			name: "message truncated",
			in:   operatorv1.OperatorCondition{Type: "FooDegraded", Status: operatorv1.ConditionFalse, Reason: ReasonAsExpected, Message: long},
			want: operatorv1.OperatorCondition{Type: "FooDegraded", Status: operatorv1.ConditionFalse, Reason: ReasonAsExpected, Message: Truncate(long)},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			a := ToApply(s.in)
			got := operatorv1.OperatorCondition{Type: *a.Type, Status: *a.Status, Reason: *a.Reason, Message: *a.Message}
			if got != s.want {
				t.Errorf("got %+v, want %+v", got, s.want)
			}
		})
	}
}

type reason string

func TestSeverity(t *testing.T) {
	s := NewSeverity[reason]("Worst", "Bad", "Mild", "Bad")
	scenarios := []struct {
		name string
		a, b reason
		want bool
	}{
		{name: "first is most severe", a: "Worst", b: "Bad", want: true},
		{name: "later is less severe", a: "Mild", b: "Bad", want: false},
		{name: "equal is not more severe", a: "Bad", b: "Bad", want: false},
		{name: "a duplicate keeps its first rank", a: "Bad", b: "Mild", want: true},
		{name: "unranked comes after every ranked", a: "Mild", b: "Unknown", want: true},
		{name: "unranked is never more severe", a: "Unknown", b: "Mild", want: false},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			if got := s.MoreSevere(sc.a, sc.b); got != sc.want {
				t.Errorf("MoreSevere(%s, %s) = %v, want %v", sc.a, sc.b, got, sc.want)
			}
		})
	}
}

type typedError struct{}

func (typedError) Error() string           { return "typed" }
func (typedError) ConditionReason() string { return "Typed" }

func TestControllerDegraded(t *testing.T) {
	scenarios := []struct {
		name       string
		err        error
		wantStatus operatorv1.ConditionStatus
		wantReason string
		wantMsg    string
	}{
		{name: "success", err: nil, wantStatus: operatorv1.ConditionFalse, wantReason: ReasonAsExpected},
		{name: "plain error", err: errors.New("etcd down"), wantStatus: operatorv1.ConditionTrue, wantReason: ReasonSyncError, wantMsg: "etcd down"},
		{name: "typed error picks the reason", err: fmt.Errorf("wrapped: %w", typedError{}), wantStatus: operatorv1.ConditionTrue, wantReason: "Typed", wantMsg: "wrapped: typed"},
		{name: "panic", err: &PanicError{Value: "boom"}, wantStatus: operatorv1.ConditionTrue, wantReason: ReasonPanic, wantMsg: "panic: boom"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			c := ControllerDegraded("Foo", s.err)
			if c.Type != "FooControllerDegraded" || c.Status != s.wantStatus || c.Reason != s.wantReason || c.Message != s.wantMsg {
				t.Errorf("got %+v, want FooControllerDegraded %s %s %q", c, s.wantStatus, s.wantReason, s.wantMsg)
			}
		})
	}
}

// recordingClient records the field managers of ApplyOperatorStatus, and fails applies when failApply is set.
type recordingClient struct {
	v1helpers.OperatorClient
	managers  []string
	failApply error
}

func (c *recordingClient) ApplyOperatorStatus(ctx context.Context, fieldManager string, status *applyoperatorv1.OperatorStatusApplyConfiguration) error {
	c.managers = append(c.managers, fieldManager)
	if c.failApply != nil {
		return c.failApply
	}
	return c.OperatorClient.ApplyOperatorStatus(ctx, fieldManager, status)
}

func TestReportSync(t *testing.T) {
	scenarios := []struct {
		name       string
		syncs      []error
		failApply  error
		cancelled  bool
		wantStatus operatorv1.ConditionStatus // "" when no condition must exist
		wantErr    string
	}{
		{name: "a failing sync sets Degraded", syncs: []error{errors.New("boom")}, wantStatus: operatorv1.ConditionTrue, wantErr: "boom"},
		{name: "a failing then succeeding sync clears it", syncs: []error{errors.New("boom"), nil}, wantStatus: operatorv1.ConditionFalse},
		{name: "a panic is reported", syncs: []error{&PanicError{Value: 1}}, wantStatus: operatorv1.ConditionTrue, wantErr: "panic: 1"},
		{name: "an apply failure is returned", syncs: []error{nil}, failApply: errors.New("apply refused"), wantErr: "apply refused"},
		{name: "a cancelled sync reports nothing", syncs: []error{context.Canceled}, cancelled: true, wantErr: context.Canceled.Error()},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			client := &recordingClient{OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil), failApply: s.failApply}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if s.cancelled {
				cancel()
			}
			var err error
			for _, syncErr := range s.syncs {
				err = func() (err error) {
					defer ReportSync(ctx, client, "op-Foo", "Foo", &err)
					return syncErr
				}()
			}
			if (err == nil) != (s.wantErr == "") || (err != nil && !strings.Contains(err.Error(), s.wantErr)) {
				t.Errorf("error %v, want one containing %q", err, s.wantErr)
			}
			_, status, _, _ := client.GetOperatorState()
			c := v1helpers.FindOperatorCondition(status.Conditions, "FooControllerDegraded")
			switch {
			case s.wantStatus == "" && c != nil && s.failApply == nil:
				t.Errorf("unexpected condition %+v", c)
			case s.wantStatus != "" && (c == nil || c.Status != s.wantStatus):
				t.Errorf("condition %+v, want status %s", c, s.wantStatus)
			}
			for _, m := range client.managers {
				if m != "op-Foo-reportDegraded" {
					t.Errorf("applied with field manager %q, want op-Foo-reportDegraded", m)
				}
			}
			if s.cancelled && len(client.managers) > 0 {
				t.Errorf("a cancelled sync applied %d times", len(client.managers))
			}
		})
	}
}

func TestRecover(t *testing.T) {
	scenarios := []struct {
		name      string
		fn        func() error
		wantPanic bool
		wantErr   string
	}{
		{name: "no panic keeps the result", fn: func() error { return errors.New("plain") }, wantErr: "plain"},
		{name: "no panic, no error", fn: func() error { return nil }},
		{name: "a panic becomes an error", fn: func() error { panic("boom") }, wantPanic: true, wantErr: "panic: boom"},
		{name: "a nil dereference becomes an error", fn: func() error { var m map[string]*int; return fmt.Errorf("%d", *m["x"]) }, wantPanic: true, wantErr: "nil pointer"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			err := func() (err error) {
				defer Recover(&err)
				return s.fn()
			}()
			var p *PanicError
			if errors.As(err, &p) != s.wantPanic {
				t.Errorf("error %v: panic %v, want %v", err, !s.wantPanic, s.wantPanic)
			}
			if (err == nil) != (s.wantErr == "") || (err != nil && !strings.Contains(err.Error(), s.wantErr)) {
				t.Errorf("error %v, want one containing %q", err, s.wantErr)
			}

			var failed error
			func() {
				defer RecoverAs(func(err error) { failed = err })
				_ = s.fn()
			}()
			if (failed != nil) != s.wantPanic {
				t.Errorf("RecoverAs reported %v, want a panic: %v", failed, s.wantPanic)
			}
		})
	}
}
