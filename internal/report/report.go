// Package report is how a deadlinelint rule emits findings: once each, never in generated
// files, honouring //deadlinelint:ignore <rule> <reason>, and reporting the suppressions of
// the rule that have no reason or that suppress nothing.
package report

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/deadlinelint/deadlinelint/internal/ctxssa"
	"github.com/deadlinelint/deadlinelint/internal/directive"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// Reporter emits one rule's diagnostics for one package.
type Reporter struct {
	pass *analysis.Pass
	res  *ctxssa.Result
	rule string
	used map[*directive.Directive]bool
	seen map[token.Pos]bool
}

// New returns a Reporter for rule on pass.
func New(pass *analysis.Pass, res *ctxssa.Result, rule string) *Reporter {
	return &Reporter{
		pass: pass, res: res, rule: rule,
		used: make(map[*directive.Directive]bool),
		seen: make(map[token.Pos]bool),
	}
}

// Report emits d unless it is in a generated file or in a block a constant condition keeps
// from running (if false { … }), was already reported at the same position, or is suppressed
// by a //deadlinelint:ignore naming the rule and giving a reason.
func (r *Reporter) Report(d analysis.Diagnostic) {
	if r.seen[d.Pos] || r.res.Generated(d.Pos) || r.res.Dead(d.Pos) {
		return
	}
	r.seen[d.Pos] = true
	if r.Suppresses(d.Pos) {
		return
	}
	d.Category = r.rule
	r.pass.Report(d)
}

// Suppresses reports whether a //deadlinelint:ignore naming the rule, with a reason, is on
// pos's line or the line above, and counts that suppression as used. A rule that reports a
// decision elsewhere than where it is made (at a handler's call of the helper holding a root
// context) asks it at the decision, so that one suppression there silences every report of it.
func (r *Reporter) Suppresses(pos token.Pos) bool {
	for _, dir := range r.res.Directives.At(pos, directive.Ignore) {
		if dir.Names(r.rule) && dir.Reason != "" {
			r.used[dir] = true
			return true
		}
	}
	return false
}

// Reportf emits a diagnostic without related information or fixes.
func (r *Reporter) Reportf(pos, end token.Pos, format string, args ...any) {
	r.Report(analysis.Diagnostic{Pos: pos, End: end, Message: fmt.Sprintf(format, args...)})
}

// Finish reports the suppressions naming the rule that give no reason, and those that
// suppressed nothing (stale ones). Call it once, after the rule's last Report.
func (r *Reporter) Finish() {
	for _, dir := range r.res.Directives.All() {
		if dir.Kind != directive.Ignore || r.res.Generated(dir.Pos) {
			continue
		}
		if r.rule == unknownNamesOwner {
			r.reportUnknownNames(dir)
		}
		if !dir.Names(r.rule) {
			continue
		}
		switch {
		case dir.Reason == "":
			r.pass.Report(analysis.Diagnostic{
				Pos: dir.Pos, Category: r.rule,
				Message: fmt.Sprintf("//deadlinelint:ignore %s needs a reason: //deadlinelint:ignore %s <why this is safe>", r.rule, r.rule),
			})
		case !r.used[dir]:
			r.pass.Report(analysis.Diagnostic{
				Pos: dir.Pos, Category: r.rule,
				Message: fmt.Sprintf("unused //deadlinelint:ignore %s: there is no %s finding on this line or the next; remove it", r.rule, r.rule),
			})
		}
	}
}

// Rules lists the names of deadlinelint's rules, so that a suppression naming no rule (a
// misspelling) is reported. analyzers' tests check it against analyzers.All().
var Rules = []string{"ctxbackground", "ctxflow", "detach", "missingdeadline", "ctxless", "deadlinemath", "statusmask", "streamloop"}

// unknownNamesOwner is the rule that reports suppressions naming unknown rules, so that they
// are reported once, not by every rule.
const unknownNamesOwner = "ctxbackground"

func (r *Reporter) reportUnknownNames(dir *directive.Directive) {
	for _, name := range dir.Rules {
		if !slices.Contains(Rules, name) {
			r.pass.Report(analysis.Diagnostic{
				Pos: dir.Pos, Category: r.rule,
				Message: fmt.Sprintf("//deadlinelint:ignore names %q, which is no deadlinelint rule (rules: %s)", name, strings.Join(Rules, ", ")),
			})
		}
	}
}

// FuncName is the short name of fn used in messages: "http.Get", "DB.Query".
func FuncName(fn *types.Func) string { return typesutil.FuncName(fn) }

// Before reports whether a comes before b in source order: by file name, then offset.
// token.Pos alone orders files as they were parsed, which go/packages does in parallel, so
// sorting by it makes the first of several call sites vary from run to run.
func Before(fset *token.FileSet, a, b token.Pos) bool {
	pa, pb := fset.Position(a), fset.Position(b)
	if pa.Filename != pb.Filename {
		return pa.Filename < pb.Filename
	}
	return pa.Offset < pb.Offset
}

// FileOf returns the syntax of the pass's file holding pos, or nil.
func FileOf(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}
