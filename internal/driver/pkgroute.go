package driver

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/types/objectpath"

	"github.com/deadlinelint/deadlinelint/internal/output"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
	"github.com/deadlinelint/deadlinelint/internal/vetmode"
)

// The package route: what go vet's route does, one package at a time against its
// dependencies' compiled export data and facts, with every package's facts and findings cached
// under a key of its content — in the command's own process, without a process per package.
//
// go vet starts the tool once per package (about 970 processes on grpc): their start-up and the
// protocol alone cost half of what loading and type-checking the whole module from source does
// (docs/performance.md, row c0). Here go list names every package with its export data (the
// build cache holds it: the route runs only when it is warm), and each package is
//   - looked up in the package cache (pkgCacheDir), under a key of the tool, the rules and
//     their flags, the package's files by content and its imports' keys — so a package's key
//     changes when anything it depends on does, facts included;
//   - on a miss, parsed and type-checked from source against its imports' export data, and
//     analysed with its imports' facts, which are kept encoded (objectpath and gob) as go vet
//     keeps them, and read back against the export data's objects: a package sees the same
//     facts whether its imports were analysed in this run or answered from the cache;
//   - or, as in go vet's route, not analysed at all when it is a dependency in the standard
//     library or the module cache that imports neither context package: the rules ask nothing
//     of code the user does not own but the facts of a library that takes a ctx.
//
// Memory is bounded by the export data of the packages the misses depend on and the syntax,
// types and SSA of the packages being analysed at once (one per CPU). A package that does not
// type-check, a go list error, or a fact that cannot be read back ends the route: the command
// analyses in the process instead, which says precisely what is wrong.

// routePackage is what go list -export says of one package.
type routePackage struct {
	listedPackage
	Export          string
	CompiledGoFiles []string
	DepsErrors      []*struct{ Err string }
}

const routeFields = listFields + ",Export,CompiledGoFiles,DepsErrors"

// A node is one package of the route's graph.
type node struct {
	p       *routePackage
	imports []*node // direct, each once
	analyse bool    // type-checked from source and analysed; otherwise answered with no facts
	key     string  // the package cache's key of its result
	result  *pkgResult
	failed  []string // the rules that failed on it, as errors
	// stale: its files changed since the listing; tainted: it or a package it depends on is
	// stale, and the export data the listing names may not be of its files: when it is needed,
	// its export data is written here from checked, the types of its files.
	stale, tainted bool
	checked        *types.Package
	need           bool // its export data is read: a package analysed here imports it, directly or not

	types     *types.Package // from its export data, as the packages importing it see it
	factsOnce sync.Once
	facts     map[factKey]analysis.Fact // its facts, read back against types
	pkgFacts  map[reflect.Type]analysis.Fact
	factsErr  error
}

type factKey struct {
	obj types.Object
	typ reflect.Type
}

// A pkgResult is what the analysis of one package left: its facts, encoded, and its findings
// with absolute paths. It is what the package cache keeps.
type pkgResult struct {
	Facts    []storedFact
	Findings []output.Finding
	// Partial: only the rules that carry facts ran (an in-process run analyses a dependency
	// only for its facts); a run that reports the package analyses it again.
	Partial bool
}

// A storedFact is one fact: of the object at Path in the package (objectpath), or of the
// package itself when Path is empty; Type names the fact's type, Data is it gob-encoded.
type storedFact struct {
	Path string
	Type string
	Data []byte
}

// errNotOnRoute says why a run cannot take the package route; the command then analyses in
// the process.
type errNotOnRoute struct{ why string }

func (e *errNotOnRoute) Error() string { return e.why }

// listByPackage lists the packages of the patterns for the package route: with their export
// data, which the go command compiles first where the build cache lacks it.
func (c *Command) listByPackage(dir string, cfg *config) ([]routePackage, error) {
	t0 := time.Now()
	listed, err := goList[routePackage](dir, cfg, routeFields, cfg.tests, "-export", "-compiled")
	if err != nil {
		return nil, &errNotOnRoute{err.Error()}
	}
	c.debugf(cfg, "package route: listed %d packages with their export data in %v", len(listed), time.Since(t0).Round(time.Millisecond))
	return listed, nil
}

