package main

import (
	"fmt"
	"strings"

	"github.com/kmsguard/kmsguard/internal/cli"
)

// Exit codes follow one scheme for every command, exitCodeScheme: internal/cli defines 0, 1, 2 and 130; the
// refusals, from 3 up, are kmsguard's own, each with one meaning.
const (
	// exitConsentMismatch: recover --confirm-data-loss names no key of the undecryptable objects, or a bare KEK
	// id that several KMS providers have.
	exitConsentMismatch = 3
	// exitConsentUnprovable: recover --confirm-data-loss names "unknown" or "identity": etcd shows no lost key.
	exitConsentUnprovable = 4
	// exitConsentNamesCurrentKey: recover --confirm-data-loss names a KEK id a plugin serves or that is current.
	exitConsentNamesCurrentKey = 5
	// exitKMSUnhealthy: the KMS plugins of the current keys are not healthy, or their health cannot be read.
	exitKMSUnhealthy = 6
	// exitReadKeyInUse: verify --can-drop names a read key the pruning rule does not let go yet.
	exitReadKeyInUse = 7
)

// The exit codes of each command, as its --help lists them (cli.WithExitCodes, where the command is built). Each
// command returns these and no others.
var (
	plainExitCodes = []cli.ExitCode{
		{Code: cli.ExitOK, Meaning: "success"},
		{Code: cli.ExitError, Meaning: "error"},
	}
	statusExitCodes = []cli.ExitCode{
		{Code: cli.ExitOK, Meaning: "the operator's current evaluation and conditions were read and printed"},
		{Code: cli.ExitError, Meaning: "error: bad flags, or the API cannot be reached or read"},
		{Code: cli.ExitIncomplete, Meaning: "the operator has published no evaluation, or a stale one, or one older than its KMSPluginsDegraded condition"},
		{Code: cli.ExitInterrupted, Meaning: "interrupted (Ctrl-C, SIGTERM)"},
	}
	verifyExitCodes = []cli.ExitCode{
		{Code: cli.ExitOK, Meaning: "verified: every resource's objects are counted by the API and stored under the write key, and every --can-drop key may be dropped"},
		{Code: cli.ExitError, Meaning: "error: bad flags, etcd or the API unreachable, or no resource has any key under an explicit --etcd-prefix"},
		{Code: cli.ExitIncomplete, Meaning: "not verified: values under other keys or unparsable, counts that disagree with the API, no keys while the API lists objects, or a sampled object that could not be read"},
		{Code: exitReadKeyInUse, Meaning: "a --can-drop read key may not be dropped yet: values under it, no finished migration, no confirmed count, or the rollback window has not passed"},
		{Code: cli.ExitInterrupted, Meaning: "interrupted (Ctrl-C, SIGTERM)"},
	}
	migrateExitCodes = []cli.ExitCode{
		{Code: cli.ExitOK, Meaning: "every object is migrated"},
		{Code: cli.ExitError, Meaning: "error: a resource could not be migrated (bad flags, discovery, LIST failures, --timeout)"},
		{Code: cli.ExitIncomplete, Meaning: "finished, but some objects are undecryptable or could not be rewritten"},
		{Code: cli.ExitInterrupted, Meaning: "interrupted (Ctrl-C, SIGTERM); with --checkpoint-configmap a later run resumes"},
	}
	recoverExitCodes = []cli.ExitCode{
		{Code: cli.ExitOK, Meaning: "nothing is undecryptable (any more)"},
		{Code: cli.ExitError, Meaning: "error: a scan, a delete or the scan after the deletion failed, or --timeout passed"},
		{Code: cli.ExitIncomplete, Meaning: "undecryptable objects remain (no consent, dry run, or objects under other keys)"},
		{Code: exitConsentMismatch, Meaning: "--confirm-data-loss names no key of the undecryptable objects, or a KEK id of several providers"},
		{Code: exitConsentUnprovable, Meaning: `--confirm-data-loss names "unknown" or "identity": no etcd evidence of a lost key`},
		{Code: exitConsentNamesCurrentKey, Meaning: "--confirm-data-loss names a KEK id a KMS plugin serves or that is current"},
		{Code: exitKMSUnhealthy, Meaning: "the KMS plugins of the current keys are not healthy, or their health cannot be read"},
		{Code: cli.ExitInterrupted, Meaning: "interrupted (Ctrl-C, SIGTERM) after the delete in flight"},
	}
)

// exitCodeScheme is the scheme every command follows, as the root --help and docs/cli.md list it. The meanings are
// Markdown, for docs/cli.md; the root --help prints them without the backquotes.
var exitCodeScheme = []cli.ExitCode{
	{Code: cli.ExitOK, Meaning: "success: done, or proven (`verify`: verified; `migrate`: every object migrated; `recover`: nothing undecryptable)"},
	{Code: cli.ExitError, Meaning: "error: bad flags, the API or etcd unreachable, a failed step, `--timeout` passed"},
	{Code: cli.ExitIncomplete, Meaning: "not done or not proven: `status` has no current published evaluation, `verify` not verified, `migrate` left objects undecryptable or not rewritten, `recover` left undecryptable objects (no consent, dry run, other keys)"},
	{Code: exitConsentMismatch, Meaning: "`recover`: `--confirm-data-loss` names no key of the undecryptable objects, or a bare KEK id several providers have"},
	{Code: exitConsentUnprovable, Meaning: "`recover`: `--confirm-data-loss` names `unknown` or `identity`: no etcd evidence of a lost key"},
	{Code: exitConsentNamesCurrentKey, Meaning: "`recover`: `--confirm-data-loss` names a KEK id a KMS plugin serves or that is current"},
	{Code: exitKMSUnhealthy, Meaning: "`recover`: the KMS plugins of the current keys are not healthy, or their health cannot be read"},
	{Code: exitReadKeyInUse, Meaning: "`verify --can-drop`: a named read key may not be dropped yet (the pruning rule `evidence.CanDropReadKey` refuses)"},
	{Code: cli.ExitInterrupted, Meaning: "interrupted (Ctrl-C, SIGTERM); `recover` stops after the delete in flight, `migrate` saves its checkpoint"},
}

// exitCodeSchemeMarkdown is docs/cli.md's table of exitCodeScheme.
func exitCodeSchemeMarkdown() string {
	var b strings.Builder
	b.WriteString("| code | meaning |\n| --- | --- |\n")
	for _, c := range exitCodeScheme {
		fmt.Fprintf(&b, "| %d | %s |\n", c.Code, c.Meaning)
	}
	return b.String()
}

// exitCodeSchemeHeading starts the root --help's list of exitCodeScheme.
const exitCodeSchemeHeading = "Exit codes follow one scheme for every command (each command's --help lists its own):"

// exitCodeSchemeHelp is the root command's list of the scheme.
func exitCodeSchemeHelp() string {
	codes := make([]cli.ExitCode, 0, len(exitCodeScheme))
	for _, c := range exitCodeScheme {
		codes = append(codes, cli.ExitCode{Code: c.Code, Meaning: strings.ReplaceAll(c.Meaning, "`", "")})
	}
	return exitCodeSchemeHeading + "\n" + cli.ExitCodeList(codes)
}
