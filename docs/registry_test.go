package docs_test

import (
	"errors"
	"fmt"
	"go/build"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"k8s.io/component-base/metrics"

	"github.com/kmsguard/kmsguard/internal/conditions"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/kmsstate/apiserverprobe"
)

// The reasons and metrics the runbooks answer to, read from the registries the packages export, with their
// types: no rule of naming or syntax decides what a reason is.
//
// Each package that sets operator conditions exports ConditionReasons, the reasons its conditions can carry, next
// to its reason constants and derived from its severity order or its metrics' reason list where it has one.
// internal/conditions exports the reasons of every <Name>ControllerDegraded (ControllerDegradedReasons). The
// package's own tests check every condition they make its controllers set against its registry
// (internal/conventionstest.ExpectRegisteredReasons), so a reason the code sets, however computed, is registered,
// and so has a runbook here.
//
// A few reasons no condition carries are what an admin reads in other conditions' messages and in metrics, and
// have runbooks too (quotedReasons).

// registry is the reasons one package registers.
type registry struct {
	// name says where they come from in a failure message: "kmsstate.ConditionReasons".
	name string
	// pkg is the package, relative to the module root.
	pkg     string
	reasons []string
}

// conditionRegistries are the ConditionReasons of every package that sets operator conditions.
// TestConditionRegistriesComplete keeps the list whole.
func conditionRegistries() []registry {
	return []registry{
		{name: "conditions.ControllerDegradedReasons", pkg: "internal/conditions", reasons: conditions.ControllerDegradedReasons()},
		{name: "kmsstate.ConditionReasons", pkg: "pkg/kmsstate", reasons: kmsstate.ConditionReasons()},
		{name: "kmsprecondition.ConditionReasons", pkg: "pkg/kmsprecondition", reasons: kmsprecondition.ConditionReasons()},
		{name: "kmsrollback.ConditionReasons", pkg: "pkg/kmsrollback", reasons: kmsrollback.ConditionReasons()},
		{name: "kmsmigration.ConditionReasons", pkg: "pkg/kmsmigration", reasons: kmsmigration.ConditionReasons()},
		{name: "kmsrecovery.ConditionReasons", pkg: "pkg/kmsrecovery", reasons: kmsrecovery.ConditionReasons()},
		{name: "evidence.ConditionReasons", pkg: "pkg/evidence", reasons: evidence.ConditionReasons()},
	}
}

// quotedReasons are the reason lists whose values are quoted where an admin reads them without any condition
// carrying them as its reason: kmsstate's failure Reasons, StateStale and StateNotEvaluated among them, which the
// rollout gate's and kmsrollback's messages and `kmsguard status` name, and kmsmigration's pauses, RetryAfter among
// them, which KMSMigrationProgressing's message and kmsguard_migration_paused name.
func quotedReasons() []registry {
	var state, pauses []string
	for _, r := range kmsstate.Reasons() {
		state = append(state, string(r))
	}
	for _, r := range kmsmigration.PauseReasons() {
		pauses = append(pauses, string(r))
	}
	return []registry{
		{name: "kmsstate.Reasons", pkg: "pkg/kmsstate", reasons: state},
		{name: "kmsmigration.PauseReasons", pkg: "pkg/kmsmigration", reasons: pauses},
	}
}

// reasons maps each registered reason to the registries that list it ("kmsstate.ConditionReasons"). Several
// packages register AsExpected and UndecryptableObjects; each is one reason, with one runbook.
type reasons map[string][]string

func collectReasons(registries ...registry) reasons {
	found := reasons{}
	for _, r := range registries {
		for _, reason := range r.reasons {
			if !slices.Contains(found[reason], r.name) {
				found[reason] = append(found[reason], r.name)
			}
		}
	}
	for _, names := range found {
		sort.Strings(names)
	}
	return found
}

// conditionReason is what the API accepts as a condition's reason (metav1.Condition's validation): CamelCase, no
// spaces.
var conditionReason = regexp.MustCompile(`^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`)

// checkRegistries returns what is wrong with the registries themselves: none may be empty, list a reason twice
// (a list kept by hand that drifted), or list a value the API would refuse as a condition's reason.
func checkRegistries(registries []registry) []string {
	var problems []string
	for _, r := range registries {
		if len(r.reasons) == 0 {
			problems = append(problems, r.name+" registers no reason")
		}
		seen := map[string]bool{}
		for _, reason := range r.reasons {
			if seen[reason] {
				problems = append(problems, fmt.Sprintf("%s lists %q twice", r.name, reason))
			}
			seen[reason] = true
			if !conditionReason.MatchString(reason) {
				problems = append(problems, fmt.Sprintf("%s lists %q, which is no valid condition reason", r.name, reason))
			}
		}
	}
	return problems
}

