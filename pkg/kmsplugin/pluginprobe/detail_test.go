package pluginprobe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDetail(t *testing.T) {
	scenarios := []struct {
		name string
		in   string
		want string
	}{
		{name: "short", in: "kms unreachable", want: "kms unreachable"},
		{name: "empty", in: "", want: emptyDetail},
		{name: "exactly at the limit", in: strings.Repeat("a", 1024), want: strings.Repeat("a", 1024)},
		{name: "one over the limit", in: strings.Repeat("a", 1025), want: strings.Repeat("a", 1021) + "..."},
		{
			// "é" is two bytes; byte 1021, where the marker would
			// start, is the second byte of one, which must go whole.
			name: "cut at a character boundary",
			in:   "aa" + strings.Repeat("é", 600),
			want: "aa" + strings.Repeat("é", 509) + "...",
		},
		{name: "invalid UTF-8 is replaced", in: "bad \xff byte", want: "bad \uFFFD byte"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			got := detail(s.in)
			if got != s.want {
				t.Errorf("detail(%.40q...) = %.40q... (%d bytes), want %.40q... (%d bytes)", s.in, got, len(got), s.want, len(s.want))
			}
			if len(got) > maxDetailBytes || !utf8.ValidString(got) || got == "" {
				t.Errorf("detail is not a valid detail field: %d bytes, valid UTF-8 %t", len(got), utf8.ValidString(got))
			}
		})
	}
}
