package main

import (
	"fmt"
	"strings"
)

// Exit codes, one scheme for every command:
//
//	0    success: the command did, or proved, what it was asked
//	1    error: bad flags, a cluster or etcd that cannot be reached or read, a failed step
//	2    not done or not proven: no current published KMS state, not verified, objects left unmigrated or undecryptable
//	3-7  a refusal, each with one meaning (below)
//	130  interrupted (Ctrl-C, SIGTERM)
const (
	exitOK = 0
	// exitError: the command could not do its job.
	exitError = 1
	// exitIncomplete: the command ran to its end, but what it is for is not done or not proven.
	exitIncomplete = 2
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
	// exitInterrupted: stopped by SIGINT or SIGTERM.
	exitInterrupted = 130
)

// exitCode is one exit code of one command and what it means there.
type exitCode struct {
	code    int
	meaning string
}

// The exit codes of each command, as its --help lists them. Each command returns these and no others.
var (
	plainExitCodes = []exitCode{
		{exitOK, "success"},
		{exitError, "error"},
	}
	statusExitCodes = []exitCode{
		{exitOK, "the operator's current evaluation and conditions were read and printed"},
		{exitError, "error: bad flags, or the API cannot be reached or read"},
		{exitIncomplete, "the operator has published no evaluation, or a stale one, or one older than its KMSPluginsDegraded condition"},
		{exitInterrupted, "interrupted (Ctrl-C, SIGTERM)"},
	}
	verifyExitCodes = []exitCode{
		{exitOK, "verified: every resource's objects are counted by the API and stored under the write key, and every --can-drop key may be dropped"},
		{exitError, "error: bad flags, etcd or the API unreachable, or no resource has any key under an explicit --etcd-prefix"},
		{exitIncomplete, "not verified: values under other keys or unparsable, counts that disagree with the API, no keys while the API lists objects, or a sampled object that could not be read"},
		{exitReadKeyInUse, "a --can-drop read key may not be dropped yet: values under it, no finished migration, no confirmed count, or the rollback window has not passed"},
		{exitInterrupted, "interrupted (Ctrl-C, SIGTERM)"},
	}
	migrateExitCodes = []exitCode{
		{exitOK, "every object is migrated"},
		{exitError, "error: a resource could not be migrated (bad flags, discovery, LIST failures, --timeout)"},
		{exitIncomplete, "finished, but some objects are undecryptable or could not be rewritten"},
		{exitInterrupted, "interrupted (Ctrl-C, SIGTERM); with --checkpoint-configmap a later run resumes"},
	}
	recoverExitCodes = []exitCode{
		{exitOK, "nothing is undecryptable (any more)"},
		{exitError, "error: a scan, a delete or the scan after the deletion failed, or --timeout passed"},
		{exitIncomplete, "undecryptable objects remain (no consent, dry run, or objects under other keys)"},
		{exitConsentMismatch, "--confirm-data-loss names no key of the undecryptable objects, or a KEK id of several providers"},
		{exitConsentUnprovable, `--confirm-data-loss names "unknown" or "identity": no etcd evidence of a lost key`},
		{exitConsentNamesCurrentKey, "--confirm-data-loss names a KEK id a KMS plugin serves or that is current"},
		{exitKMSUnhealthy, "the KMS plugins of the current keys are not healthy, or their health cannot be read"},
		{exitInterrupted, "interrupted (Ctrl-C, SIGTERM) after the delete in flight"},
	}
)

// commandExitCodes are the exit codes of every command, for the tests and the README.
var commandExitCodes = map[string][]exitCode{
	"version":         plainExitCodes,
	"health-reporter": plainExitCodes,
	"lab":             plainExitCodes,
	"lab tour":        labTourExitCodes,
	"status":          statusExitCodes,
	"verify":          verifyExitCodes,
	"migrate":         migrateExitCodes,
	"recover":         recoverExitCodes,
}

// exitCodesHelp is the "Exit codes:" section of a command's --help.
func exitCodesHelp(codes []exitCode) string {
	var b strings.Builder
	b.WriteString("Exit codes:")
	for _, c := range codes {
		fmt.Fprintf(&b, "\n  %-4d %s", c.code, c.meaning)
	}
	return b.String()
}

// exitCodeScheme is the scheme every command follows, as the root --help and the README list it.
var exitCodeScheme = []exitCode{
	{exitOK, "success: done, or proven (`verify`: verified; `migrate`: every object migrated; `recover`: nothing undecryptable)"},
	{exitError, "error: bad flags, the API or etcd unreachable, a failed step, `--timeout` passed"},
	{exitIncomplete, "not done or not proven: `status` has no current published evaluation, `verify` not verified, `migrate` left objects undecryptable or not rewritten, `recover` left undecryptable objects (no consent, dry run, other keys)"},
	{exitConsentMismatch, "`recover`: `--confirm-data-loss` names no key of the undecryptable objects, or a bare KEK id several providers have"},
	{exitConsentUnprovable, "`recover`: `--confirm-data-loss` names `unknown` or `identity`: no etcd evidence of a lost key"},
	{exitConsentNamesCurrentKey, "`recover`: `--confirm-data-loss` names a KEK id a KMS plugin serves or that is current"},
	{exitKMSUnhealthy, "`recover`: the KMS plugins of the current keys are not healthy, or their health cannot be read"},
	{exitReadKeyInUse, "`verify --can-drop`: a named read key may not be dropped yet (the pruning rule `evidence.CanDropReadKey` refuses)"},
	{exitInterrupted, "interrupted (Ctrl-C, SIGTERM); `recover` stops after the delete in flight, `migrate` saves its checkpoint"},
}

// exitCodeSchemeMarkdown is the README's table of exitCodeScheme.
func exitCodeSchemeMarkdown() string {
	var b strings.Builder
	b.WriteString("| code | meaning |\n| --- | --- |\n")
	for _, c := range exitCodeScheme {
		fmt.Fprintf(&b, "| %d | %s |\n", c.code, c.meaning)
	}
	return b.String()
}

// exitCodeSchemeHelp is the root command's summary of the scheme.
func exitCodeSchemeHelp() string {
	return `Exit codes follow one scheme for every command (each command's --help lists its own):
  0    success: done, or proven
  1    error: bad flags, the API or etcd unreachable, a failed step
  2    not done or not proven: no current published KMS state, not verified, objects left unmigrated or undecryptable
  3-7  a refusal with a specific meaning (recover: 3-6, verify --can-drop: 7)
  130  interrupted (Ctrl-C, SIGTERM)`
}
