package docs_test

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// The reasons kmsguard sets on operator conditions, as the code names them.
//
// Every condition reason in kmsguard is a named string constant, in one of two forms:
//
//   - a constant whose name is Reason<Something>: kmsstate.ReasonKMSNotConfigured, kmsmigration.ReasonMigrating,
//     conditions.ReasonSyncError ("Error", the reason of every <Name>ControllerDegraded a failed sync sets);
//   - a constant of a type named Reason or <Something>Reason: kmsstate.Reason, kmsprecondition.Reason,
//     kmsrollback.Reason, kmsrecovery.Reason and kmsmigration.PauseReason. The typed errors that pick a
//     condition's reason (kmsprecondition.BlockingError, kmsrollback.Verdict, kmsrecovery.ConsentError,
//     kmsstate.UnhealthyError) return these from their Reason methods.
//
// Only packages that build operator conditions count: those that import operatorv1 or internal/conditions. In
// pkg/evidence, which does (its CensusController sets KMSEncryptionVerified), the types Reason and PruneReason
// (verdictReasonTypes) say why a resource is not verified or a read key may not be dropped; they reach
// condition messages and `kmsguard verify`'s report, never a condition's reason, and are left out. The empty
// value of a reason type names no reason (kmsmigration.NotPaused) and is left out.
//
// The rule takes every value of a reason type, also those no condition carries as its reason today:
// kmsstate.ReasonStateStale and ReasonStateNotEvaluated (the Reader's answer, quoted in other conditions'
// messages) and kmsmigration.PausedRetryAfter (a pause shown in KMSMigrationProgressing's message and in
// kmsguard_migration_paused). They are what an admin reads in those messages, so they get a runbook too; a rule
// that tried to tell them apart would need the data flow, not the declarations.
//
// TestNoLiteralReasons keeps the rule true: a string literal the code puts where a condition's reason goes must
// be the value of such a constant.

// reasons maps each reason to the constants that declare it ("kmsstate.ReasonDecryptFailing"). Several packages
// declare AsExpected and UndecryptableObjects; each is one reason, with one runbook.
type reasons map[string][]string

// collectReasons finds the reasons of the packages in t that build operator conditions. A reason constant whose
// value cannot be read is an error: the test would otherwise miss it.
func collectReasons(t *tree) (reasons, []error) {
	found := reasons{}
	var errs []error
	for _, importPath := range sortedKeys(t.pkgs) {
		pkg := t.pkgs[importPath]
		if !t.buildsConditions(pkg) {
			continue
		}
		for _, name := range sortedKeys(t.consts[importPath]) {
			c := t.consts[importPath][name]
			if !isReasonConstName(c.name) && !isReasonTypeName(typeName(c.typ)) || verdictReasonTypes[pkg.name+"."+typeName(c.typ)] {
				continue
			}
			value, ok := t.stringValue(c.pkg, c.file, c.value)
			if !ok {
				errs = append(errs, fmt.Errorf("%s.%s: cannot read its value as a constant string", pkg.name, c.name))
				continue
			}
			if value == "" {
				continue
			}
			found[value] = append(found[value], pkg.name+"."+c.name)
		}
	}
	for _, names := range found {
		sort.Strings(names)
	}
	return found, errs
}

// verdictReasonTypes are the reason types of a package that builds conditions whose values are not condition
// reasons: pkg/evidence's verdicts on a resource and on a read key.
var verdictReasonTypes = map[string]bool{"evidence.Reason": true, "evidence.PruneReason": true}

// buildsConditions reports whether pkg imports operatorv1 or internal/conditions.
func (t *tree) buildsConditions(pkg *goPackage) bool {
	for _, f := range pkg.files {
		for _, imp := range f.syntax.Imports {
			if p := strings.Trim(imp.Path.Value, `"`); p == operatorV1 || p == t.module+"/internal/conditions" {
				return true
			}
		}
	}
	return false
}

// isReasonConstName: Reason followed by a capitalised word (ReasonAsExpected, not Reasonable).
func isReasonConstName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Reason")
	if !ok {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return unicode.IsUpper(r)
}

