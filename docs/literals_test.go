package docs_test

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// literalReason is a string literal the code sets as a condition's reason.
type literalReason struct {
	where, value, site string
}

func (l literalReason) String() string {
	return fmt.Sprintf("%s: %q set as %s", l.where, l.value, l.site)
}

// literalReasons finds the string literals that the packages building operator conditions put where a reason
// goes, without type checking, in every place where the syntax alone says so:
//
//   - the Reason field of an operatorv1.OperatorCondition literal, and an assignment to the Reason field of a
//     variable or struct field declared as one (cond.Reason = ..., c.degraded.Reason = ...);
//   - the argument of a WithReason call (the apply configurations);
//   - an argument for a parameter named reason, or of a reason type, of a function of the tree (conditions.New,
//     kmsstate's condition, kmsmigration's setDegraded closure, ...);
//   - a field of a reason type in a literal of a struct of the tree (kmsrecovery.ConsentError{Why: ...});
//   - a conversion to a reason type (Reason("..."));
//   - a result of a ConditionReason method (internal/conditions' Reasoner).
//
// Literals whose value is in known, the values of the reason constants, are not reported: they name a reason
// the constants already declare (internal/conventionstest asserts library-go's "AsExpected" and "Error" as
// written). An empty literal names no reason.
func literalReasons(t *tree, known reasons) []literalReason {
	var found []literalReason
	for _, importPath := range sortedKeys(t.pkgs) {
		pkg := t.pkgs[importPath]
		if !t.buildsConditions(pkg) {
			continue
		}
		for _, f := range pkg.files {
			v := &literalVisitor{t: t, pkg: pkg, file: f, known: known}
			for _, decl := range f.syntax.Decls {
				v.visitDecl(decl)
			}
			found = append(found, v.found...)
		}
	}
	return found
}

type literalVisitor struct {
	t     *tree
	pkg   *goPackage
	file  *goFile
	known reasons
	found []literalReason
	// condVars are the names bound to an operatorv1.OperatorCondition in the function being visited; localFuncs
	// the reason parameters of the function literals it names.
	condVars   map[string]bool
	localFuncs map[string][]int
}

func (v *literalVisitor) visitDecl(decl ast.Decl) {
	v.condVars, v.localFuncs = map[string]bool{}, map[string][]int{}
	fn, isFunc := decl.(*ast.FuncDecl)
	if isFunc {
		v.bindFunc(fn.Type)
	}
	ast.Inspect(decl, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			v.bindFunc(n.Type)
		case *ast.AssignStmt:
			v.bindAssign(n)
		case *ast.ValueSpec:
			for _, name := range n.Names {
				if n.Type != nil && v.t.isType(v.file, n.Type, operatorV1, "OperatorCondition") {
					v.condVars[name.Name] = true
				}
			}
		}
		return true
	})
	ast.Inspect(decl, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			v.checkCompositeLit(n, n.Type)
		case *ast.CallExpr:
			v.checkCall(n)
		case *ast.AssignStmt:
			v.checkAssign(n)
		case *ast.ReturnStmt:
			if isFunc && fn.Recv != nil && fn.Name.Name == "ConditionReason" {
				for _, r := range n.Results {
					v.check(r, "the result of ConditionReason")
				}
			}
		}
		return true
	})
}

// bindFunc records the parameters of a function declared as an operatorv1.OperatorCondition.
func (v *literalVisitor) bindFunc(ft *ast.FuncType) {
	for _, list := range []*ast.FieldList{ft.Params, ft.Results} {
		if list == nil {
			continue
		}
		for _, field := range list.List {
			if v.t.isType(v.file, field.Type, operatorV1, "OperatorCondition") {
				for _, name := range field.Names {
					v.condVars[name.Name] = true
				}
			}
		}
	}
}

