package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
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

// ExitCodeList is codes as a command's help lists them: one to a line, the meaning beside the code.
func ExitCodeList(codes []ExitCode) string {
	terms := make([]Term, 0, len(codes))
	for _, c := range codes {
		terms = append(terms, Term{Name: strconv.Itoa(c.Code), Text: c.Meaning})
	}
	return TermList(4, terms)
}

// ExitCodesHeading is the line that starts the section of a command's --help that lists its exit codes.
const ExitCodesHeading = "Exit codes:"

// annotationExitCodes holds the codes WithExitCodes gave a command, comma separated.
const annotationExitCodes = "kmsguard.io/exit-codes"

// WithExitCodes documents the exit codes cmd returns: it ends cmd's --help (its Long, or its Short when it has
// no Long) with an "Exit codes:" section listing them, and annotates cmd with them for ExitCodesOf. They are set
// on the command itself, so that a subcommand is documented as surely as a top-level one.
func WithExitCodes(cmd *cobra.Command, codes []ExitCode) *cobra.Command {
	long := cmd.Long
	if long == "" {
		long = cmd.Short + "."
	}
	cmd.Long = long + "\n\n" + ExitCodesHeading + "\n" + ExitCodeList(codes)
	numbers := make([]string, 0, len(codes))
	for _, c := range codes {
		numbers = append(numbers, strconv.Itoa(c.Code))
	}
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[annotationExitCodes] = strings.Join(numbers, ",")
	return cmd
}

// ExitCodesOf returns the exit codes WithExitCodes gave cmd, in the order its --help lists them; none when it gave
// none.
func ExitCodesOf(cmd *cobra.Command) ([]int, error) {
	annotation, ok := cmd.Annotations[annotationExitCodes]
	if !ok {
		return nil, nil
	}
	var codes []int
	for _, s := range strings.Split(annotation, ",") {
		code, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("%s: annotation %s=%q: %w", cmd.CommandPath(), annotationExitCodes, annotation, err)
		}
		codes = append(codes, code)
	}
	return codes, nil
}