// isReasonTypeName: Reason, or a name ending in Reason (PauseReason).
func isReasonTypeName(name string) bool {
	return strings.HasSuffix(name, "Reason")
}

// conditionsSource is a stand-in for internal/conditions in the scenarios.
const conditionsSource = `package conditions

import operatorv1 "github.com/openshift/api/operator/v1"

const ReasonAsExpected = "AsExpected"

func New(conditionType string, status operatorv1.ConditionStatus, reason, message string) operatorv1.OperatorCondition {
	return operatorv1.OperatorCondition{Type: conditionType, Status: status, Reason: reason, Message: message}
}
`

// scenarioTree parses a module example.com/m of internal/conditions and the package example.com/m/pkg/a with
// source a.
func scenarioTree(t *testing.T, a string, more map[string]string) *tree {
	t.Helper()
	sources := map[string]map[string][]byte{
		"example.com/m/internal/conditions": {"conditions.go": []byte(conditionsSource)},
		"example.com/m/pkg/a":               {"a.go": []byte(a)},
	}
	for importPath, src := range more {
		sources[importPath] = map[string][]byte{importPath + "/x.go": []byte(src)}
	}
	code, err := parseTree("example.com/m", sources)
	if err != nil {
		t.Fatal(err)
	}
	return code
}

func TestCollectReasons(t *testing.T) {
	scenarios := []struct {
		name    string
		a       string
		more    map[string]string
		want    string
		wantErr string
	}{
		{
			name: "Reason-named constants and constants of reason types",
			a: `package a
import "example.com/m/internal/conditions"
type Reason string
type PauseReason string
const (
	ReasonAsExpected Reason = conditions.ReasonAsExpected
	ReasonBroken Reason = "Broken"
	ReasonMigrating = "Migrating"
	PausedSlow PauseReason = "Slow"
	NotPaused PauseReason = ""
	Reasonable = "not a reason"
	ConditionDegraded = "ADegraded"
)`,
			want: "AsExpected: a.ReasonAsExpected, conditions.ReasonAsExpected; Broken: a.ReasonBroken; Migrating: a.ReasonMigrating; Slow: a.PausedSlow",
		},
		{
			name: "a spec without a value repeats the one before",
			a: `package a
import operatorv1 "github.com/openshift/api/operator/v1"
var _ operatorv1.OperatorCondition
type Reason string
const (
	ReasonA Reason = "Same"
	ReasonB
)`,
			want: "AsExpected: conditions.ReasonAsExpected; Same: a.ReasonA, a.ReasonB",
		},
		{
			name: "a package that builds no condition has no condition reasons",
			a:    "package a\ntype Reason string\nconst ReasonNoKeys Reason = \"NoKeys\"",
			want: "AsExpected: conditions.ReasonAsExpected",
		},
		{
			name: "a value from another package and a concatenation",
			a: `package a
import (
	"example.com/m/internal/conditions"
	"example.com/m/pkg/b"
)
const ReasonNamed = b.Prefix + "Named"
var _ = conditions.New`,
			more: map[string]string{"example.com/m/pkg/b": "package b\nconst Prefix = \"B\""},
			want: "AsExpected: conditions.ReasonAsExpected; BNamed: a.ReasonNamed",
		},
		{
			name:    "a reason whose value cannot be read",
			a:       "package a\nimport \"example.com/m/internal/conditions\"\nconst ReasonLen = len(conditions.ReasonAsExpected)",
			want:    "AsExpected: conditions.ReasonAsExpected",
			wantErr: "a.ReasonLen: cannot read its value as a constant string",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			found, errs := collectReasons(scenarioTree(t, s.a, s.more))
			var got []string
			for _, value := range sortedKeys(found) {
				got = append(got, value+": "+strings.Join(found[value], ", "))
			}
			if strings.Join(got, "; ") != s.want {
				t.Errorf("reasons\n%s\nwant\n%s", strings.Join(got, "; "), s.want)
			}
			if gotErr := fmt.Sprint(errors.Join(errs...)); (s.wantErr == "" && len(errs) > 0) || (s.wantErr != "" && gotErr != s.wantErr) {
				t.Errorf("errors %q, want %q", gotErr, s.wantErr)
			}
		})
	}
}
