package driver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// The in-process route type-checks every dependency from source, because the rules' facts
// need a summary of every package the analysed ones import. Most dependencies — the standard
// library and the module cache's packages that do not import context — need none beyond the
// fact that they are not the user's code: ctxssa answers them before it looks at a body (and
// go vet's route answers them with empty facts, vetmode.skipDependency). Their declarations
// are all the packages that import them need. A stripper parses their files without function
// bodies, and drops the imports only those bodies used (go/types would report them unused): on
// trillian, whose 1,500 packages are mostly such dependencies, a quarter less CPU time and 40%
// less memory in the process.

// What a stripped dependency no longer shows: type errors inside its bodies (go build reports
// them; a run that falls back from go vet because go vet failed parses every body, to say what
// is wrong: config.whole), and, in its types.Package's Imports, the packages only its bodies
// imported (a rule walking imports to tell whether a package depends on gRPC goes through the
// declarations, which is where a package that handles RPCs refers to gRPC's types).

// A stripper says which files to parse without function bodies, and names the packages
// their imports denote.
type stripper struct {
	files map[string]*strippedPkg // absolute file name -> its package
}

// A strippedPkg is a dependency whose bodies no rule reads.
type strippedPkg struct {
	names map[string]string // import path as written in its files -> package name
}

// stripFields are the fields of listedPackage a stripper needs, when the route's plan did not
// list them (listFields has them all).
const stripFields = "ImportPath,Name,Dir,Standard,GoFiles,CgoFiles,Imports,ImportMap,Module"

// newStripper lists the packages the patterns match and their dependencies (or takes the
// listing the route's plan made, cfg.listed) and returns a stripper for the dependencies no
// rule reads the bodies of, or nil when none can be told (go list fails: the loader then says
// why) or the rules follow dependencies' code (-ctxbackground.external).
func newStripper(dir string, cfg *config) *stripper {
	if followsDependencies(cfg.analyzers) {
		return nil
	}
	listed := cfg.listed
	if listed == nil {
		var err error
		if listed, err = goList[listedPackage](dir, cfg, stripFields, false); err != nil {
			return nil
		}
	}
	return stripperFor(listed)
}

// stripperFor returns the stripper for the packages go list listed: those of the standard
// library or of a module in the module cache (ctxssa's external packages, as go vet's route
// skips them) that import neither context nor golang.org/x/net/context and use no cgo (whose
// generated files the loader parses in their place).
func stripperFor(listed []listedPackage) *stripper {
	nameOf := make(map[string]string, len(listed))
	for _, p := range listed {
		nameOf[p.ImportPath] = p.Name
	}
	s := &stripper{files: make(map[string]*strippedPkg)}
	for i := range listed {
		p := &listed[i]
		if !strippable(p) {
			continue
		}
		sp := &strippedPkg{names: make(map[string]string)}
		for _, imp := range p.Imports {
			sp.names[imp] = nameOf[imp]
		}
		for written, resolved := range p.ImportMap {
			sp.names[written] = nameOf[resolved]
		}
		for _, name := range p.GoFiles {
			s.files[filepath.Join(p.Dir, name)] = sp
		}
	}
	return s
}

// strippable reports whether no rule reads the bodies of p's functions.
func strippable(p *listedPackage) bool {
	return p.immutable() && len(p.CgoFiles) == 0 && !slices.ContainsFunc(p.Imports, typesutil.IsContextPath)
}

// followsDependencies reports whether a rule selected follows the code of dependencies
// (ctxbackground's -external flag), which then needs their bodies.
func followsDependencies(analyzers []*analysis.Analyzer) bool {
	for _, a := range analyzers {
		if f := a.Flags.Lookup("external"); f != nil && f.Value.String() == "true" {
			return true
		}
	}
	return false
}

// parseMode is the mode go/packages parses files with. (Comments stay in stripped files too:
// the parser reads a file's Go version from its build constraint.)
const parseMode = parser.AllErrors | parser.ParseComments

// parseFile parses a file for go/packages: without its function bodies, and without the
// imports only they used, when it belongs to a package the stripper strips and every import
// can be told used or not.
func (s *stripper) parseFile(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
	sp := s.files[filename]
	if sp == nil {
		return parser.ParseFile(fset, filename, src, parseMode)
	}
	f, err := parser.ParseFile(fset, filename, src, parseMode|parser.SkipObjectResolution)
	if err != nil {
		return f, err
	}
	keep, ok := sp.importsKept(f)
	if !ok {
		return f, nil
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			d.Body = stub(d)
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				d.Specs = slices.DeleteFunc(d.Specs, func(spec ast.Spec) bool { return !keep[spec.(*ast.ImportSpec)] })
			}
		}
	}
	f.Imports = slices.DeleteFunc(f.Imports, func(imp *ast.ImportSpec) bool { return !keep[imp] })
	return f, nil
}

// stub returns the body fd is left with: none, as a function implemented in assembly has, or,
// where go/types requires one (init, a function with type parameters), panic(0), which uses no
// import and ends any function.
func stub(fd *ast.FuncDecl) *ast.BlockStmt {
	if fd.Body == nil || fd.Type.TypeParams == nil && !(fd.Recv == nil && fd.Name.Name == "init") {
		return nil
	}
	call := &ast.CallExpr{
		Fun:    &ast.Ident{NamePos: fd.Body.Lbrace, Name: "panic"},
		Lparen: fd.Body.Lbrace, Rparen: fd.Body.Lbrace,
		Args: []ast.Expr{&ast.BasicLit{ValuePos: fd.Body.Lbrace, Kind: token.INT, Value: "0"}},
	}
	return &ast.BlockStmt{Lbrace: fd.Body.Lbrace, List: []ast.Stmt{&ast.ExprStmt{X: call}}, Rbrace: fd.Body.Rbrace}
}

// importsKept returns the imports of f that its code outside function bodies qualifies a name
// with, or for its side effects (_). It reports false when that cannot be told: an import's
// package name is not known, or it is a dot import.
func (sp *strippedPkg) importsKept(f *ast.File) (map[*ast.ImportSpec]bool, bool) {
	used := make(map[string]bool)
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Recv != nil {
				ast.Inspect(n.Recv, func(n ast.Node) bool { return qualifier(n, used) })
			}
			ast.Inspect(n.Type, func(n ast.Node) bool { return qualifier(n, used) })
			return false // not its body
		}
		return qualifier(n, used)
	})
	keep := make(map[*ast.ImportSpec]bool)
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			return nil, false
		}
		name := sp.names[path]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name == "" || name == "." { // a dot import's names are not qualified
			return nil, false
		}
		keep[imp] = name == "_" || used[name]
	}
	return keep, true
}

// qualifier records in used the name n qualifies, when n is a selector x.Sel with x a name.
func qualifier(n ast.Node, used map[string]bool) bool {
	if sel, ok := n.(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok {
			used[id.Name] = true
		}
	}
	return true
}

// stripped returns how many files of how many packages it strips.
func (s *stripper) stripped() (files, pkgs int) {
	seen := make(map[*strippedPkg]bool)
	for _, sp := range s.files {
		seen[sp] = true
	}
	return len(s.files), len(seen)
}

// failed reports whether a package the stripper stripped has errors.
func (s *stripper) failed(pkgs []*packages.Package) bool {
	bad := false
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if len(p.Errors) > 0 && len(p.GoFiles) > 0 && s.files[p.GoFiles[0]] != nil {
			bad = true
		}
	})
	return bad
}
