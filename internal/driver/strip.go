package driver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// The in-process route type-checks every dependency from source, because the rules' facts
// need a summary of every package the analysed ones import. Most dependencies — the standard
// library and the module cache's packages that do not import context — need none beyond the
// fact that they are not the user's code: ctxssa answers them before it looks at a body (and
// go vet's route answers them with empty facts, vetmode.skipDependency). Their declarations
// are all the packages that import them need. A stripper parses their files without function
// bodies, and drops the imports only those bodies used (go/types would report them unused): a
// third less memory and CPU time in the process on trillian, whose 1,500 packages are mostly
// such dependencies.

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
// listing the route's plan made, cfg.listed) and returns a stripper for the dependencies no rule reads the bodies of, or nil when none can be told
// (go list fails: the loader then says why) or the rules follow dependencies' code
// (-ctxbackground.external).
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
	inCache := p.Module != nil && p.Module.Version != "" && p.Module.Replace == nil &&
		strings.Contains(filepath.ToSlash(p.Dir), "/pkg/mod/")
	if !p.Standard && !inCache || len(p.CgoFiles) > 0 {
		return false
	}
	for _, imp := range p.Imports {
		if imp == "context" || strings.HasSuffix(imp, "golang.org/x/net/context") {
			return false
		}
	}
	return true
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
// imports only they used, when it belongs to a package the stripper strips.
func (s *stripper) parseFile(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
	sp := s.files[filename]
	if sp == nil {
		return parser.ParseFile(fset, filename, src, parseMode)
	}
	f, err := parser.ParseFile(fset, filename, src, parseMode|parser.SkipObjectResolution)
	if err != nil {
		return f, err
	}
	var bodies []*ast.BlockStmt
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			bodies = append(bodies, fd.Body)
			fd.Body = stub(fd)
		}
	}
	if !sp.dropUnused(f) {
		// An import whose package name go list did not give, or a dot import: keep the file
		// whole.
		i := 0
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				fd.Body = bodies[i]
				i++
			}
		}
	}
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

// dropUnused removes from f the imports its remaining code does not qualify a name with. It
// reports false, changing nothing, when that cannot be told: an import's package name is not
// known, or it is a dot import.
func (sp *strippedPkg) dropUnused(f *ast.File) bool {
	used := make(map[string]bool)
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	keep := make(map[*ast.ImportSpec]bool)
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			return false
		}
		name := sp.names[path]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		switch {
		case path == "unsafe" && imp.Name == nil:
			keep[imp] = used["unsafe"]
		case name == "":
			return false
		case name == "_":
			keep[imp] = true // for its side effects
		case name == ".":
			return false // its names are not qualified: whether only bodies used them is not known
		default:
			keep[imp] = used[name]
		}
	}
	var imports []*ast.ImportSpec
	for _, imp := range f.Imports {
		if keep[imp] {
			imports = append(imports, imp)
		}
	}
	f.Imports = imports
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		specs := gd.Specs[:0]
		for _, spec := range gd.Specs {
			if keep[spec.(*ast.ImportSpec)] {
				specs = append(specs, spec)
			}
		}
		gd.Specs = specs
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