// metricRegistry is what one package registers in component-base's legacy registry.
type metricRegistry struct {
	pkg        string
	collectors []metrics.Registerable
}

// metricRegistries are the RegisterMetrics of every package that registers metrics. TestMetricRegistriesComplete
// keeps the list whole.
func metricRegistries() []metricRegistry {
	return []metricRegistry{
		{pkg: "pkg/kmsstate", collectors: kmsstate.RegisterMetrics()},
		{pkg: "pkg/kmsrollback", collectors: kmsrollback.RegisterMetrics()},
		{pkg: "pkg/kmsmigration", collectors: kmsmigration.RegisterMetrics()},
		{pkg: "pkg/kmsrecovery", collectors: kmsrecovery.RegisterMetrics()},
		{pkg: "pkg/evidence", collectors: evidence.RegisterMetrics()},
	}
}

// metricNames are the names of the metrics kmsguard registers (kmsguard_kms_plugin_healthy, ...) and of those it
// reads from kube-apiserver (apiserverprobe.ReadMetrics): every name a runbook may cite.
func metricNames() map[string]bool {
	names := map[string]bool{}
	for _, r := range metricRegistries() {
		for _, c := range r.collectors {
			names[c.FQName()] = true
		}
	}
	for _, name := range apiserverprobe.ReadMetrics() {
		names[name] = true
	}
	return names
}

// importers are the packages under the module's pkg/ and internal/ (relative to root) whose non-test files import
// importPath, but for the test support packages (internal/conventionstest, internal/metricstest, every one named
// *test), which only tests import. Only the import clauses are read: which package sets conditions or registers
// metrics is the one fact of the code these tests read other than through the registries, so that a package with
// a registry of its own cannot be left out of them.
func importers(t *testing.T, importPath string) []string {
	t.Helper()
	root := moduleRoot(t)
	var found []string
	for _, dir := range []string{"pkg", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			if name := d.Name(); name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			pkg, err := build.Default.ImportDir(p, build.ImportComment)
			if err != nil {
				if noGo := (*build.NoGoError)(nil); errors.As(err, &noGo) {
					return nil
				}
				return err
			}
			if slices.Contains(pkg.Imports, importPath) && !strings.HasSuffix(pkg.Name, "test") {
				rel, err := filepath.Rel(root, p)
				if err != nil {
					return err
				}
				found = append(found, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return found
}

// TestConditionRegistriesComplete fails when a package that builds operator conditions with internal/conditions,
// as every kmsguard controller does, has no registry in conditionRegistries: its reasons would need no runbook.
func TestConditionRegistriesComplete(t *testing.T) {
	listed := map[string]bool{"internal/conditions": true}
	for _, r := range conditionRegistries() {
		listed[r.pkg] = true
	}
	for _, pkg := range importers(t, modulePath(t)+"/internal/conditions") {
		if !listed[pkg] {
			t.Errorf("%s sets operator conditions (it imports internal/conditions) and is not in conditionRegistries: export its ConditionReasons and list it", pkg)
		}
	}
}

// TestMetricRegistriesComplete fails when a package that registers metrics in component-base's legacy registry is
// not in metricRegistries: a runbook could not cite its metrics.
func TestMetricRegistriesComplete(t *testing.T) {
	listed := map[string]bool{}
	for _, r := range metricRegistries() {
		listed[r.pkg] = true
	}
	for _, pkg := range importers(t, "k8s.io/component-base/metrics/legacyregistry") {
		if !listed[pkg] {
			t.Errorf("%s registers metrics (it imports legacyregistry) and is not in metricRegistries: list its RegisterMetrics", pkg)
		}
	}
}

// TestRegistries fails when a registry is empty, lists a reason twice or lists an invalid reason, and when a
// package registers no metric.
func TestRegistries(t *testing.T) {
	for _, p := range checkRegistries(append(conditionRegistries(), quotedReasons()...)) {
		t.Error(p)
	}
	for _, r := range metricRegistries() {
		if len(r.collectors) == 0 {
			t.Errorf("%s.RegisterMetrics registers nothing", r.pkg)
		}
	}
}

func TestCheckRegistries(t *testing.T) {
	got := checkRegistries([]registry{
		{name: "a.ConditionReasons", reasons: []string{"AsExpected", "Broken"}},
		{name: "b.ConditionReasons"},
		{name: "c.ConditionReasons", reasons: []string{"Broken", "Broken", "not a reason", ""}},
	})
	want := []string{
		"b.ConditionReasons registers no reason",
		`c.ConditionReasons lists "Broken" twice`,
		`c.ConditionReasons lists "not a reason", which is no valid condition reason`,
		`c.ConditionReasons lists "", which is no valid condition reason`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