// bindAssign records names assigned an operatorv1.OperatorCondition literal or conditions.New, and function
// literals with reason parameters.
func (v *literalVisitor) bindAssign(n *ast.AssignStmt) {
	if len(n.Lhs) != len(n.Rhs) {
		return
	}
	for i, lhs := range n.Lhs {
		name, ok := lhs.(*ast.Ident)
		if !ok {
			continue
		}
		rhs := ast.Unparen(n.Rhs[i])
		if u, ok := rhs.(*ast.UnaryExpr); ok && u.Op == token.AND {
			rhs = u.X
		}
		switch rhs := rhs.(type) {
		case *ast.CompositeLit:
			if v.t.isType(v.file, rhs.Type, operatorV1, "OperatorCondition") {
				v.condVars[name.Name] = true
			}
		case *ast.CallExpr:
			if sel, ok := rhs.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "New" {
				if x, ok := sel.X.(*ast.Ident); ok && v.t.importPath(v.file, x.Name) == v.t.module+"/internal/conditions" {
					v.condVars[name.Name] = true
				}
			}
		case *ast.FuncLit:
			if params := reasonParams(rhs.Type); len(params) > 0 {
				v.localFuncs[name.Name] = params
			}
		}
	}
}

// checkCompositeLit checks the Reason of an OperatorCondition literal and the reason-typed fields of a struct
// of the tree; typ is the literal's type, given by the enclosing literal when elided.
func (v *literalVisitor) checkCompositeLit(lit *ast.CompositeLit, typ ast.Expr) {
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	switch typ := typ.(type) {
	case *ast.ArrayType:
		v.checkElided(lit.Elts, typ.Elt)
		return
	case *ast.MapType:
		v.checkElided(lit.Elts, typ.Value)
		return
	}
	if v.t.isType(v.file, typ, operatorV1, "OperatorCondition") {
		v.checkField(lit, "Reason", "the Reason of an OperatorCondition")
		return
	}
	fields := v.structReasonFields(typ)
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if key, ok := kv.Key.(*ast.Ident); ok && fields[key.Name] {
				v.check(kv.Value, "the reason-typed field "+key.Name)
			}
		}
	}
}

// checkElided checks the elements of a slice or map literal whose own type is elided.
func (v *literalVisitor) checkElided(elts []ast.Expr, elt ast.Expr) {
	for _, e := range elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			e = kv.Value
		}
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = u.X
		}
		if lit, ok := e.(*ast.CompositeLit); ok && lit.Type == nil {
			v.checkCompositeLit(lit, elt)
		}
	}
}

func (v *literalVisitor) checkField(lit *ast.CompositeLit, field, site string) {
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if key, ok := kv.Key.(*ast.Ident); ok && key.Name == field {
				v.check(kv.Value, site)
			}
		}
	}
}

func (v *literalVisitor) checkCall(call *ast.CallExpr) {
	switch fun := call.Fun.(type) {
	case *ast.SelectorExpr:
		if fun.Sel.Name == "WithReason" && len(call.Args) == 1 {
			v.check(call.Args[0], "the argument of WithReason")
			return
		}
		if x, ok := fun.X.(*ast.Ident); ok {
			if target := v.t.pkgs[v.t.importPath(v.file, x.Name)]; target != nil {
				if isReasonTypeName(fun.Sel.Name) && declaresType(target, fun.Sel.Name) && len(call.Args) == 1 {
					v.check(call.Args[0], "a conversion to "+fun.Sel.Name)
				}
				v.checkArgs(call, funcReasonParams(target)[fun.Sel.Name], x.Name+"."+fun.Sel.Name)
				return
			}
		}
		v.checkArgs(call, funcReasonParams(v.pkg)["."+fun.Sel.Name], "method "+fun.Sel.Name)
	case *ast.Ident:
		if isReasonTypeName(fun.Name) && declaresType(v.pkg, fun.Name) && len(call.Args) == 1 {
			v.check(call.Args[0], "a conversion to "+fun.Name)
			return
		}
		params, ok := v.localFuncs[fun.Name]
		if !ok {
			params = funcReasonParams(v.pkg)[fun.Name]
		}
		v.checkArgs(call, params, fun.Name)
	}
}

func (v *literalVisitor) checkArgs(call *ast.CallExpr, params []int, callee string) {
	for _, i := range params {
		if i < len(call.Args) {
			v.check(call.Args[i], "the reason argument of "+callee)
		}
	}
}

