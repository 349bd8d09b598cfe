package driver

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// load loads the packages matching patterns, from source, with type
// information; all dependencies too when facts require it.
func load(dir string, cfg *config, allSyntax bool, debugf func(format string, args ...any)) ([]*packages.Package, error) {
	mode := packages.LoadSyntax
	if allSyntax {
		mode = packages.LoadAllSyntax
	}
	lcfg := &packages.Config{
		Mode:  mode | packages.NeedModule,
		Dir:   dir,
		Tests: cfg.tests,
	}
	if cfg.tags != "" {
		lcfg.BuildFlags = []string{"-tags=" + cfg.tags}
	}
	var strip *stripper
	if allSyntax && !cfg.whole {
		strip = newStripper(dir, cfg)
	}
	return loadStripped(lcfg, cfg.patterns, strip, debugf)
}

// loadStripped loads the packages, parsing the files strip says without function bodies.
func loadStripped(lcfg *packages.Config, patterns []string, strip *stripper, debugf func(format string, args ...any)) ([]*packages.Package, error) {
	if strip != nil {
		lcfg.ParseFile = strip.parseFile
		files, pkgs := strip.stripped()
		debugf("parsing %d files of %d dependencies without function bodies: no rule reads them", files, pkgs)
	}
	pkgs, err := packages.Load(lcfg, patterns...)
	if err != nil {
		return nil, err
	}
	if strip != nil && strip.failed(pkgs) {
		// A stripped dependency that does not type-check: load again whole, so that the
		// errors, if any remain, are the code's own.
		debugf("a dependency parsed without bodies has errors: loading again with them")
		lcfg.ParseFile = nil
		return packages.Load(lcfg, patterns...)
	}
	return pkgs, nil
}

// analysable returns the packages to analyse: the well-typed ones, less
// the test mains `go test` synthesises.
func analysable(pkgs []*packages.Package) []*packages.Package {
	var keep []*packages.Package
	for _, p := range pkgs {
		if !p.IllTyped && !isTestMain(p) {
			keep = append(keep, p)
		}
	}
	return keep
}

// isTestMain reports whether p is the generated main of a test binary.
func isTestMain(p *packages.Package) bool {
	return p.Name == "main" && strings.HasSuffix(p.ID, ".test") && strings.HasSuffix(p.PkgPath, ".test")
}

// packageErrors returns one line per distinct error of the loaded
// packages and their dependencies, and the roots skipped because a
// dependency has errors. Paths are shown relative to root.
func packageErrors(pkgs []*packages.Package, patterns []string, root string) []string {
	var lines []string
	seen := make(map[string]bool)
	add := func(line string) {
		if !seen[line] {
			seen[line] = true
			lines = append(lines, line)
		}
	}
	isPattern := make(map[string]bool)
	for _, p := range patterns {
		isPattern[p] = true
	}
	modLines, accounted := moduleFailures(pkgs)
	for _, l := range modLines {
		add(l)
	}
	failed := make(map[string]bool) // import paths of packages with errors
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		failed[p.PkgPath] = failed[p.PkgPath] || len(p.Errors) > 0
	})
	reported := make(map[*packages.Package]bool)
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if accounted[p] {
			reported[p] = true // the module it needs said why
			return
		}
		compiled := hasCompileErrors(p)
		syntax := make(map[string]bool) // files with a syntax error already shown
		hasSyntax := hasParseErrors(p)
		broken := brokenImport(p)
		for _, e := range p.Errors {
			if e.Kind == packages.ListError && compiled && (strings.HasPrefix(e.Msg, "# ") || parsedAlso(p, e)) {
				continue // the go command's copy of the compile errors below
			}
			if e.Kind == packages.TypeError && (failed[unimportable(e.Msg)] || hasSyntax || broken != "") {
				// The imported package's own error says why; a package with a syntax error, or
				// importing one with errors, is type-checked from what could be read, and its
				// type errors follow from the first.
				continue
			}
			if e.Kind == packages.ParseError {
				file := errorFile(e)
				if syntax[file] {
					continue // the parser's later errors in a file mostly follow from its first
				}
				syntax[file] = true
			}
			what := "package " + p.PkgPath
			if isPattern[p.ID] && p.Name == "" {
				what = "pattern " + p.ID
			}
			add(fmt.Sprintf("%s: %s", what, strings.TrimPrefix(formatError(e, root), what+": ")))
			reported[p] = true
		}
	})
	for _, p := range pkgs {
		if p.IllTyped && !isTestMain(p) && !reported[p] {
			if broken := brokenImport(p); broken != "" {
				add(fmt.Sprintf("package %s: not analysed: it imports %s, which has errors", p.PkgPath, broken))
				continue
			}
			add(fmt.Sprintf("package %s: not analysed: a package it imports has errors", p.PkgPath))
		}
	}
	return lines
}

