package deadlinemath

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/ctxssa"
	"github.com/deadlinelint/deadlinelint/internal/report"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// checkDeadlines reports the times of Deadline() calls used, on a path where their ok result
// was not checked, in arithmetic or to set a deadline.
func checkDeadlines(res *ctxssa.Result, rep *report.Reporter) {
	info := res.SSA()
	for _, fn := range info.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || !isDeadline(ctxorigin.Callee(call.Common())) {
					continue
				}
				d := deadline{call: call}
				if !d.split() {
					continue
				}
				if sink := d.unchecked(d.time, 0, map[ssa.Value]bool{}); sink != nil {
					rep.Report(d.diagnostic(res, sink))
				}
			}
		}
	}
}

// isDeadline reports whether fn is a method Deadline() (time.Time, bool): context.Context's,
// testing.T's, or any other with its contract.
func isDeadline(fn *types.Func) bool {
	if fn == nil || fn.Name() != "Deadline" {
		return false
	}
	sig := fn.Signature()
	return sig.Recv() != nil && sig.Params().Len() == 0 && sig.Results().Len() == 2 &&
		typesutil.IsNamed(sig.Results().At(0).Type(), "time", "Time") &&
		types.Identical(sig.Results().At(1).Type(), types.Typ[types.Bool])
}

// deadline is one Deadline() call, its time and its ok.
type deadline struct {
	call *ssa.Call
	time ssa.Value // nil if the time is not used
	ok   ssa.Value // nil if ok is ignored
	// checked are the blocks that run only when ok is true: the successors an If on ok takes
	// when it holds, when that If is their one way in.
	checked []*ssa.BasicBlock
	// edges are the edges taken when ok holds: from an If on ok to its successor for true.
	edges []edge
}

// edge is a control-flow edge.
type edge struct{ from, to *ssa.BasicBlock }

// split finds the call's time and ok, and the blocks where ok holds. It reports false when the
// analysis cannot tell: ok or the time is used in a way it does not follow (stored, passed on,
// returned), or the time's IsZero is asked (a check of its own).
func (d *deadline) split() bool {
	for _, ref := range *d.call.Referrers() {
		ext, ok := ref.(*ssa.Extract)
		if !ok {
			return false // the tuple itself handed on
		}
		switch ext.Index {
		case 0:
			d.time = ext
		case 1:
			d.ok = ext
		}
	}
	if d.time == nil {
		return false
	}
	for _, ref := range *d.time.Referrers() {
		if call, ok := ref.(*ssa.Call); ok {
			if fn := ctxorigin.Callee(call.Common()); fn != nil && (typesutil.IsMethod(fn, "time", "Time", "IsZero") || typesutil.IsMethod(fn, "time", "Time", "Equal")) {
				return false
			}
		}
		if bin, ok := ref.(*ssa.BinOp); ok && (bin.Op == token.EQL || bin.Op == token.NEQ) {
			return false // compared with a time: a check of its own
		}
	}
	if d.ok == nil {
		return true
	}
	for _, ref := range *d.ok.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.If:
			d.taken(ref.Block(), ref.Block().Succs[0])
		case *ssa.UnOp:
			if ref.Op != token.NOT || !d.negatedIf(ref) {
				return false
			}
		default:
			return false // ok stored, returned, combined: not followed
		}
	}
	return true
}

// negatedIf records the blocks where ok holds for !ok used as If conditions only.
func (d *deadline) negatedIf(not *ssa.UnOp) bool {
	for _, ref := range *not.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.If:
			d.taken(ref.Block(), ref.Block().Succs[1])
		default:
			return false
		}
	}
	return true
}

// taken records that the edge from an If's block to succ is taken when ok holds; when that If
// is succ's one way in, ok holds in succ and in every block succ dominates.
func (d *deadline) taken(from, succ *ssa.BasicBlock) {
	d.edges = append(d.edges, edge{from, succ})
	if len(succ.Preds) == 1 && succ.Preds[0] == from {
		d.checked = append(d.checked, succ)
	}
}

// edgeHolds reports whether ok is known to be true on the way from a block to its successor
// to (a phi's edge).
func (d *deadline) edgeHolds(from, to *ssa.BasicBlock) bool {
	if d.holds(from) {
		return true
	}
	for _, e := range d.edges {
		if e.from == from && e.to == to {
			return true
		}
	}
	return false
}

// holds reports whether ok is known to be true in block b.
func (d *deadline) holds(b *ssa.BasicBlock) bool {
	for _, c := range d.checked {
		if c.Dominates(b) {
			return true
		}
	}
	return false
}

// A sink is where an unchecked time does harm.
type sink struct {
	instr ssa.CallInstruction
	kind  sinkKind
}

type sinkKind int

const (
	arithmetic   sinkKind = iota // time.Until, Sub: about -292 years
	comparison                   // Before, After, Compare: before every time
	derivedCtx                   // WithDeadline: expired at once
	connDeadline                 // SetDeadline: no deadline at all
)

