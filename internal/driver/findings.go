package driver

import (
	"go/ast"
	"go/parser"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/deadlinelint/deadlinelint/internal/output"
)

// collector turns diagnostics into findings: positions relative to the
// root, nothing in generated files, each finding once even when a package
// and its test variant both report it.
type collector struct {
	root      string
	generated map[string]bool // file name → whether it is generated
	seen      map[findingKey]bool
	findings  []output.Finding
}

type findingKey struct {
	file         string
	line, column int
	rule, msg    string
}

func newCollector(root string) *collector {
	return &collector{root: root, generated: make(map[string]bool), seen: make(map[findingKey]bool)}
}

// addFiles records which of the files, parsed in fset, are generated.
func (c *collector) addFiles(fset *token.FileSet, files []*ast.File) {
	for _, f := range files {
		c.generated[fset.File(f.FileStart).Name()] = ast.IsGenerated(f)
	}
}

// add records the diagnostic d of rule, positioned in fset.
func (c *collector) add(fset *token.FileSet, rule string, d analysis.Diagnostic) {
	pos := fset.Position(d.Pos)
	if !pos.IsValid() || c.isGenerated(pos.Filename) {
		return
	}
	f := output.Finding{
		Rule:    rule,
		Pos:     c.position(pos),
		End:     c.position(pos),
		Message: d.Message, // paths in it are made relative where the report is written
	}
	if end := fset.Position(d.End); end.IsValid() && end.Filename == pos.Filename {
		f.End = c.position(end)
	}
	for _, r := range d.Related {
		if rp := fset.Position(r.Pos); rp.IsValid() {
			f.Related = append(f.Related, output.Related{Pos: c.position(rp), Message: r.Message})
		}
	}
	for _, sf := range d.SuggestedFixes {
		if fix, ok := c.fix(fset, sf); ok {
			f.Fixes = append(f.Fixes, fix)
		}
	}
	c.addFinding(f)
}

// addFinding records f unless it was recorded already (by a package's test variant).
func (c *collector) addFinding(f output.Finding) {
	key := findingKey{f.Pos.File, f.Pos.Line, f.Pos.Column, f.Rule, f.Message}
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	c.findings = append(c.findings, f)
}

// fix converts a suggested fix. Its edits are positioned in the files
// as they are on disk, ignoring //line directives; a fix that touches a
// file remapped by //line (cgo output, templates) is dropped, since the
// file it would change is not the one the user sees.
func (c *collector) fix(fset *token.FileSet, sf analysis.SuggestedFix) (output.Fix, bool) {
	fix := output.Fix{Message: sf.Message}
	for _, e := range sf.TextEdits {
		start, end := fset.PositionFor(e.Pos, false), fset.PositionFor(e.End, false)
		if !e.End.IsValid() {
			end = start
		}
		if start.Filename != fset.Position(e.Pos).Filename || start.Filename != end.Filename {
			return output.Fix{}, false
		}
		fix.Edits = append(fix.Edits, output.Edit{
			Pos:       c.position(start),
			End:       c.position(end),
			Offset:    start.Offset,
			EndOffset: end.Offset,
			NewText:   string(e.NewText),
		})
	}
	return fix, true
}

// message returns msg with the file names it spells (a root context "at /src/app/a.go:12", in
// another package than the finding) relative to the root, as positions are.
func (c *collector) position(p token.Position) output.Position {
	return output.Position{File: relative(c.root, p.Filename), Line: p.Line, Column: p.Column}
}

// isGenerated reports whether the file is generated code, by its syntax
// when it was loaded and by its header on disk otherwise (a //line
// directive may point a diagnostic into a file the package did not parse).
func (c *collector) isGenerated(file string) bool {
	gen, ok := c.generated[file]
	if !ok {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.PackageClauseOnly|parser.ParseComments)
		gen = err == nil && ast.IsGenerated(f)
		c.generated[file] = gen
	}
	return gen
}
