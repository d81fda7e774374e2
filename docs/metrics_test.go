package docs_test

import (
	"go/ast"
	"strings"
)

// metricOpts are component-base's option types, whose Namespace, Subsystem and Name make a metric's name.
var metricOpts = map[string]bool{"CounterOpts": true, "GaugeOpts": true, "HistogramOpts": true, "SummaryOpts": true}

// collectMetricNames returns the names of the metrics the tree registers (kmsguard_kms_plugin_healthy, ...) and
// the string constants that name metrics it reads (apiserver_storage_transformation_operations_total, ...):
// every name a runbook may cite.
func collectMetricNames(t *tree) map[string]bool {
	names := map[string]bool{}
	for _, importPath := range sortedKeys(t.pkgs) {
		pkg := t.pkgs[importPath]
		for _, f := range pkg.files {
			ast.Inspect(f.syntax, func(n ast.Node) bool {
				lit, ok := n.(*ast.CompositeLit)
				if !ok {
					return true
				}
				sel, ok := lit.Type.(*ast.SelectorExpr)
				if !ok || !metricOpts[sel.Sel.Name] {
					return true
				}
				var parts []string
				for _, key := range []string{"Namespace", "Subsystem", "Name"} {
					for _, elt := range lit.Elts {
						kv, ok := elt.(*ast.KeyValueExpr)
						if !ok {
							continue
						}
						if k, ok := kv.Key.(*ast.Ident); !ok || k.Name != key {
							continue
						}
						if s, ok := t.stringValue(pkg, f, kv.Value); ok && s != "" {
							parts = append(parts, s)
						}
					}
				}
				names[strings.Join(parts, "_")] = true
				return true
			})
		}
		for _, name := range sortedKeys(t.consts[importPath]) {
			c := t.consts[importPath][name]
			if s, ok := t.stringValue(c.pkg, c.file, c.value); ok && s != "" && metricName.FindString(s) == s {
				names[s] = true
			}
		}
	}
	return names
}