// analyseByPackage analyses the packages named on the package route, with the listing. stale
// are the packages of the listing whose export data may not be of their files (changed since it
// was made, or importing one that did): one that another package analysed imports is analysed
// again (tainted, as are the packages importing it), and its export data written from the types
// it checked — the listing then names that, and the result says which packages stay stale.
func (c *Command) analyseByPackage(dir string, cfg *config, prog *progress, named map[string]bool, listed []routePackage, stale []string) (*result, error) {
	r, err := newRouter(c, cfg, listed)
	if err != nil {
		return nil, err
	}
	// r.nodes lists dependencies first: a package's imports are tainted before it is.
	for _, n := range r.nodes {
		n.stale = slices.Contains(stale, n.p.ImportPath)
		n.tainted = n.stale || slices.ContainsFunc(n.imports, func(dep *node) bool { return dep.tainted })
	}
	for i := len(r.nodes) - 1; i >= 0; i-- { // importers first: marking needs reaches the imports
		n := r.nodes[i]
		if n.tainted && n.need && !n.analyse {
			// A dependency the route does not analyse (in the module cache, importing the
			// user's code): its compiled export data may name what the change removed.
			return nil, &errNotOnRoute{"package " + n.p.ImportPath + ": a package it imports changed since it was compiled"}
		}
		if n.tainted && n.need && n.result != nil {
			n.result = nil // its types are needed: checked from its files
			r.hits--
			r.misses++
			r.markNeed(n)
		}
	}
	prog.setStage(fmt.Sprintf("analysing %d packages", r.misses))
	t0 := time.Now()
	if err := r.run(); err != nil {
		return nil, err
	}
	c.debugf(cfg, "package route: %d packages analysed, %d from the package cache, %d export data read, in %v",
		r.misses, r.hits, r.loaded, time.Since(t0).Round(time.Millisecond))
	res := &result{root: findRoot(dir), dir: dir, listing: listed}
	for _, n := range r.nodes {
		// A needed one has export data of its files now; the others, importers of a changed
		// package included, keep export data a later run must not trust.
		if n.tainted && !n.need {
			res.stale = append(res.stale, n.p.ImportPath)
		}
	}
	coll := newCollector(res.root)
	for _, n := range r.nodes {
		if n.p.DepOnly || n.result == nil || !named[packageOfID(n.p.ImportPath)] {
			continue
		}
		for _, line := range n.failed {
			if !slices.Contains(res.errors, line) {
				res.errors = append(res.errors, line)
			}
		}
		for _, f := range n.result.Findings {
			coll.addFinding(rebase(res.root, f))
		}
	}
	res.findings = coll.findings
	output.Sort(res.findings)
	return res, nil
}

// namedIn returns the packages the listing's patterns named (not only dependencies).
func namedIn(listed []routePackage) map[string]bool {
	named := make(map[string]bool)
	for i := range listed {
		if !listed[i].DepOnly {
			named[packageOfID(listed[i].ImportPath)] = true
		}
	}
	return named
}

// A router runs the package route over go list's graph.
type router struct {
	cmd       *Command
	cfg       *config
	analyzers []*analysis.Analyzer // cfg's rules and what they require, dependencies first
	factTypes map[string]reflect.Type
	nodes     []*node // dependencies first
	byPath    map[*types.Package]*node
	fset      *token.FileSet
	sizes     types.Sizes
	cacheDir  string

	mu           sync.Mutex // guards byPath, export data reading and the counters
	hits, misses int
	loaded       int
}

