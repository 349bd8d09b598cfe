package driver

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

func TestStrippable(t *testing.T) {
	cached := &listedModule{Path: "example.com/dep", Version: "v1.2.0"}
	replaced := &listedModule{Path: "example.com/fork", Version: "v1.0.0", Replace: &listedModule{Path: "../fork"}}
	main := &listedModule{Path: "example.com/app", Main: true}
	for _, tc := range []struct {
		name string
		p    listedPackage
		want bool
	}{
		{"std without context", listedPackage{Standard: true, Dir: "/go/src/strings", Imports: []string{"unicode"}}, true},
		{"std importing context", listedPackage{Standard: true, Dir: "/go/src/net/http", Imports: []string{"context", "io"}}, false},
		{"module cache", listedPackage{Module: cached, Dir: "/home/u/go/pkg/mod/example.com/dep@v1.2.0", Imports: []string{"fmt"}}, true},
		{"module cache importing x/net/context", listedPackage{Module: cached, Dir: "/home/u/go/pkg/mod/example.com/dep@v1.2.0", Imports: []string{"golang.org/x/net/context"}}, false},
		{"module cache with cgo", listedPackage{Module: cached, Dir: "/home/u/go/pkg/mod/example.com/dep@v1.2.0", CgoFiles: []string{"c.go"}}, false},
		{"replaced by a directory", listedPackage{Module: replaced, Dir: "/home/u/fork", Imports: []string{"fmt"}}, false},
		{"the user's module", listedPackage{Module: main, Dir: "/home/u/app", Imports: []string{"fmt"}}, false},
	} {
		if got := strippable(&tc.p); got != tc.want {
			t.Errorf("%s: strippable = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// dependency is a file of a package no rule reads the bodies of: imports used only in bodies,
// in declarations, for side effects and unqualified, a generic function, a method of a generic
// type, init, and functions with and without results.
const dependency = `//go:build go1.22

package dep

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	str "strconv"
	"strings"
)

var ErrShort = errors.New("short")

type Set[T comparable] struct{ m map[T]bool }

func (s *Set[T]) Add(v T) bool { s.m[v] = true; return fmt.Sprint(v) != "" }

func Apply[T, U any](xs []T, f func(T) U) []U {
	var out []U
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func Copy(w io.Writer, s string) (int, error) {
	return fmt.Fprint(w, strings.ToUpper(s), str.Itoa(len(s)))
}

func init() { fmt.Println("loaded") }
`

func TestStripParse(t *testing.T) {
	file := filepath.Join(t.TempDir(), "dep.go")
	sp := &strippedPkg{names: map[string]string{"embed": "embed", "errors": "errors", "fmt": "fmt", "io": "io", "strings": "strings", "strconv": "strconv"}}
	s := &stripper{files: map[string]*strippedPkg{file: sp}}
	fset := token.NewFileSet()
	f, err := s.parseFile(fset, file, []byte(dependency))
	if err != nil {
		t.Fatal(err)
	}
	var imports []string
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		imports = append(imports, p)
	}
	// fmt, strconv (named) and strings served only bodies; the rest are kept.
	if want := []string{"embed", "errors", "io"}; !slices.Equal(imports, want) {
		t.Errorf("imports kept: %v, want %v", imports, want)
	}
	bodies := make(map[string]bool)
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			bodies[fd.Name.Name] = fd.Body != nil
			if fd.Body != nil && !isStub(fd.Body) {
				t.Errorf("%s keeps its body, want the stub", fd.Name.Name)
			}
		}
	}
	// go/types requires a body of init and of functions with type parameters: a stub.
	if want := map[string]bool{"Add": false, "Apply": true, "Copy": false, "init": true}; !maps.Equal(bodies, want) {
		t.Errorf("bodies left: %v, want %v", bodies, want)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("example.com/dep", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatalf("the stripped file does not type-check: %v", err)
	}
	for _, name := range []string{"ErrShort", "Set", "Apply", "Copy"} {
		if pkg.Scope().Lookup(name) == nil {
			t.Errorf("%s is not declared in the stripped package", name)
		}
	}

	// An import whose package name go list did not give: the file is kept whole.
	delete(sp.names, "fmt")
	f, err = s.parseFile(token.NewFileSet(), file, []byte(dependency))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Imports) != 6 {
		t.Errorf("with a name unknown, %d imports kept, want all 6", len(f.Imports))
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && (fd.Body == nil || isStub(fd.Body)) {
			t.Errorf("with a name unknown, %s lost its body", fd.Name.Name)
		}
	}

	// A dot import: whether only bodies used its names is not known; the file is kept whole.
	sp.names["fmt"] = "fmt"
	dotted := strings.Replace(dependency, `str "strconv"`, `. "strconv"`, 1)
	dotted = strings.Replace(dotted, "str.Itoa", "Itoa", 1)
	f, err = s.parseFile(token.NewFileSet(), file, []byte(dotted))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && (fd.Body == nil || isStub(fd.Body)) {
			t.Errorf("with a dot import, %s lost its body", fd.Name.Name)
		}
	}

	// A file of a package not stripped is parsed whole.
	f, err = s.parseFile(token.NewFileSet(), filepath.Join(t.TempDir(), "app.go"), []byte(dependency))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && (fd.Body == nil || isStub(fd.Body)) {
			t.Errorf("a file of a package not stripped lost the body of %s", fd.Name.Name)
		}
	}
	if len(f.Imports) != 6 {
		t.Errorf("a file of a package not stripped lost imports: %d left", len(f.Imports))
	}
}

