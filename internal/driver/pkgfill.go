package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
)

// An in-process run (a cold build cache) leaves what the package route needs to answer the
// next run after an edit without compiling anything: every package's export data, written from
// the types it checked (gcexportdata), the facts and findings of every package the route
// analyses, in the package cache under the route's own keys, and a listing of the packages with
// that export data for the run memo. A module nobody compiled (a fresh checkout) then costs one
// run in the process, and each edit after it what it costs on a warm build cache.
//
// The entries are those the package route would make: its keys (newRouter over the listing),
// the facts each package exports that a package importing it can name (objectpath), the
// findings of every rule on it. A package the route would not analyse gets export data only.

// fillPackageCache writes the package route's caches from the in-process run's graph and
// returns the listing for the run memo, or nil and why when it cannot (a package with errors,
// a rule that failed, no package cache).
func (c *Command) fillPackageCache(cfg *config, pkgs []*packages.Package, graph *checker.Graph) ([]routePackage, string) {
	dir := pkgCacheDir()
	if dir == "" {
		return nil, "no package cache"
	}
	standard := make(map[string]bool)
	for i := range cfg.listed {
		standard[cfg.listed[i].ImportPath] = cfg.listed[i].Standard
	}
	var all []*packages.Package
	packages.Visit(pkgs, nil, func(p *packages.Package) { all = append(all, p) })
	roots := make(map[*packages.Package]bool)
	for _, p := range pkgs {
		roots[p] = true
	}
	listing := make([]routePackage, 0, len(all))
	for _, p := range all {
		if len(p.Errors) > 0 || p.Types == nil || p.IllTyped {
			return nil, "package " + p.ID + " has errors"
		}
		if p.ID == "unsafe" {
			continue
		}
		export, err := writeExport(dir, p.Fset, p.Types, p.ID)
		if err != nil {
			return nil, err.Error()
		}
		rp := routePackage{Export: export, CompiledGoFiles: p.CompiledGoFiles}
		rp.ImportPath, rp.Name, rp.Dir = p.ID, p.Name, p.Dir
		if len(p.GoFiles) > 0 && rp.Dir == "" {
			rp.Dir = filepath.Dir(p.GoFiles[0])
		}
		rp.DepOnly = !roots[p]
		rp.Standard = standard[packageOfID(p.ID)]
		rp.GoFiles = p.GoFiles
		if slices.ContainsFunc(p.CompiledGoFiles, func(f string) bool { return !slices.Contains(p.GoFiles, f) }) {
			// cgo's output: an edit of the package must be compiled again (the run memo lists).
			rp.CgoFiles = p.GoFiles
		}
		if m := p.Module; m != nil {
			rp.Module = &listedModule{Path: m.Path, Version: m.Version, Dir: m.Dir, GoMod: m.GoMod, GoVersion: m.GoVersion, Main: m.Main}
			if r := m.Replace; r != nil {
				rp.Module.Replace = &listedModule{Path: r.Path, Version: r.Version, Dir: r.Dir}
			}
		}
		rp.ImportMap = make(map[string]string)
		for _, path := range slices.Sorted(maps.Keys(p.Imports)) {
			imp := p.Imports[path]
			rp.Imports = append(rp.Imports, imp.ID)
			if imp.ID != path {
				rp.ImportMap[path] = imp.ID
			}
		}
		listing = append(listing, rp)
	}
	r, err := newRouter(c, cfg, listing)
	if err != nil {
		return nil, err.Error()
	}
	actions := make(map[string][]*checker.Action)
	for act := range graph.All() {
		if act.Err != nil {
			return nil, "rule " + act.Analyzer.Name + " failed on " + act.Package.ID
		}
		actions[act.Package.ID] = append(actions[act.Package.ID], act)
	}
	byID := make(map[string]*packages.Package)
	for _, p := range all {
		byID[p.ID] = p
	}
	for _, n := range r.nodes {
		if !n.analyse || n.result != nil {
			continue
		}
		p := byID[n.p.ImportPath]
		acts := actions[p.ID]
		res, err := packageResult(p, acts)
		if err != nil {
			return nil, err.Error()
		}
		res.Partial = len(acts) < len(r.analyzers)
		r.keep(n.key, res)
	}
	return listing, ""
}

// writeExport writes the export data of pkg, the package id, into the package cache dir, named
// by its content, and returns the file's name.
func writeExport(dir string, fset *token.FileSet, pkg *types.Package, id string) (string, error) {
	var buf bytes.Buffer
	if err := gcexportdata.Write(&buf, fset, pkg); err != nil {
		return "", fmt.Errorf("writing the export data of %s: %v", id, err)
	}
	sum := sha256.Sum256(buf.Bytes())
	name := filepath.Join(dir, "export", hex.EncodeToString(sum[:]))
	if _, err := os.Stat(name); err == nil {
		return name, nil
	}
	if err := writeAtomic(name, buf.Bytes()); err != nil {
		return "", fmt.Errorf("writing the export data of %s: %v", id, err)
	}
	return name, nil
}

// packageResult returns what the package route would keep of p, from the in-process run's
// actions on it: the facts of its own objects a package importing it can name, and every
// rule's findings, with absolute paths.
func packageResult(p *packages.Package, acts []*checker.Action) (*pkgResult, error) {
	coll := newCollector("")
	coll.addFiles(p.Fset, p.Syntax)
	var objFacts []analysis.ObjectFact
	var pkgFacts []analysis.Fact
	for _, act := range acts {
		for _, d := range act.Diagnostics {
			coll.add(p.Fset, act.Analyzer.Name, d)
		}
		objFacts = append(objFacts, act.AllObjectFacts()...)
		for _, pf := range act.AllPackageFacts() {
			if pf.Package == p.Types {
				pkgFacts = append(pkgFacts, pf.Fact)
			}
		}
	}
	facts, err := encodeFacts(p.Types, p.ID, objFacts, pkgFacts)
	if err != nil {
		return nil, err
	}
	res := &pkgResult{Facts: facts}
	res.Findings = coll.findings
	return res, nil
}