// checkAssign checks assignments to the Reason field of an OperatorCondition variable (cond.Reason) or struct
// field (c.degraded.Reason).
func (v *literalVisitor) checkAssign(n *ast.AssignStmt) {
	if len(n.Lhs) != len(n.Rhs) {
		return
	}
	condFields := operatorConditionFields(v.t, v.pkg)
	for i, lhs := range n.Lhs {
		sel, ok := lhs.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Reason" {
			continue
		}
		switch x := sel.X.(type) {
		case *ast.Ident:
			if !v.condVars[x.Name] {
				continue
			}
		case *ast.SelectorExpr:
			if !condFields[x.Sel.Name] {
				continue
			}
		default:
			continue
		}
		v.check(n.Rhs[i], "the Reason of an OperatorCondition")
	}
}

// check records e when it is a non-empty string literal, possibly converted, that names no known reason.
func (v *literalVisitor) check(e ast.Expr, site string) {
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if name := typeName(call.Fun); name == "string" || isReasonTypeName(name) {
			v.check(call.Args[0], site)
		}
		return
	}
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return
	}
	value, err := strconv.Unquote(lit.Value)
	if err != nil || value == "" {
		return
	}
	if _, ok := v.known[value]; !ok {
		v.found = append(v.found, literalReason{where: v.t.position(v.file, lit), value: value, site: site})
	}
}

// reasonParams are the indices of a function's parameters named reason or of a reason type.
func reasonParams(ft *ast.FuncType) []int {
	var params []int
	i := 0
	for _, field := range ft.Params.List {
		names := len(field.Names)
		if names == 0 {
			names = 1
		}
		for j := 0; j < names; j++ {
			if (j < len(field.Names) && field.Names[j].Name == "reason") || isReasonTypeName(typeName(field.Type)) {
				params = append(params, i)
			}
			i++
		}
	}
	return params
}

// funcReasonParams maps the functions of pkg (by name) and its methods (by "."+name) to their reason
// parameters.
func funcReasonParams(pkg *goPackage) map[string][]int {
	funcs := map[string][]int{}
	for _, f := range pkg.files {
		for _, decl := range f.syntax.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			key := fn.Name.Name
			if fn.Recv != nil {
				key = "." + key
			}
			if params := reasonParams(fn.Type); len(params) > 0 {
				funcs[key] = append(funcs[key], params...)
			}
		}
	}
	return funcs
}

// structReasonFields are the fields of a reason type of the struct typ names, when it is one of the tree's.
func (v *literalVisitor) structReasonFields(typ ast.Expr) map[string]bool {
	pkg, name := v.pkg, ""
	switch typ := typ.(type) {
	case *ast.Ident:
		name = typ.Name
	case *ast.SelectorExpr:
		x, ok := typ.X.(*ast.Ident)
		if !ok {
			return nil
		}
		pkg, name = v.t.pkgs[v.t.importPath(v.file, x.Name)], typ.Sel.Name
	}
	if pkg == nil || name == "" {
		return nil
	}
	fields := map[string]bool{}
	forEachStruct(pkg, func(_ *goFile, structName string, st *ast.StructType) {
		if structName != name {
			return
		}
		for _, field := range st.Fields.List {
			// By type, not name: the field `Reason string` of kmsrecovery.Skipped is no condition reason.
			if isReasonTypeName(typeName(field.Type)) {
				for _, n := range field.Names {
					fields[n.Name] = true
				}
			}
		}
	})
	return fields
}

// operatorConditionFields are the names of the struct fields of pkg declared as operatorv1.OperatorCondition.
func operatorConditionFields(t *tree, pkg *goPackage) map[string]bool {
	fields := map[string]bool{}
	forEachStruct(pkg, func(f *goFile, _ string, st *ast.StructType) {
		for _, field := range st.Fields.List {
			if t.isType(f, field.Type, operatorV1, "OperatorCondition") {
				for _, n := range field.Names {
					fields[n.Name] = true
				}
			}
		}
	})
	return fields
}