// isStub reports whether body is the stub stripping leaves: panic(0).
func isStub(body *ast.BlockStmt) bool {
	if len(body.List) != 1 {
		return false
	}
	es, ok := body.List[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := es.X.(*ast.CallExpr)
	id, isIdent := call.Fun.(*ast.Ident)
	return ok && isIdent && id.Name == "panic"
}

// TestMemoryNeed checks that the in-process route's expected memory counts a dependency it
// parses without bodies at the lower rate, unless nothing is stripped.
func TestMemoryNeed(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, size int) {
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, size), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write("app.go", 1000)
	write("dep.go", 3000)
	pkgs := []listedPackage{
		{ImportPath: "example.com/app", Dir: dir, GoFiles: []string{"app.go"}, Imports: []string{"context"}, Module: &listedModule{Path: "example.com/app", Main: true}},
		{ImportPath: "strings", Dir: dir, Standard: true, DepOnly: true, GoFiles: []string{"dep.go"}, Imports: []string{"unicode"}},
	}
	sources, need := memoryNeed(pkgs, false, true)
	if want := int64(1000*rssPerSourceByte + 3000*rssPerStrippedByte); sources != 4000 || need != want {
		t.Errorf("memoryNeed = %d bytes, %d need; want 4000, %d", sources, need, want)
	}
	if _, need := memoryNeed(pkgs, false, false); need != 4000*rssPerSourceByte {
		t.Errorf("memoryNeed without stripping = %d, want %d", need, 4000*rssPerSourceByte)
	}
}

// TestStripFallback checks that a stripped dependency that does not type-check — here because
// the stripper is told a wrong name for an import its declarations use — has the load done
// again whole, with no error left, and says so.
func TestStripFallback(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":   "module example.com/m\n\ngo 1.22\n",
		"dep/b.go": "package dep\n\nimport \"strings\"\n\ntype Buf struct{ B strings.Builder }\n\nfunc (b *Buf) Len() int { return b.B.Len() }\n",
		"app/a.go": "package app\n\nimport \"example.com/m/dep\"\n\nfunc Size(b *dep.Buf) int { return b.Len() }\n",
	}
	writeFiles(t, dir, files)
	strip := &stripper{files: map[string]*strippedPkg{
		filepath.Join(dir, "dep", "b.go"): {names: map[string]string{"strings": "text"}},
	}}
	var said []string
	debugf := func(format string, args ...any) { said = append(said, fmt.Sprintf(format, args...)) }
	lcfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	pkgs, err := loadStripped(lcfg, []string{"./app"}, strip, debugf)
	if err != nil {
		t.Fatal(err)
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
		}
	})
	if len(said) != 2 || !strings.Contains(said[1], "loading again") {
		t.Errorf("debug lines %q, want the strip and the load again", said)
	}

	// Told the right name, the dependency loads stripped, with no second load.
	strip.files[filepath.Join(dir, "dep", "b.go")].names["strings"] = "strings"
	said = nil
	lcfg = &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	pkgs, err = loadStripped(lcfg, []string{"./app"}, strip, debugf)
	if err != nil {
		t.Fatal(err)
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.PkgPath == "example.com/m/dep" && len(p.Errors) > 0 {
			t.Errorf("dep: %v", p.Errors)
		}
	})
	if bodies := bodiesOf(pkgs, "example.com/m/dep"); len(said) != 1 || bodies != 0 {
		t.Errorf("with the right name: debug lines %q, %d bodies in dep; want one line, none", said, bodies)
	}
}

// TestLoadWhole checks that a run that is to say what is wrong (config.whole) parses every
// body, and that another strips the standard library's packages that do not import context.
func TestLoadWhole(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":   "module example.com/w\n\ngo 1.22\n",
		"app/a.go": "package app\n\nimport \"strings\"\n\nfunc Up(s string) string { return strings.ToUpper(s) }\n",
	})
	for _, whole := range []bool{false, true} {
		cfg := &config{patterns: []string{"./app"}, whole: whole}
		var said []string
		pkgs, err := load(dir, cfg, true, func(format string, args ...any) { said = append(said, fmt.Sprintf(format, args...)) })
		if err != nil {
			t.Fatal(err)
		}
		stringsBodies := bodiesOf(pkgs, "strings")
		if stripped := len(said) > 0 && strings.Contains(said[0], "without function bodies"); stripped == whole || (stringsBodies == 0) != !whole {
			t.Errorf("whole=%v: debug lines %q, %d bodies in package strings", whole, said, stringsBodies)
		}
	}
}

// writeFiles writes files (name relative to dir -> content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// bodiesOf counts the function declarations with a body in the package path among pkgs and
// their dependencies.
func bodiesOf(pkgs []*packages.Package, path string) int {
	n := 0
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.PkgPath != path {
			return
		}
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					n++
				}
			}
		}
	})
	return n
}
