package docs_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// operatorV1 is the import path of operatorv1.OperatorCondition, the condition every kmsguard controller sets.
const operatorV1 = "github.com/openshift/api/operator/v1"

// goFile is one parsed non-test Go file.
type goFile struct {
	syntax *ast.File
	fset   *token.FileSet
}

// goPackage is the non-test files of one directory.
type goPackage struct {
	path  string
	name  string
	files []*goFile
}

// constDecl is one package-level constant: its type and value as written.
type constDecl struct {
	pkg   *goPackage
	file  *goFile
	name  string
	typ   ast.Expr
	value ast.Expr
}

// tree is the parsed packages of a module, with their constants, read without type checking: what the tests
// below ask of the code (constant values, where literals are used) is written in its syntax.
type tree struct {
	module string
	pkgs   map[string]*goPackage
	consts map[string]map[string]*constDecl
}

// loadTree parses the non-test Go files of the packages under root's dirs (testdata, vendor and hidden
// directories left out).
func loadTree(root, module string, dirs ...string) (*tree, error) {
	sources := map[string]map[string][]byte{}
	for _, dir := range dirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if name := d.Name(); name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			rel, err := filepath.Rel(root, filepath.Dir(p))
			if err != nil {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			importPath := module + "/" + filepath.ToSlash(rel)
			if sources[importPath] == nil {
				sources[importPath] = map[string][]byte{}
			}
			sources[importPath][p] = src
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return parseTree(module, sources)
}

// parseTree parses sources, by import path and file name.
func parseTree(module string, sources map[string]map[string][]byte) (*tree, error) {
	t := &tree{module: module, pkgs: map[string]*goPackage{}, consts: map[string]map[string]*constDecl{}}
	fset := token.NewFileSet()
	for _, importPath := range sortedKeys(sources) {
		pkg := &goPackage{path: importPath}
		for _, name := range sortedKeys(sources[importPath]) {
			f, err := parser.ParseFile(fset, name, sources[importPath][name], parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			pkg.name = f.Name.Name
			pkg.files = append(pkg.files, &goFile{syntax: f, fset: fset})
		}
		t.pkgs[importPath] = pkg
		t.consts[importPath] = constantsOf(pkg)
	}
	return t, nil
}

// constantsOf lists a package's package-level constants. A spec without type and values repeats the previous
// one's, as in Go.
func constantsOf(pkg *goPackage) map[string]*constDecl {
	consts := map[string]*constDecl{}
	for _, f := range pkg.files {
		for _, decl := range f.syntax.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.CONST {
				continue
			}
			var typ ast.Expr
			var values []ast.Expr
			for _, spec := range gen.Specs {
				vs := spec.(*ast.ValueSpec)
				if vs.Type != nil || len(vs.Values) > 0 {
					typ, values = vs.Type, vs.Values
				}
				for i, name := range vs.Names {
					c := &constDecl{pkg: pkg, file: f, name: name.Name, typ: typ}
					if i < len(values) {
						c.value = values[i]
					}
					consts[name.Name] = c
				}
			}
		}
	}
	return consts
}

// importPath is the path of the package file refers to by name, "" when none: an import's own name, else the
// package name of a parsed package, else the last element of the path.
func (t *tree) importPath(file *goFile, name string) string {
	for _, imp := range file.syntax.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		local := path.Base(p)
		if pkg, ok := t.pkgs[p]; ok {
			local = pkg.name
		}
		if imp.Name != nil {
			local = imp.Name.Name
		}
		if local == name {
			return p
		}
	}
	return ""
}

// lookupConst is the constant e names from file: Name in pkg, or pkgname.Name of an imported package.
func (t *tree) lookupConst(pkg *goPackage, file *goFile, e ast.Expr) *constDecl {
	switch e := e.(type) {
	case *ast.Ident:
		return t.consts[pkg.path][e.Name]
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return t.consts[t.importPath(file, x.Name)][e.Sel.Name]
		}
	}
	return nil
}

// stringValue evaluates a constant string expression: literals, constants of the tree, conversions and
// concatenations. ok is false for anything else.
func (t *tree) stringValue(pkg *goPackage, file *goFile, e ast.Expr) (string, bool) {
	return t.eval(pkg, file, e, map[*constDecl]bool{})
}

func (t *tree) eval(pkg *goPackage, file *goFile, e ast.Expr, seen map[*constDecl]bool) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.ParenExpr:
		return t.eval(pkg, file, e.X, seen)
	case *ast.CallExpr:
		// A constant expression calls nothing but conversions, Reason("x") and string(ReasonX), and the builtins,
		// none of which makes a string.
		if len(e.Args) != 1 || builtins[typeName(e.Fun)] {
			return "", false
		}
		return t.eval(pkg, file, e.Args[0], seen)
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		x, okX := t.eval(pkg, file, e.X, seen)
		y, okY := t.eval(pkg, file, e.Y, seen)
		return x + y, okX && okY
	case *ast.Ident, *ast.SelectorExpr:
		c := t.lookupConst(pkg, file, e)
		if c == nil || c.value == nil || seen[c] {
			return "", false
		}
		seen[c] = true
		return t.eval(c.pkg, c.file, c.value, seen)
	}
	return "", false
}

// builtins are the functions a constant expression may call besides conversions.
var builtins = map[string]bool{"len": true, "cap": true, "real": true, "imag": true, "complex": true, "min": true, "max": true}

// typeName is the name of a named type as written (Reason, kmsstate.Reason, *Reason), "" for other types.
func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.StarExpr:
		return typeName(e.X)
	}
	return ""
}

// isType reports whether e names the type name of the package at importPath, as seen from file.
func (t *tree) isType(file *goFile, e ast.Expr, importPath, name string) bool {
	if star, ok := e.(*ast.StarExpr); ok {
		e = star.X
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && t.importPath(file, x.Name) == importPath
}

func (t *tree) position(file *goFile, n ast.Node) string {
	p := file.fset.Position(n.Pos())
	return fmt.Sprintf("%s:%d", p.Filename, p.Line)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