// unchecked returns the first sink that v, the call's time or a value computed from it, reaches
// on a path where ok was not checked: directly, through phis on their unchecked edges, or as
// the result of arithmetic on it used unchecked in turn.
func (d *deadline) unchecked(v ssa.Value, depth int, seen map[ssa.Value]bool) *sink {
	if seen[v] || depth > 4 {
		return nil
	}
	seen[v] = true
	for _, ref := range *v.Referrers() {
		if phi, ok := ref.(*ssa.Phi); ok {
			for i, e := range phi.Edges {
				if e == v && !d.edgeHolds(phi.Block().Preds[i], phi.Block()) {
					if s := d.unchecked(phi, depth, seen); s != nil {
						return s
					}
				}
			}
			continue
		}
		if d.holds(ref.Block()) {
			continue
		}
		call, ok := ref.(ssa.CallInstruction)
		if !ok {
			continue
		}
		kind, ok := sinkOf(call, v)
		if !ok {
			continue
		}
		switch kind {
		case derivedCtx, connDeadline:
			return &sink{instr: call, kind: kind}
		default:
			// A duration or a comparison: harm only where it is used before ok is checked.
			if res, ok := call.(*ssa.Call); ok && d.usedUnchecked(res, depth+1, seen) {
				return &sink{instr: call, kind: kind}
			}
		}
	}
	return nil
}

// usedUnchecked reports whether the result v of arithmetic on the time is used on a path where
// ok was not checked: by anything but a phi edge from a checked block (a default put in its
// place when there is no deadline), directly or through further arithmetic.
func (d *deadline) usedUnchecked(v ssa.Value, depth int, seen map[ssa.Value]bool) bool {
	if seen[v] || depth > 6 {
		return false
	}
	seen[v] = true
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Phi:
			for i, e := range ref.Edges {
				if e == v && !d.edgeHolds(ref.Block().Preds[i], ref.Block()) && d.usedUnchecked(ref, depth+1, seen) {
					return true
				}
			}
		case *ssa.BinOp, *ssa.Convert, *ssa.ChangeType, *ssa.UnOp:
			// More arithmetic (a share, a conversion, a negation): harm only where its result
			// is used unchecked in turn. A comparison's result decides a branch: a use.
			if !d.holds(ref.Block()) && d.usedUnchecked(ref.(ssa.Value), depth+1, seen) {
				return true
			}
		default:
			if !d.holds(ref.Block()) {
				return true
			}
		}
	}
	return false
}

// sinkOf classifies call, which uses the time v.
func sinkOf(call ssa.CallInstruction, v ssa.Value) (sinkKind, bool) {
	common := call.Common()
	fn := ctxorigin.Callee(common)
	if fn == nil {
		return 0, false
	}
	switch {
	case typesutil.IsFunc(fn, "time", "Until"), typesutil.IsFunc(fn, "time", "Since"):
		return arithmetic, true
	case typesutil.IsMethod(fn, "time", "Time", "Sub"):
		return arithmetic, true
	case typesutil.IsMethod(fn, "time", "Time", "Before"), typesutil.IsMethod(fn, "time", "Time", "After"), typesutil.IsMethod(fn, "time", "Time", "Compare"):
		return comparison, true
	case typesutil.IsFunc(fn, typesutil.ContextPath, "WithDeadline"), typesutil.IsFunc(fn, typesutil.ContextPath, "WithDeadlineCause"):
		if len(common.Args) > 1 && common.Args[1] == v {
			return derivedCtx, true
		}
	case isSetDeadline(fn):
		return connDeadline, true
	}
	return 0, false
}

// diagnostic is the finding for the time of d reaching s.
func (d *deadline) diagnostic(res *ctxssa.Result, s *sink) analysis.Diagnostic {
	what := "ctx.Deadline()"
	if recv := d.call.Common(); !recv.IsInvoke() || !typesutil.IsContext(recv.Value.Type()) {
		what = typesutil.FuncName(ctxorigin.Callee(recv)) + "()"
	}
	fn := typesutil.FuncName(ctxorigin.Callee(s.instr.Common()))
	var harm string
	switch s.kind {
	case arithmetic:
		harm = "so " + fn + " gives about -292 years"
	case comparison:
		harm = "before every other time, so " + fn + " is decided in advance"
	case derivedCtx:
		harm = "so the ctx " + fn + " makes has expired before it starts"
	case connDeadline:
		harm = "which " + fn + " takes as no deadline at all"
	}
	pos, end := s.instr.Pos(), token.NoPos
	if call := res.CallExpr(pos); call != nil {
		pos, end = call.Pos(), call.End()
	}
	read := d.call.Pos()
	if call := res.CallExpr(read); call != nil {
		read = call.Pos()
	}
	return analysis.Diagnostic{
		Pos: pos, End: end,
		Message: "the time from " + what + " is used without checking its ok: with no deadline it is the zero time, " +
			harm + "; check ok first",
		Related: []analysis.RelatedInformation{{Pos: read, Message: "the deadline is read here"}},
	}
}
