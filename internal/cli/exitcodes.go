package cli

import (
	"fmt"
	"strings"
)

// The exit codes every command shares. A command may add refusals of its own, each with one meaning, from 3 up.
const (
	ExitOK = 0
	// ExitError: the command could not do its job.
	ExitError = 1
	// ExitIncomplete: the command ran to its end, but what it is for is not done or not proven.
	ExitIncomplete = 2
	// ExitInterrupted: stopped by SIGINT or SIGTERM.
	ExitInterrupted = 130
)

// ExitCode is one exit code of one command and what it means there.
type ExitCode struct {
	Code    int
	Meaning string
}

// ExitCodesHelp is the "Exit codes:" section of a command's --help.
func ExitCodesHelp(codes []ExitCode) string {
	var b strings.Builder
	b.WriteString("Exit codes:")
	for _, c := range codes {
		fmt.Fprintf(&b, "\n  %-4d %s", c.Code, c.Meaning)
	}
	return b.String()
}