func newRouter(c *Command, cfg *config, listed []routePackage) (*router, error) {
	r := &router{
		cmd: c, cfg: cfg, analyzers: closure(cfg.analyzers), factTypes: make(map[string]reflect.Type),
		byPath: make(map[*types.Package]*node), fset: token.NewFileSet(),
		sizes: types.SizesFor("gc", runtime.GOARCH), cacheDir: pkgCacheDir(),
	}
	ContainPanics(cfg.analyzers)
	for _, a := range r.analyzers {
		for _, f := range a.FactTypes {
			t := reflect.TypeOf(f)
			r.factTypes[factTypeName(t)] = t
		}
	}
	byID := make(map[string]*node, len(listed))
	for i := range listed {
		p := &listed[i]
		if p.Error != nil {
			return nil, &errNotOnRoute{fmt.Sprintf("package %s: %s", p.ImportPath, p.Error.Err)}
		}
		if len(p.DepsErrors) > 0 {
			return nil, &errNotOnRoute{fmt.Sprintf("package %s: %s", p.ImportPath, p.DepsErrors[0].Err)}
		}
		if p.ImportPath == "unsafe" {
			continue
		}
		n := &node{p: p}
		byID[p.ImportPath] = n
		r.nodes = append(r.nodes, n) // go list -deps prints dependencies first
	}
	tool, err := r.toolKey()
	if err != nil {
		return nil, &errNotOnRoute{err.Error()}
	}
	for _, n := range r.nodes {
		seen := make(map[string]bool)
		for _, id := range n.p.Imports {
			if id == "unsafe" || id == "C" || seen[id] {
				continue
			}
			seen[id] = true
			dep := byID[id]
			if dep == nil {
				return nil, &errNotOnRoute{fmt.Sprintf("package %s: import %s not listed", n.p.ImportPath, id)}
			}
			n.imports = append(n.imports, dep)
		}
		n.analyse = r.analysed(n)
		if n.key, err = r.keyOf(tool, n); err != nil {
			return nil, &errNotOnRoute{err.Error()}
		}
		if n.analyse {
			if res, ok := r.cached(n.key); ok && (!res.Partial || n.p.DepOnly) {
				n.result = res
				r.hits++
			} else {
				r.misses++
			}
		}
	}
	for _, n := range r.nodes {
		if n.analyse && n.result == nil {
			r.markNeed(n)
		}
	}
	return r, nil
}

// markNeed marks the dependencies of n, a package analysed here: it needs the export data of
// every package it depends on, and the facts of those analysed; the export data of each needs
// that of its own dependencies.
func (r *router) markNeed(n *node) {
	for _, dep := range n.imports {
		if !dep.need {
			dep.need = true
			r.markNeed(dep)
		}
	}
}

// analysed reports whether the route type-checks and analyses n, as go vet's route does
// (vetmode): every package but a test main and the dependencies the user does not own that
// import no context package.
func (r *router) analysed(n *node) bool {
	p := n.p
	if p.Name == "main" && strings.HasSuffix(p.ImportPath, ".test") || len(n.files()) == 0 {
		return false // a test main, or a directory with only tests (its test variant has them)
	}
	if !p.DepOnly || !p.immutable() {
		return true
	}
	for _, dep := range n.imports {
		if typesutil.IsContextPath(dep.p.ImportPath) {
			return true
		}
	}
	return false
}

// toolKey hashes what every package's result depends on besides the package: the tool, the
// rules and their flags, the target.
func (r *router) toolKey() (string, error) {
	tool, err := r.cmd.toolID()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "deadlinelint package cache 1\n%s\n", tool)
	fmt.Fprintf(h, "rules %q tests %v tags %q %s/%s %s\n", r.cfg.ruleFlags, r.cfg.tests, r.cfg.tags, runtime.GOOS, runtime.GOARCH, runtime.Version())
	return hex.EncodeToString(h.Sum(nil)), nil
}

