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
	var msg string
	if via == "" {
		kind := ""
		if s.rpc.stream {
			kind = "streaming "
		}
		msg = fmt.Sprintf("%sRPC %s has no deadline (ctx from %s); %s", kind, rpc, root, fixOf(o, ""))
	} else {
		// The calls between head and the RPC are related positions (hops).
		head, _, _ := strings.Cut(via, arrow)
		msg = fmt.Sprintf("%s calls RPC %s with no deadline (ctx from %s); %s", head, rpc, root, fixOf(o, ""))
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
	c.useGiven(&d, o)
	return d
}

// fixOf says what to do about the root o, made at where ("" or "here"): use the ctx the
// function that makes it is given and drops (givenCtx), which its callers can bound; else give
// the ctx a deadline.
func fixOf(o ctxorigin.Origin, where string) string {
	if obj, _ := givenCtx(o); obj != nil {
		return fmt.Sprintf("use the ctx %s is given", report.FuncName(obj))
	}
	if where != "" {
		return "add one " + where + " with context.WithTimeout"
	}
	return "add one with context.WithTimeout"
}

// givenCtx returns the function that makes the root o and the ctx parameter it drops, when
// the root is plainly that ctx dropped: the function is declared (not a literal) with one
// context.Context parameter, named or _, which it never uses; the root only goes, as it is,
// into calls that run in place (not a go or defer statement, not a literal, not a child of
// it, not a result); and it is not made where a ctx may be done (mayBeDone). Anything else —
// work started to outlive the function, a ctx the function checks, cancels or replaces, a
// rollback — may need the fresh root, and only lacks a deadline. nil otherwise.
func givenCtx(o ctxorigin.Origin) (*types.Func, *ssa.Parameter) {
	if o.Call == nil || !onlyRunWith(o.Call) || mayBeDone(o.Call) {
		return nil, nil
	}
	fn := o.Call.Parent()
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return nil, nil
	}
	var given *ssa.Parameter
	for _, p := range fn.Params {
		if typesutil.IsContext(p.Type()) {
			if given != nil {
				return nil, nil // which one the work is for is not known
			}
			given = p
		}
	}
	if given == nil || len(*given.Referrers()) > 0 {
		return nil, nil
	}
	return obj, given
}

// onlyRunWith reports whether the root is used only as an argument of calls made in place, none
// of a function of package context (a child: its cancel may be the work's own lifetime).
func onlyRunWith(root *ssa.Call) bool {
	refs := *root.Referrers()
	if len(refs) == 0 {
		return false
	}
	for _, ref := range refs {
		call, ok := ref.(*ssa.Call)
		if !ok {
			return false
		}
		if fn := ctxorigin.Callee(call.Common()); fn == nil || fn.Pkg() == nil || typesutil.IsContextPath(fn.Pkg().Path()) {
			return false
		}
	}
	return true
}

// mayBeDone reports whether the root call is made where a ctx the function is given may be
// done: once some ctx is (ctxorigin.AfterDone), or in cleanup after a failure (OnFailure). A
// fresh ctx is the idiom there — a rollback, a deregistration — and what it lacks is a deadline
// of its own.
func mayBeDone(root *ssa.Call) bool {
	return ctxorigin.AfterDone(root) || ctxorigin.OnFailure(root)
}

// useGiven offers, for d whose root o is the dropped ctx of the function that makes it
// (givenCtx), to replace the root with that ctx: when the root is spelled pkg.Background() or
// pkg.TODO(), the parameter is named and its name denotes it there, and the file uses the
// package's name elsewhere too (its import stays used).
func (c *checker) useGiven(d *analysis.Diagnostic, o ctxorigin.Origin) {
	_, p := givenCtx(o)
	if p == nil {
		return
	}
	pos, end := c.res.CallRange(o.Call)
	if !end.IsValid() || !reqctx.Visible(c.pass, p, pos) || !c.importKept(pos, end, p) {
		return
	}
	d.SuggestedFixes = []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("Replace %s with %s", rootName(o), p.Name()),
		TextEdits: []analysis.TextEdit{{Pos: pos, End: end, NewText: []byte(p.Name())}},
	}}
}

// importKept reports whether the call expression at [pos, end) is pkg.F() with pkg an imported
// package's name that the file uses somewhere else too, and is not assigned to the parameter p
// (ctx = context.Background() would become ctx = ctx).
func (c *checker) importKept(pos, end token.Pos, p *ssa.Parameter) bool {
	for _, f := range c.pass.Files {
		if f.FileStart > pos || pos > f.FileEnd {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(f, pos, end)
		if len(path) == 0 {
			return false
		}
		call, ok := path[0].(*ast.CallExpr)
		if !ok || call.Pos() != pos || call.End() != end || assignsTo(path, p) {
			return false
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return false
		}
		pkg, ok := c.pass.TypesInfo.Uses[id].(*types.PkgName)
		if !ok {
			return false
		}
		other := false
		ast.Inspect(f, func(n ast.Node) bool {
			if x, ok := n.(*ast.Ident); ok && x != id && c.pass.TypesInfo.Uses[x] == pkg {
				other = true
			}
			return !other
		})
		return other
	}
	return false
}

// assignsTo reports whether the expression path[0] is the right-hand side of an assignment to
// the variable of parameter p.
func assignsTo(path []ast.Node, p *ssa.Parameter) bool {
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
				Message: fmt.Sprintf("%s passes its ctx on to %s", report.FuncName(s.callee), s.fact.Path),
			})
			return out
		default:
			return out
		}
	}
	return out
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
