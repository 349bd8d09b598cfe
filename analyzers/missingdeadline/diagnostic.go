package missingdeadline

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/report"
	"github.com/deadlinelint/deadlinelint/internal/reqctx"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// maxRelated bounds the related positions of one finding.
const maxRelated = 8

// diagnostic builds the finding for site s, whose ctx comes from origin o and reaches an RPC
// along path.
func (c *checker) diagnostic(s *site, o ctxorigin.Origin, path string) analysis.Diagnostic {
	pos, end := c.res.CallRange(s.instr)
	root := rootName(o)
	rpc, via := split(path)
	var given *ssa.Parameter // the ctx the root plainly drops, for a root given to the RPC itself
	var msg string
	if via == "" {
		given = dropped(o, s.instr)
		kind := ""
		if s.rpc.stream {
			kind = "streaming "
		}
		msg = fmt.Sprintf("%sRPC %s has no deadline (ctx from %s); %s", kind, rpc, root, advice(given))
	} else {
		// The calls between head and the RPC are related positions (hops).
		head, _, _ := strings.Cut(via, arrow)
		msg = fmt.Sprintf("%s calls RPC %s with no deadline (ctx from %s); add one with context.WithTimeout", head, rpc, root)
	}
	d := analysis.Diagnostic{Pos: pos, End: end, Message: msg}
	switch {
	case o.Call != nil:
		if rpos, _ := c.res.CallRange(o.Call); rpos != pos {
			d.Related = append(d.Related, analysis.RelatedInformation{
				Pos: rpos, Message: fmt.Sprintf("the ctx comes from %s here, without a deadline", root),
			})
		}
	case o.Via != nil: // a root made in another package, returned by the call Via
		if rpos, _ := c.res.CallRange(o.Via); rpos != pos {
			d.Related = append(d.Related, analysis.RelatedInformation{
				Pos: rpos, Message: "the ctx comes from this call, without a deadline",
			})
		}
	}
	d.Related = append(d.Related, c.hops(s)...)
	if given != nil {
		c.useGiven(&d, o, given)
	}
	return d
}

// advice says what to do about a root with no deadline: use the ctx given, the parameter the
// root plainly drops (dropped), which the function's callers can bound; else give the ctx a
// deadline.
func advice(given *ssa.Parameter) string {
	if given != nil {
		return fmt.Sprintf("use the ctx %s is given", report.FuncName(given.Parent().Object().(*types.Func)))
	}
	return "add one with context.WithTimeout"
}

// dropped returns the ctx parameter the root o plainly drops, where o is the ctx of the RPC
// call rpc: the function that makes the root is declared (not a literal) with one
// context.Context parameter, named or _, which it never uses; the root's one use is as the
// ctx of rpc itself — not of a helper, which may start a goroutine with it or keep it, nor
// of a go or defer statement, a literal, a child or a result — outside any loop (a job's
// loop needs a deadline per call, not its caller's ctx), and not where a ctx may be done
// (mayBeDone). Anything else may need the fresh root, and only lacks a deadline. nil
// otherwise.
func dropped(o ctxorigin.Origin, rpc ssa.Instruction) *ssa.Parameter {
	if _, inPlace := rpc.(*ssa.Call); !inPlace || o.Call == nil {
		return nil // go rpc(…), defer rpc(…): the call outlives the function
	}
	refs := *o.Call.Referrers()
	if len(refs) != 1 || refs[0] != rpc || ctxorigin.Looped(rpc) || mayBeDone(o.Call) {
		return nil
	}
	fn := o.Call.Parent()
	if _, ok := fn.Object().(*types.Func); !ok {
		return nil
	}
	var given *ssa.Parameter
	for _, p := range fn.Params {
		if typesutil.IsContext(p.Type()) {
			if given != nil {
				return nil // which one the work is for is not known
			}
			given = p
		}
	}
	if given == nil || len(*given.Referrers()) > 0 {
		return nil
	}
	return given
}