// keyOf returns the key of n's result: the tool's key, n's identity and files (by content; by
// its export data for a package not analysed, whose export data is all a package importing it
// reads) and its imports' keys.
func (r *router) keyOf(tool string, n *node) (string, error) {
	h := sha256.New()
	p := n.p
	fmt.Fprintf(h, "%s\npkg %q %q %q %v\n", tool, p.ImportPath, p.Name, p.Dir, n.analyse)
	if m := p.Module; m != nil {
		fmt.Fprintf(h, "module %q %q %q\n", m.Path, m.Version, m.GoVersion)
	}
	if !n.analyse {
		fmt.Fprintf(h, "export %q\n", p.Export)
	} else {
		for _, name := range n.files() {
			fmt.Fprintf(h, "file %q\n", name)
			if err := vetmode.HashFile(h, name); err != nil {
				return "", err
			}
		}
	}
	for _, dep := range n.imports {
		fmt.Fprintf(h, "import %q %s\n", dep.p.ImportPath, dep.key)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// files returns the absolute names of the Go files n is type-checked from: cgo's output for a
// package that uses cgo, and with -test=false no _test.go file.
func (n *node) files() []string {
	names := n.p.CompiledGoFiles
	if len(names) == 0 {
		names = n.p.GoFiles
	}
	var out []string
	for _, name := range names {
		if !filepath.IsAbs(name) {
			name = filepath.Join(n.p.Dir, name)
		}
		out = append(out, name)
	}
	return out
}

// run analyses the graph's misses, dependencies first, on one worker per CPU.
func (r *router) run() error {
	pending := make(map[*node]int)
	importers := make(map[*node][]*node)
	var ready []*node
	todo := 0
	for _, n := range r.nodes {
		if !n.need && !(n.analyse && n.result == nil) {
			continue
		}
		todo++
		for _, dep := range n.imports {
			importers[dep] = append(importers[dep], n)
		}
		pending[n] = len(n.imports)
		if len(n.imports) == 0 {
			ready = append(ready, n)
		}
	}
	var (
		mu       sync.Mutex
		cond     = sync.NewCond(&mu)
		firstErr error
	)
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			defer mu.Unlock()
			for {
				for len(ready) == 0 && todo > 0 && firstErr == nil {
					cond.Wait()
				}
				if todo == 0 || firstErr != nil {
					cond.Broadcast()
					return
				}
				n := ready[len(ready)-1]
				ready = ready[:len(ready)-1]
				mu.Unlock()
				err := r.do(n)
				mu.Lock()
				todo--
				if err != nil && firstErr == nil {
					firstErr = err
				}
				for _, imp := range importers[n] {
					if pending[imp]--; pending[imp] == 0 {
						ready = append(ready, imp)
					}
				}
				cond.Broadcast()
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// do analyses n if it is a miss, and reads its export data if a package analysed here needs it.
// A panic outside the rules (which ContainPanics contains) — in the type checker, in reading
// export data — ends the route: the command analyses in the process, which reports it.
func (r *router) do(n *node) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &errNotOnRoute{fmt.Sprintf("package %s: internal error: %v", n.p.ImportPath, v)}
		}
	}()
	if n.analyse && n.result == nil {
		res, keep, err := r.analyseNode(n)
		if err != nil {
			return err
		}
		n.result = res
		if keep {
			r.keep(n.key, res)
		}
	}
	if !n.need {
		return nil
	}
	if n.tainted {
		if n.checked == nil {
			return &errNotOnRoute{"package " + n.p.ImportPath + ": its export data is older than its files"}
		}
		dir := r.cacheDir
		if dir == "" {
			dir = os.TempDir()
		}
		export, err := writeExport(dir, r.fset, n.checked, n.p.ImportPath)
		if err != nil {
			return &errNotOnRoute{err.Error()}
		}
		n.p.Export = export
	}
	n.checked = nil
	return r.load(n)
}

// load reads n's export data, its dependencies' already read: the packages importing it see
// its types there, as the compiler does.
func (r *router) load(n *node) error {
	view := make(map[string]*types.Package)
	for _, dep := range depsOf(n) {
		view[dep.types.Path()] = dep.types
	}
	if n.p.Export == "" {
		return &errNotOnRoute{"package " + n.p.ImportPath + ": no export data"}
	}
	f, err := os.Open(n.p.Export)
	if err != nil {
		return &errNotOnRoute{err.Error()}
	}
	defer f.Close()
	// The compiler's export data is in an archive; the export data an in-process run wrote
	// (pkgfill.go) is bare.
	var rd io.Reader = bufio.NewReader(f)
	if head, _ := rd.(*bufio.Reader).Peek(8); bytes.HasPrefix(head, []byte("!<arch>")) || bytes.HasPrefix(head, []byte("go objec")) {
		if rd, err = gcexportdata.NewReader(rd); err != nil {
			return &errNotOnRoute{fmt.Sprintf("reading the export data of %s: %v", n.p.ImportPath, err)}
		}
	}
	// Reading export data may add objects to the packages it refers to: one at a time.
	r.mu.Lock()
	defer r.mu.Unlock()
	pkg, err := gcexportdata.Read(rd, r.fset, view, packageOfID(n.p.ImportPath))
	if err != nil {
		return &errNotOnRoute{fmt.Sprintf("reading the export data of %s: %v", n.p.ImportPath, err)}
	}
	n.types = pkg
	r.byPath[pkg] = n
	r.loaded++
	return nil
}

// readFacts decodes n's facts against its types from export data, once.
func (r *router) readFacts(n *node) error {
	n.factsOnce.Do(func() {
		n.facts = make(map[factKey]analysis.Fact)
		n.pkgFacts = make(map[reflect.Type]analysis.Fact)
		if n.result == nil {
			return
		}
		for _, sf := range n.result.Facts {
			t := r.factTypes[sf.Type]
			if t == nil {
				continue // a rule not run
			}
			fact := reflect.New(t.Elem()).Interface().(analysis.Fact)
			if err := gob.NewDecoder(bytes.NewReader(sf.Data)).Decode(fact); err != nil {
				n.factsErr = fmt.Errorf("reading a fact of %s: %v", n.p.ImportPath, err)
				return
			}
			if sf.Path == "" {
				n.pkgFacts[t] = fact
				continue
			}
			obj, err := objectpath.Object(n.types, objectpath.Path(sf.Path))
			if err != nil {
				continue // not in the export data: no package importing it can refer to it
			}
			n.facts[factKey{obj, t}] = fact
		}
	})
	return n.factsErr
}

// depsOf returns n's dependencies, direct or not, each once.
func depsOf(n *node) []*node {
	var out []*node
	seen := make(map[*node]bool)
	var add func(*node)
	add = func(m *node) {
		for _, dep := range m.imports {
			if !seen[dep] {
				seen[dep] = true
				out = append(out, dep)
				add(dep)
			}
		}
	}
	add(n)
	return out
}

// analyseNode parses, type-checks and analyses n. keep says whether its result may be cached
// (no rule failed).
func (r *router) analyseNode(n *node) (res *pkgResult, keep bool, err error) {
	var files []*ast.File
	for _, name := range n.files() {
		f, err := parser.ParseFile(r.fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, false, &errNotOnRoute{err.Error()}
		}
		files = append(files, f)
	}
	imports := make(map[string]*types.Package)
	for _, dep := range n.imports {
		imports[dep.p.ImportPath] = dep.types
	}
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if id, ok := n.p.ImportMap[path]; ok {
				path = id
			}
			if pkg := imports[path]; pkg != nil {
				return pkg, nil
			}
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			return nil, fmt.Errorf("package %s not listed", path)
		}),
		Sizes: r.sizes,
	}
	if m := n.p.Module; m != nil && m.GoVersion != "" {
		conf.GoVersion = "go" + m.GoVersion
	}
	info := &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
	pkg, err := conf.Check(packageOfID(n.p.ImportPath), r.fset, files, info)
	if err != nil {
		return nil, false, &errNotOnRoute{fmt.Sprintf("package %s: %v", n.p.ImportPath, err)}
	}
	if n.need {
		n.checked = pkg
	}
	deps := depsOf(n)
	for _, dep := range deps {
		if err := r.readFacts(dep); err != nil {
			return nil, false, &errNotOnRoute{err.Error()}
		}
	}
	own := make(map[factKey]analysis.Fact)
	ownPkg := make(map[reflect.Type]analysis.Fact)
	factOf := func(obj types.Object, t reflect.Type) analysis.Fact {
		if obj.Pkg() == pkg {
			return own[factKey{obj, t}]
		}
		if dep := r.nodeOf(obj.Pkg()); dep != nil {
			return dep.facts[factKey{obj, t}]
		}
		return nil
	}
	var module *analysis.Module
	if m := n.p.Module; m != nil {
		module = &analysis.Module{Path: m.Path, Version: m.Version, GoVersion: m.GoVersion}
	}
	coll := newCollector("") // absolute paths: rebased where the run reports them
	coll.addFiles(r.fset, files)
	results := make(map[*analysis.Analyzer]any)
	failed := make(map[*analysis.Analyzer]bool)
	keep = true
	for _, a := range r.analyzers {
		if slices.ContainsFunc(a.Requires, func(req *analysis.Analyzer) bool { return failed[req] }) {
			failed[a] = true
			continue
		}
		owns := func(fact analysis.Fact) bool {
			return slices.ContainsFunc(a.FactTypes, func(f analysis.Fact) bool { return reflect.TypeOf(f) == reflect.TypeOf(fact) })
		}
		resultOf := make(map[*analysis.Analyzer]any)
		for _, req := range a.Requires {
			resultOf[req] = results[req]
		}
		pass := &analysis.Pass{
			Analyzer: a, Fset: r.fset, Files: files, Pkg: pkg, TypesInfo: info, TypesSizes: r.sizes,
			Module: module, ResultOf: resultOf, ReadFile: os.ReadFile,
			Report: func(d analysis.Diagnostic) { coll.add(r.fset, a.Name, d) },
			ImportObjectFact: func(obj types.Object, fact analysis.Fact) bool {
				return copyFact(fact, factOf(obj, reflect.TypeOf(fact)))
			},
			ExportObjectFact: func(obj types.Object, fact analysis.Fact) {
				if obj.Pkg() != pkg {
					panic(fmt.Sprintf("%s: a fact of %s, of another package", a.Name, obj))
				}
				own[factKey{obj, reflect.TypeOf(fact)}] = fact
			},
			ImportPackageFact: func(p *types.Package, fact analysis.Fact) bool {
				if p == pkg {
					return copyFact(fact, ownPkg[reflect.TypeOf(fact)])
				}
				if dep := r.nodeOf(p); dep != nil {
					return copyFact(fact, dep.pkgFacts[reflect.TypeOf(fact)])
				}
				return false
			},
			ExportPackageFact: func(fact analysis.Fact) { ownPkg[reflect.TypeOf(fact)] = fact },
			AllObjectFacts: func() []analysis.ObjectFact {
				var out []analysis.ObjectFact
				for k, f := range own {
					if owns(f) {
						out = append(out, analysis.ObjectFact{Object: k.obj, Fact: f})
					}
				}
				for _, dep := range deps {
					for k, f := range dep.facts {
						if owns(f) {
							out = append(out, analysis.ObjectFact{Object: k.obj, Fact: f})
						}
					}
				}
				return out
			},
			AllPackageFacts: func() []analysis.PackageFact {
				var out []analysis.PackageFact
				for _, f := range ownPkg {
					if owns(f) {
						out = append(out, analysis.PackageFact{Package: pkg, Fact: f})
					}
				}
				for _, dep := range deps {
					for _, f := range dep.pkgFacts {
						if owns(f) {
							out = append(out, analysis.PackageFact{Package: dep.types, Fact: f})
						}
					}
				}
				return out
			},
		}
		res, err := a.Run(pass)
		if err != nil {
			failed[a] = true
			keep = false
			n.failed = append(n.failed, r.failure(a, n, err))
			continue
		}
		results[a] = res
	}
	var ownFacts []analysis.ObjectFact
	for k, f := range own {
		ownFacts = append(ownFacts, analysis.ObjectFact{Object: k.obj, Fact: f})
	}
	facts, err := encodeFacts(pkg, n.p.ImportPath, ownFacts, slices.Collect(maps.Values(ownPkg)))
	if err != nil {
		return nil, false, &errNotOnRoute{err.Error()}
	}
	out := &pkgResult{Facts: facts, Findings: coll.findings}
	return out, keep, nil
}