// unimportable returns the import path of a type checker's
// "could not import PATH (...)" message, or "".
func unimportable(msg string) string {
	rest, ok := strings.CutPrefix(msg, "could not import ")
	if !ok {
		return ""
	}
	path, _, _ := strings.Cut(rest, " ")
	return path
}

// parsedAlso reports whether the parser reports e, an error of the go command, too.
func parsedAlso(p *packages.Package, e packages.Error) bool {
	for _, pe := range p.Errors {
		if pe.Kind == packages.ParseError && pe.Msg == e.Msg &&
			(pe.Pos == e.Pos || strings.HasSuffix(pe.Pos, string(filepath.Separator)+e.Pos)) { // go list's position is relative
			return true
		}
	}
	return false
}

// hasParseErrors reports whether a file of p could not be parsed.
func hasParseErrors(p *packages.Package) bool {
	for _, e := range p.Errors {
		if e.Kind == packages.ParseError {
			return true
		}
	}
	return false
}

// brokenImport returns the import path of a package p imports, directly or not, that has
// errors, or "".
func brokenImport(p *packages.Package) string {
	broken := ""
	seen := make(map[*packages.Package]bool)
	var visit func(q *packages.Package)
	visit = func(q *packages.Package) {
		for _, path := range slices.Sorted(maps.Keys(q.Imports)) {
			imp := q.Imports[path]
			if broken != "" || seen[imp] {
				continue
			}
			seen[imp] = true
			if len(imp.Errors) > 0 {
				broken = imp.PkgPath
				return
			}
			visit(imp)
		}
	}
	visit(p)
	return broken
}

// errorFile returns the file of e's position ("file:line:col"), or the position itself.
func errorFile(e packages.Error) string {
	if m := posRE.FindStringSubmatch(e.Pos); m != nil {
		return m[1]
	}
	return e.Pos
}

func hasCompileErrors(p *packages.Package) bool {
	for _, e := range p.Errors {
		if e.Kind == packages.ParseError || e.Kind == packages.TypeError {
			return true
		}
	}
	return false
}

// posRE splits a packages.Error position into file and line[:col].
var posRE = regexp.MustCompile(`^(.*?)((?::\d+){1,2})$`)

// formatError renders e as "type error: file:line:col: message".
func formatError(e packages.Error, root string) string {
	var b strings.Builder
	switch e.Kind {
	case packages.ParseError:
		b.WriteString("syntax error: ")
	case packages.TypeError:
		b.WriteString("type error: ")
	}
	if e.Pos != "" && e.Pos != "-" {
		if m := posRE.FindStringSubmatch(e.Pos); m != nil {
			b.WriteString(relative(root, m[1]) + m[2] + ": ")
		} else {
			b.WriteString(e.Pos + ": ")
		}
	}
	b.WriteString(strings.ReplaceAll(e.Msg, "\n", " "))
	return b.String()
}

// unmatchedPatterns returns the "..." patterns that matched no package
// (the go command only warns about those). Other patterns that match
// nothing come back from packages.Load as packages with errors.
func unmatchedPatterns(dir string, patterns []string, pkgs []*packages.Package) []string {
	var unmatched []string
	for _, pat := range patterns {
		if !strings.Contains(pat, "...") {
			continue
		}
		match := patternMatcher(dir, pat)
		found := false
		for _, p := range pkgs {
			// A package named after the pattern carries the go
			// command's own error about it.
			found = found || p.ID == pat || match(p)
		}
		if !found {
			unmatched = append(unmatched, pat)
		}
	}
	sort.Strings(unmatched)
	return unmatched
}

// patternMatcher returns a predicate reporting whether a package
// matches a "..." pattern: by directory for relative or absolute
// patterns, by import path otherwise.
func patternMatcher(dir, pat string) func(*packages.Package) bool {
	isPath := pat == "." || pat == ".." || strings.HasPrefix(pat, "./") || strings.HasPrefix(pat, "../") || filepath.IsAbs(pat)
	if isPath {
		if !filepath.IsAbs(pat) {
			pat = filepath.Join(dir, pat)
		}
		re := wildcardRE(filepath.ToSlash(filepath.Clean(pat)))
		return func(p *packages.Package) bool {
			return p.Dir != "" && re.MatchString(filepath.ToSlash(p.Dir))
		}
	}
	re := wildcardRE(pat)
	return func(p *packages.Package) bool { return re.MatchString(p.PkgPath) }
}

// wildcardRE compiles a go pattern: "..." matches any string, and
// "x/..." also matches x itself.
func wildcardRE(pat string) *regexp.Regexp {
	re := regexp.QuoteMeta(pat)
	re = strings.ReplaceAll(re, `/\.\.\.`, `(/.*)?`)
	re = strings.ReplaceAll(re, `\.\.\.`, `.*`)
	return regexp.MustCompile(`^` + re + `$`)
}
