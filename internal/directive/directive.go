// Package directive parses deadlinelint's comment directives:
//
//	//deadlinelint:ignore <rule>[,<rule>...] <reason>   suppress a finding on this line or the next
//	//deadlinelint:detach <reason>                      say why a context.WithoutCancel is deliberate
//	//deadlinelint:scope                                mark a function as a request scope
//
// Parsing is strict about the prefix (no space after "//", as for //go: directives) and lenient
// about spacing after it; text after a further "//" is a comment on the directive. A directive that needs a reason and has none is kept, with an empty
// Reason, so that the rule it concerns can report it.
package directive

import (
	"go/ast"
	"go/token"
	"strings"
)

// Kind is the verb of a directive.
type Kind int

const (
	Ignore Kind = iota + 1 // //deadlinelint:ignore
	Detach                 // //deadlinelint:detach
	Scope                  // //deadlinelint:scope
)

const prefix = "//deadlinelint:"

// Directive is one parsed //deadlinelint: comment.
type Directive struct {
	Kind   Kind
	Rules  []string // Ignore only: the rules it suppresses
	Reason string   // Ignore and Detach: the free-text reason, "" when missing
	Pos    token.Pos
	Line   int // line of the comment
	// Trailing is true when code precedes the comment on its line.
	Trailing bool
}

// Parse parses the text of one // comment. It reports ok=false for comments that are not
// deadlinelint directives, and for unknown verbs (which are left alone, like go vet does
// with unknown //go: lines).
func Parse(text string) (d Directive, ok bool) {
	rest, found := strings.CutPrefix(text, prefix)
	if !found {
		return Directive{}, false
	}
	rest, _, _ = strings.Cut(rest, "//") // a comment on the directive is not part of it
	verb, args, _ := strings.Cut(rest, " ")
	args = strings.TrimSpace(args)
	switch strings.TrimSpace(verb) {
	case "ignore":
		d.Kind = Ignore
		names, reason, _ := strings.Cut(args, " ")
		for _, name := range strings.Split(names, ",") {
			if name = strings.TrimSpace(name); name != "" {
				d.Rules = append(d.Rules, name)
			}
		}
		d.Reason = strings.TrimSpace(reason)
	case "detach":
		d.Kind = Detach
		d.Reason = args
	case "scope":
		d.Kind = Scope
	default:
		return Directive{}, false
	}
	return d, true
}

// Names reports whether d (an Ignore directive) names rule.
func (d *Directive) Names(rule string) bool {
	for _, r := range d.Rules {
		if r == rule {
			return true
		}
	}
	return false
}

// Index holds the directives of one package's files, by file name and line.
type Index struct {
	fset   *token.FileSet
	byLine map[string]map[int][]*Directive
	all    []*Directive
}

// Collect parses the directives of files.
func Collect(fset *token.FileSet, files []*ast.File) *Index {
	ix := &Index{fset: fset, byLine: make(map[string]map[int][]*Directive)}
	for _, f := range files {
		for _, group := range f.Comments {
			for _, c := range group.List {
				d, ok := Parse(c.Text)
				if !ok {
					continue
				}
				p := fset.Position(c.Slash)
				d.Pos, d.Line = c.Slash, p.Line
				d.Trailing = p.Column > 1 && codeBefore(fset, f, c.Slash)
				lines := ix.byLine[p.Filename]
				if lines == nil {
					lines = make(map[int][]*Directive)
					ix.byLine[p.Filename] = lines
				}
				dp := &d
				lines[p.Line] = append(lines[p.Line], dp)
				ix.all = append(ix.all, dp)
			}
		}
	}
	return ix
}

// codeBefore reports whether a token of code precedes pos on its line: the comment trails
// a statement rather than standing on its own line.
func codeBefore(fset *token.FileSet, f *ast.File, pos token.Pos) bool {
	tf := fset.File(pos)
	lineStart := tf.LineStart(tf.Line(pos))
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if found || n == nil || n.End() <= lineStart || n.Pos() >= pos {
			return false // outside the stretch [lineStart, pos)
		}
		if _, ok := n.(*ast.CommentGroup); ok {
			return false
		}
		if n.Pos() >= lineStart || n.End() <= pos { // starts or ends on the line, before pos
			found = true
		}
		return !found
	})
	return found
}

// All returns every directive, in source order of collection.
func (ix *Index) All() []*Directive { return ix.all }

// At returns the directives of kind k that apply to the line of pos: those on the same line and
// those alone on the line directly above.
func (ix *Index) At(pos token.Pos, k Kind) []*Directive {
	if ix == nil || !pos.IsValid() {
		return nil
	}
	p := ix.fset.Position(pos)
	lines := ix.byLine[p.Filename]
	var out []*Directive
	for _, d := range lines[p.Line] {
		if d.Kind == k {
			out = append(out, d)
		}
	}
	for _, d := range lines[p.Line-1] {
		if d.Kind == k && !d.Trailing {
			out = append(out, d)
		}
	}
	return out
}

// Unfinished reports whether the comment text begins with a note of unfinished work — TODO,
// FIXME or XXX, in any case — which says the opposite of a decision and is no reason.
func Unfinished(text string) bool {
	upper := strings.ToUpper(strings.TrimSpace(text))
	for _, note := range []string{"TODO", "FIXME", "XXX"} {
		if strings.HasPrefix(upper, note) {
			return true
		}
	}
	return false
}