// mayBeDone reports whether the root call is made where a ctx the function is given may be
// done: once some ctx is (ctxorigin.AfterDone), or in cleanup after a failure (OnFailure). A
// fresh ctx is the idiom there — a rollback, a deregistration — and what it lacks is a deadline
// of its own.
func mayBeDone(root *ssa.Call) bool {
	return ctxorigin.AfterDone(root) || ctxorigin.OnFailure(root)
}

// useGiven offers, for d whose root o plainly drops the ctx parameter p (dropped), to replace
// the root with p: when p is named and its name denotes it there, the root is not assigned to
// it (ctx = context.Background() would become ctx = ctx), and the file's import of package
// context stays used (reqctx.ImportStays).
func (c *checker) useGiven(d *analysis.Diagnostic, o ctxorigin.Origin, p *ssa.Parameter) {
	pos, end := c.res.CallRange(o.Call)
	file := report.FileOf(c.pass, pos)
	if !end.IsValid() || file == nil || !reqctx.Visible(c.pass, p, pos) || assignsTo(file, pos, end, p) ||
		!reqctx.ImportStays(c.pass, file, pos, end) {
		return
	}
	d.SuggestedFixes = []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("Replace %s with %s", rootName(o), p.Name()),
		TextEdits: []analysis.TextEdit{{Pos: pos, End: end, NewText: []byte(p.Name())}},
	}}
}

// assignsTo reports whether the expression at [pos, end) of file is the right-hand side of an
// assignment to a variable named as parameter p.
func assignsTo(file *ast.File, pos, end token.Pos, p *ssa.Parameter) bool {
	path, _ := astutil.PathEnclosingInterval(file, pos, end)
	if len(path) < 2 {
		return false
	}
	as, ok := path[1].(*ast.AssignStmt)
	if !ok {
		return false
	}
	for _, l := range as.Lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name == p.Name() {
			return true
		}
	}
	return false
}

// hops returns the related positions of the calls from site s down to the RPC: each call in
// this package, then the declaration of the first function of another package.
func (c *checker) hops(s *site) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	for len(out) < maxRelated && s != nil {
		switch {
		case s.local != nil || s.impls != nil:
			local := c.localOf(s)
			if local == nil {
				return out
			}
			n := c.needs[local]
			pos, _ := c.res.CallRange(n.via.instr)
			out = append(out, analysis.RelatedInformation{Pos: pos, Message: c.hopMessage(n.via)})
			s = n.via
		case s.fact != nil && s.callee.Pos().IsValid():
			out = append(out, analysis.RelatedInformation{
				Pos:     report.DeclPos(c.pass.Fset, s.callee),
				Message: fmt.Sprintf("%s passes its ctx on to %s%s", report.FuncName(s.callee), s.fact.Path, at(s.fact)),
			})
			return out
		default:
			return out
		}
	}
	return out
}

// at says where the client call of a fact's path is (" at client.go:64"), when the fact knows.
func at(f *needsDeadline) string {
	if f.At == "" {
		return ""
	}
	return " at " + f.At
}

// hopMessage describes the call s as one step of a path.
func (c *checker) hopMessage(s *site) string {
	caller := funcName(s.fn)
	switch {
	case s.rpc != nil:
		return fmt.Sprintf("%s calls RPC %s with it here", caller, s.rpc.name)
	case s.local != nil || s.impls != nil:
		if local := c.localOf(s); local != nil {
			return fmt.Sprintf("%s passes it to %s here", caller, funcName(local))
		}
	}
	return fmt.Sprintf("%s passes it to %s here", caller, report.FuncName(s.callee))
}

// rootName names the call an origin starts at: "context.Background()", or for one in
// another package "context.Background() at ctxutil.go:12".
func rootName(o ctxorigin.Origin) string {
	if o.Call == nil && o.Desc != "" {
		return o.Desc
	}
	if o.Call == nil {
		return "a context with no deadline"
	}
	fn := ctxorigin.Callee(o.Call.Common())
	if fn == nil {
		return "a context with no deadline"
	}
	return "context." + fn.Name() + "()"
}
