package driver

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// A module the go command could not provide — a required version the proxy refuses, a module
// missing from go.sum — fails every package of it the user's code imports, and through them
// every package that imports one: dozens of lines, many of them misleading (the type checker's
// "could not import sync (no metadata for sync)" in files of the missing package's importer).
// It is one cause: moduleFailures reports it once, with the go command's own words, and then
// the user's packages it kept from being analysed.

// moduleErrRE matches a go command error about a module version, "MOD@VERSION: reason", after
// the position of the import that needs it.
var moduleErrRE = regexp.MustCompile(`(?s)^(?:\S+:\d+:\d+: )?(\S+@v\S+): (.+)$`)

// A moduleFailure is a module the go command could not provide.
type moduleFailure struct {
	module  string // path@version
	reason  string // the go command's words
	missing map[*packages.Package]bool
	blocked map[string]bool // import paths of packages not analysed because of it
}

// moduleFailures finds the modules the go command could not provide, and every package they
// account for: the packages of the missing module, and those that import one, directly or
// not. Their errors are the failure's, not their own.
func moduleFailures(pkgs []*packages.Package) (lines []string, accounted map[*packages.Package]bool) {
	byModule := make(map[string]*moduleFailure)
	owner := make(map[*packages.Package]*moduleFailure)
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if e.Kind != packages.ListError {
				continue
			}
			m := moduleErrRE.FindStringSubmatch(strings.TrimSpace(e.Msg))
			if m == nil {
				continue
			}
			f := byModule[m[1]]
			if f == nil {
				f = &moduleFailure{module: m[1], reason: strings.Join(strings.Fields(m[2]), " "),
					missing: make(map[*packages.Package]bool), blocked: make(map[string]bool)}
				byModule[m[1]] = f
			}
			f.missing[p] = true
			owner[p] = f
		}
	})
	if len(byModule) == 0 {
		return nil, nil
	}
	accounted = make(map[*packages.Package]bool)
	// A package's failure is that of the first missing module found below it.
	var cause func(p *packages.Package, seen map[*packages.Package]bool) *moduleFailure
	cause = func(p *packages.Package, seen map[*packages.Package]bool) *moduleFailure {
		if f, ok := owner[p]; ok || seen[p] {
			return f
		}
		seen[p] = true
		paths := make([]string, 0, len(p.Imports))
		for path := range p.Imports {
			paths = append(paths, path)
		}
		sort.Strings(paths)
		for _, path := range paths {
			if f := cause(p.Imports[path], seen); f != nil {
				owner[p] = f
				return f
			}
		}
		owner[p] = nil
		return nil
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if f := cause(p, make(map[*packages.Package]bool)); f != nil {
			accounted[p] = true
			if !f.missing[p] {
				f.blocked[p.PkgPath] = true
			}
		}
	})
	mods := make([]string, 0, len(byModule))
	for m := range byModule {
		mods = append(mods, m)
	}
	sort.Strings(mods)
	for _, m := range mods {
		f := byModule[m]
		lines = append(lines, fmt.Sprintf("module %s: %s", f.module, f.reason))
		if len(f.blocked) > 0 {
			lines = append(lines, fmt.Sprintf("module %s: %s not analysed because of it: %s",
				f.module, plural(len(f.blocked), "package", "packages"), list(f.blocked, 8)))
		}
	}
	return lines, accounted
}

// list names up to n of the keys of set, sorted, and how many more there are.
func list(set map[string]bool, n int) string {
	names := make([]string, 0, len(set))
	for k := range set {
		names = append(names, k)
	}
	sort.Strings(names)
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