func forEachStruct(pkg *goPackage, fn func(f *goFile, name string, st *ast.StructType)) {
	for _, f := range pkg.files {
		ast.Inspect(f.syntax, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if st, ok := ts.Type.(*ast.StructType); ok {
					fn(f, ts.Name.Name, st)
				}
			}
			return true
		})
	}
}

// declaresType reports whether pkg declares a type named name.
func declaresType(pkg *goPackage, name string) bool {
	found := false
	for _, f := range pkg.files {
		ast.Inspect(f.syntax, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.Name == name {
				found = true
			}
			return !found
		})
	}
	return found
}

func TestLiteralReasons(t *testing.T) {
	header := `package a
import (
	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	"example.com/m/internal/conditions"
)
type Reason string
const ReasonKnown Reason = "Known"
type refusal struct { Why Reason; Detail string }
type skipped struct { Reason string }
type pair struct { progressing, degraded operatorv1.OperatorCondition }
func setReason(status string, reason string) {}
var _ = applyoperatorv1.OperatorCondition
`
	scenarios := []struct {
		name string
		body string
		want string
	}{
		{name: "constants everywhere", body: `func f() {
	c := operatorv1.OperatorCondition{Reason: string(ReasonKnown)}
	c.Reason = string(ReasonKnown)
	_ = conditions.New("T", "True", string(ReasonKnown), "")
}`},
		{name: "a literal of a known reason", body: `func f() { _ = operatorv1.OperatorCondition{Reason: "Known"}; _ = conditions.New("T", "True", "AsExpected", "") }`},
		{name: "an OperatorCondition literal", body: `func f() { _ = []operatorv1.OperatorCondition{{Reason: "Lit"}} }`,
			want: `a.go:14: "Lit" set as the Reason of an OperatorCondition`},
		{name: "an assignment to a condition variable", body: `func f() {
	cond := operatorv1.OperatorCondition{}
	cond.Status, cond.Reason = "True", "Lit"
}`, want: `a.go:16: "Lit" set as the Reason of an OperatorCondition`},
		{name: "an assignment to a condition field", body: `func f(p pair) { p.degraded.Reason = "Lit" }`,
			want: `a.go:14: "Lit" set as the Reason of an OperatorCondition`},
		{name: "WithReason", body: `func f() { applyoperatorv1.OperatorCondition().WithReason("Lit") }`,
			want: `a.go:14: "Lit" set as the argument of WithReason`},
		{name: "conditions.New", body: `func f() { _ = conditions.New("T", "True", "Lit", "message") }`,
			want: `a.go:14: "Lit" set as the reason argument of conditions.New`},
		{name: "a function of the package with a reason parameter", body: `func f() { setReason("True", "Lit") }`,
			want: `a.go:14: "Lit" set as the reason argument of setReason`},
		{name: "a closure with a reason parameter", body: `func f() {
	set := func(reason, msg string) {}
	set("Lit", "message")
}`, want: `a.go:16: "Lit" set as the reason argument of set`},
		{name: "a reason-typed field and a conversion", body: `func f() { _ = &refusal{Why: "Lit", Detail: "not a reason"}; _ = Reason("Conv") }`,
			want: "a.go:14: \"Lit\" set as the reason-typed field Why\na.go:14: \"Conv\" set as a conversion to Reason"},
		{name: "a ConditionReason method", body: `func (refusal) ConditionReason() string { return "Lit" }`,
			want: `a.go:14: "Lit" set as the result of ConditionReason`},
		{name: "no reason positions", body: `func f() {
	s := skipped{Reason: "not served"}
	s.Reason = "not served either"
	_ = operatorv1.OperatorCondition{Message: "message", Reason: ""}
}`},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			code := scenarioTree(t, header+s.body, nil)
			found, _ := collectReasons(code)
			var got []string
			for _, l := range literalReasons(code, found) {
				got = append(got, l.String())
			}
			if strings.Join(got, "\n") != s.want {
				t.Errorf("found\n%s\nwant\n%s", strings.Join(got, "\n"), s.want)
			}
		})
	}
}
