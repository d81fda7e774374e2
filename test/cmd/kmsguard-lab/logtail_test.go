package main

import (
	"strings"
	"testing"
)

// TestLogTail: the tail keeps the last lines whole, however the writes split them, and passes writes through
// only until it is held.
func TestLogTail(t *testing.T) {
	var through strings.Builder
	tail := newLogTail(3, &through)
	for _, w := range []string{"one\ntw", "o\nthree\n", "four\n"} {
		if _, err := tail.Write([]byte(w)); err != nil {
			t.Fatal(err)
		}
	}
	tail.hold()
	if _, err := tail.Write([]byte("fi")); err != nil {
		t.Fatal(err)
	}
	if got, want := tail.String(), "two\nthree\nfour\n"; got != want {
		t.Errorf("tail before the line ends = %q, want %q", got, want)
	}
	if _, err := tail.Write([]byte("ve\n")); err != nil {
		t.Fatal(err)
	}
	if got, want := tail.String(), "three\nfour\nfive\n"; got != want {
		t.Errorf("tail = %q, want %q", got, want)
	}
	if got, want := through.String(), "one\ntwo\nthree\nfour\n"; got != want {
		t.Errorf("passed through %q, want %q (nothing after hold)", got, want)
	}
}