// failure words the failure of rule a on n as the other routes do.
func (r *router) failure(a *analysis.Analyzer, n *node, err error) string {
	var line string
	if perr, ok := err.(*PanicError); ok {
		line = perr.Error()
		if r.cfg.debug {
			line += "\n" + strings.TrimRight(string(perr.Stack), "\n")
		} else {
			line += " (run with -debug for the stack)"
		}
	} else {
		line = fmt.Sprintf("rule %s on package %s: %v", a.Name, packageOfID(n.p.ImportPath), err)
	}
	return line
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// factTypeName names a fact's type in the cache: its package path and name.
func factTypeName(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() + "." + t.Name()
}

// encodeFacts encodes the facts of pkg (the package id): those of its own objects a package
// importing it can name (objectpath), and its package facts, each once, in a stable order.
func encodeFacts(pkg *types.Package, id string, objFacts []analysis.ObjectFact, pkgFacts []analysis.Fact) ([]storedFact, error) {
	var out []storedFact
	seen := make(map[[2]string]bool)
	add := func(path objectpath.Path, f analysis.Fact) error {
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(f); err != nil {
			return fmt.Errorf("package %s: a fact: %v", id, err)
		}
		sf := storedFact{Path: string(path), Type: factTypeName(reflect.TypeOf(f)), Data: buf.Bytes()}
		if k := [2]string{sf.Path, sf.Type}; !seen[k] {
			seen[k] = true
			out = append(out, sf)
		}
		return nil
	}
	for _, of := range objFacts {
		if of.Object.Pkg() != pkg {
			continue
		}
		path, err := objectpath.For(of.Object)
		if err != nil {
			continue // no package importing this one can name it
		}
		if err := add(path, of.Fact); err != nil {
			return nil, err
		}
	}
	for _, f := range pkgFacts {
		if err := add("", f); err != nil {
			return nil, err
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.Path < b.Path || a.Path == b.Path && a.Type < b.Type
	})
	return out, nil
}

// nodeOf returns the node whose export data pkg was read from, or nil.
func (r *router) nodeOf(pkg *types.Package) *node {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byPath[pkg]
}

// copyFact copies the fact src into dst, a pointer of its type; false when src is nil.
func copyFact(dst, src analysis.Fact) bool {
	if src == nil {
		return false
	}
	reflect.ValueOf(dst).Elem().Set(reflect.ValueOf(src).Elem())
	return true
}

// rebase returns f, whose paths are absolute, with paths relative to root.
func rebase(root string, f output.Finding) output.Finding {
	f.Pos.File = relative(root, f.Pos.File)
	f.End.File = relative(root, f.End.File)
	if len(f.Related) > 0 {
		related := slices.Clone(f.Related)
		for i := range related {
			related[i].Pos.File = relative(root, related[i].Pos.File)
		}
		f.Related = related
	}
	if len(f.Fixes) > 0 {
		fixes := slices.Clone(f.Fixes)
		for i := range fixes {
			edits := slices.Clone(fixes[i].Edits)
			for j := range edits {
				edits[j].Pos.File = relative(root, edits[j].Pos.File)
				edits[j].End.File = relative(root, edits[j].End.File)
			}
			fixes[i].Edits = edits
		}
		f.Fixes = fixes
	}
	return f
}

// The package cache: each analysed package's result under its key, beside the run cache (in
// deadlinelint/pkgs of the user's cache directory, or DEADLINELINT_CACHE/pkgs); off when the
// run cache is. Entries unused for a week are removed, as the run cache's are.

// pkgCacheDir returns the directory of the package cache, or "" when it is off.
func pkgCacheDir() string {
	runs := runCacheDir()
	if runs == "" {
		return ""
	}
	return cacheSibling(runs, "pkgs")
}

// cacheSibling returns the directory of the cache name beside the run cache runs: in the
// user's cache directory deadlinelint/name beside deadlinelint/runs, in DEADLINELINT_CACHE a
// subdirectory.
func cacheSibling(runs, name string) string {
	if os.Getenv("DEADLINELINT_CACHE") != "" {
		return filepath.Join(runs, name)
	}
	return filepath.Join(filepath.Dir(runs), name)
}

// cached returns the result the package cache keeps under key.
func (r *router) cached(key string) (*pkgResult, bool) {
	if r.cacheDir == "" {
		return nil, false
	}
	name := filepath.Join(r.cacheDir, key[:2], key)
	f, err := os.Open(name)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	var res pkgResult
	if err := gob.NewDecoder(f).Decode(&res); err != nil {
		return nil, false
	}
	now := time.Now()
	_ = os.Chtimes(name, now, now) // used: kept another week
	return &res, true
}

// keep keeps res under key.
func (r *router) keep(key string, res *pkgResult) {
	if r.cacheDir == "" {
		return
	}
	var buf bytes.Buffer
	if gob.NewEncoder(&buf).Encode(res) != nil {
		return
	}
	if writeAtomic(filepath.Join(r.cacheDir, key[:2], key), buf.Bytes()) != nil {
		return
	}
	pruneRuns(r.cacheDir)
}
