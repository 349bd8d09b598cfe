// Package output renders deadlinelint findings as text, JSON, SARIF 2.1.0
// or GitHub Actions workflow commands.
//
// The driver builds a [Report] once, with positions already made relative
// to the repository root; each format is a pure function of that report.
package output

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// A Position is a point in a source file as shown to users.
// File is slash-separated and relative to the repository root when the
// file lies under it (absolute otherwise). Line and Column are 1-based;
// Column counts bytes, as go vet does.
type Position struct {
	File   string
	Line   int
	Column int
}

// String formats p as file:line:col.
func (p Position) String() string {
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
}

// A Related position points at code that explains a finding, such as the
// ctx-taking call a dropped context reaches.
type Related struct {
	Pos     Position
	Message string
}

// An Edit replaces the bytes [Offset, EndOffset) of Pos.File with NewText.
// Pos and End are the same range as line and column.
type Edit struct {
	Pos       Position
	End       Position
	Offset    int
	EndOffset int
	NewText   string
}

// A Fix is one suggested change that resolves a finding.
type Fix struct {
	Message string
	Edits   []Edit
}

// A Finding is one diagnostic reported by one rule.
type Finding struct {
	Rule    string
	Pos     Position
	End     Position // equal to Pos when the diagnostic has no extent
	Message string
	Related []Related
	Fixes   []Fix
}

// A Rule describes one analyzer for formats that list rules (SARIF).
type Rule struct {
	Name  string
	Title string // its name for people ("RootContextInRequestScope"); "" for none
	Doc   string // the analyzer's Doc: a first summary line, then details
	URL   string // its documentation; "" for docs/rules.md#<name>
	Help  string // Markdown: what it reports, with a bad and a good snippet; "" for none
}

// A Report is everything one run has to say.
type Report struct {
	ToolName    string
	ToolVersion string
	Rules       []Rule
	Findings    []Finding
	// Errors are problems that kept the run from analysing everything
	// (load errors, type errors, internal errors), one line each.
	Errors []string
	// Root is the absolute directory that relative File names are
	// relative to. Formats that count columns in UTF-16 code units
	// read the source lines from there.
	Root string
}

// Formats lists the names accepted by [Write], in the order -help shows them.
var Formats = []string{"text", "json", "sarif", "github"}

// Write renders r in the named format.
func Write(w io.Writer, format string, r *Report) error {
	switch format {
	case "text":
		return writeText(w, r)
	case "json":
		return writeJSON(w, r)
	case "sarif":
		return writeSARIF(w, r)
	case "github":
		return writeGitHub(w, r)
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}

// Sort orders findings by file, line, column, rule and message.
func Sort(findings []Finding) {
	sort.SliceStable(findings, func(i, j int) bool {
		return findings[i].less(&findings[j])
	})
}

func (f *Finding) less(g *Finding) bool {
	if f.Pos.File != g.Pos.File {
		return f.Pos.File < g.Pos.File
	}
	if f.Pos.Line != g.Pos.Line {
		return f.Pos.Line < g.Pos.Line
	}
	if f.Pos.Column != g.Pos.Column {
		return f.Pos.Column < g.Pos.Column
	}
	if f.Rule != g.Rule {
		return f.Rule < g.Rule
	}
	return f.Message < g.Message
}

// writeText prints one finding per line, file:line:col: message (rule), each followed by its
// related positions as go vet prints them, file:line:col: <tab>message — where the root is made,
// the calls down to it, the other calls that reach it — so that a terminal or an editor opens
// every one.
func writeText(w io.Writer, r *Report) error {
	var b strings.Builder
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "%s: %s (%s)\n", f.Pos, f.Message, f.Rule)
		for _, rel := range f.Related {
			fmt.Fprintf(&b, "%s: \t%s\n", rel.Pos, rel.Message)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
