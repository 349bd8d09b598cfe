package missingdeadline

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
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
// function that makes it is given, when it is a function declared with a context.Context
// parameter (named or _): that ctx, not a new budget, is what its callers can bound; else give
// the ctx a deadline. A function literal's own ctx parameter is not offered: a literal run as
// a goroutine or a callback may have a lifetime of its own.
func fixOf(o ctxorigin.Origin, where string) string {
	if obj, _ := givenCtx(o); obj != nil {
		return fmt.Sprintf("use the ctx %s is given", report.FuncName(obj))
	}
	if where != "" {
		return "add one " + where + " with context.WithTimeout"
	}
	return "add one with context.WithTimeout"
}

// givenCtx returns the function that makes the root o, when it is declared (not a literal)
// with a context.Context parameter, and that parameter; nil otherwise, and where the function's
// ctx may be done when the root is used (mayBeDone).
func givenCtx(o ctxorigin.Origin) (*types.Func, *ssa.Parameter) {
	if o.Call == nil || mayBeDone(o.Call) {
		return nil, nil
	}
	fn := o.Call.Parent()
	obj, ok := fn.Object().(*types.Func)
	i := typesutil.CtxParamIndex(fn.Signature)
	if !ok || i < 0 {
		return nil, nil
	}
	if fn.Signature.Recv() != nil {
		i++ // go/ssa's Params begin with the receiver
	}
	return obj, fn.Params[i]
}

// mayBeDone reports whether the root call is made where a ctx the function is given may be
// done: once some ctx is (ctxorigin.AfterDone), in cleanup after a failure (OnFailure), or as
// an argument of a deferred call, which runs as the function returns. A fresh ctx is the idiom
// there — a rollback, a deregistration — and what it lacks is a deadline of its own.
func mayBeDone(root *ssa.Call) bool {
	if ctxorigin.AfterDone(root) || ctxorigin.OnFailure(root) {
		return true
	}
	for _, ref := range *root.Referrers() {
		if _, ok := ref.(*ssa.Defer); ok {
			return true
		}
	}
	return false
}

// useGiven offers, for d whose root o is made by a function given a ctx (givenCtx), to
// replace the root with that ctx, when its name denotes it there.
func (c *checker) useGiven(d *analysis.Diagnostic, o ctxorigin.Origin) {
	_, p := givenCtx(o)
	if p == nil {
		return
	}
	pos, end := c.res.CallRange(o.Call)
	if !end.IsValid() || !reqctx.Visible(c.pass, p, pos) {
		return
	}
	d.SuggestedFixes = []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("Replace %s with %s", rootName(o), p.Name()),
		TextEdits: []analysis.TextEdit{{Pos: pos, End: end, NewText: []byte(p.Name())}},
	}}
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
