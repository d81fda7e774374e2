package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestTermList: each term on a line of its own, its text beside it in one column, wrapped at helpWidth under that
// column without losing a word.
func TestTermList(t *testing.T) {
	// long is a text that fills more than two lines beside a column of width 4.
	long := strings.Repeat("a word that wraps ", 15)
	for _, s := range []struct {
		name      string
		nameWidth int
		terms     []Term
		want      string
	}{
		{name: "short texts", nameWidth: 4, terms: []Term{{"0", "success"}, {"130", "interrupted (Ctrl-C, SIGTERM)"}},
			want: "  0    success\n  130  interrupted (Ctrl-C, SIGTERM)"},
		{name: "a name wider than its column keeps a space", nameWidth: 2, terms: []Term{{"plugin-stop", "stops a plugin"}},
			want: "  plugin-stop stops a plugin"},
		{name: "below a name wider than its column, the text wraps under the column", nameWidth: 4, terms: []Term{{"plugin-down-apiserver-restarted", strings.Repeat("word ", 20)}},
			want: "  plugin-down-apiserver-restarted" + strings.Repeat(" word", 16) + "\n       word word word word"},
		{name: "a word longer than a line is not split", nameWidth: 4, terms: []Term{{"1", strings.Repeat("x", 130)}},
			want: "  1    " + strings.Repeat("x", 130)},
		{name: "a long text wraps under its column", nameWidth: 4, terms: []Term{{"2", long}}},
	} {
		t.Run(s.name, func(t *testing.T) {
			got := TermList(s.nameWidth, s.terms)
			if s.want != "" {
				if got != s.want {
					t.Errorf("got\n%s\nwant\n%s", got, s.want)
				}
				return
			}
			lines := strings.Split(got, "\n")
			if len(lines) < 3 {
				t.Fatalf("%d lines, want the text wrapped onto 3 or more:\n%s", len(lines), got)
			}
			indent := strings.Repeat(" ", 2+s.nameWidth+1)
			for i, line := range lines {
				if len(line) > helpWidth {
					t.Errorf("line %d is %d wide, more than %d: %q", i, len(line), helpWidth, line)
				}
				if i > 0 && (!strings.HasPrefix(line, indent) || line[len(indent)] == ' ') {
					t.Errorf("line %d is not under the text's column: %q", i, line)
				}
			}
			if words := strings.Fields(got)[1:]; !slices.Equal(words, strings.Fields(long)) {
				t.Errorf("the words changed:\n%s", got)
			}
		})
	}
}

// TestWithExitCodes: the codes end the command's help, after its Long or, without one, its Short, and
// ExitCodesOf reads them back from the command.
func TestWithExitCodes(t *testing.T) {
	codes := []ExitCode{{ExitOK, "done"}, {ExitError, "error"}, {7, "a refusal"}}
	section := "Exit codes:\n  0    done\n  1    error\n  7    a refusal"
	for _, s := range []struct {
		name     string
		cmd      *cobra.Command
		wantLong string
	}{
		{name: "after Long", cmd: &cobra.Command{Use: "a", Short: "Short", Long: "Long text."}, wantLong: "Long text.\n\n" + section},
		{name: "after Short without Long", cmd: &cobra.Command{Use: "a", Short: "Do a thing"}, wantLong: "Do a thing.\n\n" + section},
		{name: "beside other annotations", cmd: Logs(&cobra.Command{Use: "a", Long: "Long text."}), wantLong: "Long text.\n\n" + section},
	} {
		t.Run(s.name, func(t *testing.T) {
			cmd := WithExitCodes(s.cmd, codes)
			if cmd.Long != s.wantLong {
				t.Errorf("Long is\n%s\nwant\n%s", cmd.Long, s.wantLong)
			}
			got, err := ExitCodesOf(cmd)
			if err != nil || !slices.Equal(got, []int{0, 1, 7}) {
				t.Errorf("ExitCodesOf: %v, %v; want [0 1 7]", got, err)
			}
		})
	}
	if got, err := ExitCodesOf(&cobra.Command{Use: "undocumented"}); got != nil || err != nil {
		t.Errorf("ExitCodesOf a command without exit codes: %v, %v; want none", got, err)
	}
}
