package streamloop

import (
	_ "embed"
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/ctxssa"
	"github.com/deadlinelint/deadlinelint/internal/report"
	"github.com/deadlinelint/deadlinelint/internal/ruledoc"
	"github.com/deadlinelint/deadlinelint/internal/scope"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
	"github.com/deadlinelint/deadlinelint/internal/valueflow"
)

const name = "streamloop"

//go:embed doc.go
var doc string

// Analyzer reports loops in streaming handlers that nothing stops when the client leaves.
var Analyzer = &analysis.Analyzer{
	Name:     name,
	Doc:      ruledoc.MustExtract(doc, name),
	URL:      ruledoc.URL(name),
	Requires: []*analysis.Analyzer{ctxssa.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[ctxssa.Analyzer].(*ctxssa.Result)
	rep := report.New(pass, res, name)
	defer rep.Finish()
	if res.External || !res.MayHaveScopes() {
		return nil, nil
	}
	info := res.SSA()
	for _, fn := range info.Funcs {
		sc := info.Scopes.Of(fn)
		if sc == nil || !streaming(sc.Handler()) || len(fn.Blocks) == 0 {
			continue
		}
		c := &checker{res: res, info: info, sc: sc}
		for _, l := range loops(fn) {
			if d, ok := c.check(l); ok {
				rep.Report(d)
			}
		}
	}
	return nil, nil
}

// streaming reports whether the handler scope h serves a stream: a grpc-go streaming handler,
// or a connect-go handler with a stream parameter.
func streaming(h *scope.Scope) bool {
	switch h.Kind {
	case scope.Streaming:
		return true
	case scope.Connect:
		sig := h.Func.Signature
		for i := 0; i < sig.Params().Len(); i++ {
			t := sig.Params().At(i).Type()
			for _, n := range []string{"ServerStream", "ClientStream", "BidiStream"} {
				if typesutil.IsPointerToNamed(t, typesutil.ConnectPath, n) {
					return true
				}
			}
		}
	}
	return false
}

type checker struct {
	res  *ctxssa.Result
	info *ctxssa.Info
	sc   *scope.Scope
}

// check returns the finding for loop l, if it can run or wait forever after the request's ctx
// is done.
func (c *checker) check(l *loop) (analysis.Diagnostic, bool) {
	if c.observes(l) || c.endsOnItsOwn(l) || drains(l) {
		return analysis.Diagnostic{}, false
	}
	at, what := c.blockingPoint(l)
	if at == token.NoPos {
		return analysis.Diagnostic{}, false
	}
	ctxName := c.ctxName()
	advice := fmt.Sprintf("select on %s.Done() too", ctxName)
	if what == "" {
		what = "sends and drops the error of each send"
		advice = fmt.Sprintf("return on the send's error, or check %s.Err()", ctxName)
	}
	return analysis.Diagnostic{
		Pos: at,
		Message: fmt.Sprintf("loop in streaming handler %s %s, and nothing in it stops when the client leaves; %s",
			c.sc.Name(), what, advice),
	}, true
}

// ctxName spells the request's ctx for messages: "stream.Context()", or the ctx parameter.
func (c *checker) ctxName() string {
	h := c.sc.Handler()
	switch {
	case h.Stream != nil && h.Stream.Name() != "_":
		return h.Stream.Name() + ".Context()"
	case h.Ctx != nil && h.Ctx.Name() != "_":
		return h.Ctx.Name()
	}
	return "the request's ctx"
}

// observes reports whether something in the loop notices cancellation: a receive or select
// case on a ctx's Done(), a ctx's Err(), or the error of a stream operation or of a call given
// the request's ctx looked at.
func (c *checker) observes(l *loop) bool {
	for _, b := range l.blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.UnOp:
				if instr.Op == token.ARROW && isDone(instr.X) {
					return true
				}
			case *ssa.Select:
				for k, st := range instr.States {
					if st.Dir != types.RecvOnly {
						continue
					}
					// A case on a ctx's Done(), or one that leaves the loop on a channel the
					// handler's own work reports its end to: the loop waits for that work and
					// ends with it, as a wait on a channel made in the handler is trusted to end
					// with the request.
					if isDone(st.Chan) || leaves(instr, k, l) && ownWork(st.Chan, l.header.Parent()) {
						return true
					}
				}
			case ssa.CallInstruction:
				common := instr.Common()
				if ctxorigin.AsksErr(common) != nil {
					return true
				}
				call, ok := instr.(*ssa.Call)
				if ok && (isStreamOp(ctxorigin.Callee(common)) || c.givenRequestCtx(common)) && errorUsed(call) {
					return true
				}
			}
		}
	}
	return false
}

// leaves reports whether case k of the select sel, in loop l, leaves the loop: the block that
// branches to the case (go/ssa's `if index == k`, which for the last case lies outside the
// loop when no case goes on with it) takes it out of the loop.
func leaves(sel *ssa.Select, k int, l *loop) bool {
	for _, b := range sel.Parent().Blocks {
		if s, i, succ := ctxorigin.SelectCase(b); s == sel && i == k {
			return !l.in[succ]
		}
	}
	return false
}

// ownWork reports whether the channel ch, waited on by a loop of loopFn, is where the
// handler's own work reports its end: made by make in a function (held in a local, maybe the
// cell a literal captures it by, and seen by loopFn as that value or as a free variable bound
// to it), and sent on or closed by a function literal that function runs on a go statement
// (go func() { done <- follow(ctx) }()), or — for a loop in a goroutine the function starts —
// by a call it defers (defer close(done)): the loop then ends when the function returns, with
// the request. A channel made here that only others signal (one registered with the server
// for its shutdown) says nothing of the request's work.
func ownWork(ch ssa.Value, loopFn *ssa.Function) bool {
	made := madeChan(ch, 0)
	if made == nil {
		return false
	}
	maker := made.Parent()
	deferredCounts := loopFn != maker && startedWithin(loopFn, maker)
	refs := *made.Referrers()
	if _, isCell := made.(*ssa.Alloc); isCell {
		for _, ref := range *made.Referrers() {
			if u, ok := ref.(*ssa.UnOp); ok && u.Op == token.MUL {
				refs = append(refs, *u.Referrers()...)
			}
		}
	}
	for _, ref := range refs {
		switch ref := ref.(type) {
		case *ssa.MakeClosure:
			fn, ok := ref.Fn.(*ssa.Function)
			if !ok || !ctxorigin.Started(fn) && !(deferredCounts && ctxorigin.Deferred(fn)) {
				continue
			}
			for _, fv := range valueflow.BoundTo(ref, made) {
				if reportsOn(fv) {
					return true
				}
			}
		case *ssa.Defer:
			if deferredCounts && closes(ref.Common(), made) {
				return true
			}
		}
	}
	return false
}

// madeChan returns what the channel ch is made as — the make itself, or the local cell only
// makes are stored to — following free variables to the values their literals are bound to;
// or nil.
func madeChan(ch ssa.Value, depth int) ssa.Value {
	if depth > 8 {
		return nil
	}
	switch v := ch.(type) {
	case *ssa.MakeChan:
		return v
	case *ssa.FreeVar:
		bs := valueflow.Bindings(v)
		if len(bs) != 1 {
			return nil
		}
		return madeChan(bs[0], depth+1)
	case *ssa.Alloc: // a cell, captured by a literal or with its address taken
		stored := valueflow.LocalStores(v)
		for _, x := range stored {
			if _, isMake := x.(*ssa.MakeChan); !isMake {
				return nil
			}
		}
		if len(stored) == 0 {
			return nil
		}
		return v
	case *ssa.UnOp: // a load of such a cell
		if v.Op != token.MUL {
			return nil
		}
		if cell, ok := madeChan(v.X, depth+1).(*ssa.Alloc); ok {
			return cell
		}
	}
	return nil
}

// startedWithin reports whether fn is a function literal a go statement starts, or nested in
// one, inside maker: it runs beside maker, not before maker returns.
func startedWithin(fn, maker *ssa.Function) bool {
	for ; fn != nil && fn != maker; fn = fn.Parent() {
		if ctxorigin.Started(fn) {
			return true
		}
	}
	return false
}

// closes reports whether common is close(ch) of the channel made as made (the make, or a load
// of its cell).
func closes(common *ssa.CallCommon, made ssa.Value) bool {
	b, ok := common.Value.(*ssa.Builtin)
	if !ok || b.Name() != "close" || len(common.Args) != 1 {
		return false
	}
	arg := common.Args[0]
	if u, ok := arg.(*ssa.UnOp); ok && u.Op == token.MUL {
		arg = u.X
	}
	return arg == made
}

// reportsOn reports whether a literal sends on, or closes, the channel its free variable fv
// holds, or holds the cell of.
func reportsOn(fv *ssa.FreeVar) bool {
	vals := []ssa.Value{fv}
	for _, ref := range *fv.Referrers() {
		if u, ok := ref.(*ssa.UnOp); ok && u.Op == token.MUL {
			vals = append(vals, u)
		}
	}
	for _, v := range vals {
		for _, ref := range *v.Referrers() {
			switch r := ref.(type) {
			case *ssa.Send:
				if r.Chan == v {
					return true
				}
			case *ssa.Call:
				if b, ok := r.Call.Value.(*ssa.Builtin); ok && b.Name() == "close" && len(r.Call.Args) == 1 && r.Call.Args[0] == v {
					return true
				}
			}
		}
	}
	return false
}

// drains reports whether the loop is a goroutine's drain: the body of a function literal a go
// statement runs, doing nothing but receive from one channel until it is closed (go func() {
// for range ch {} }()), left behind so that the channel's senders do not block. What it
// receives it drops: it does no work for the client or anyone else, and a cancellation it
// noticed would stop nothing (a channel never closed leaks the goroutine, which is not a lost
// deadline). A drain in the handler's own body keeps the handler from returning: reported.
func drains(l *loop) bool {
	if fn := l.header.Parent(); fn.Parent() == nil || !ctxorigin.Started(fn) {
		return false
	}
	recvs := 0
	for _, b := range l.blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.UnOp:
				if instr.Op != token.ARROW || !instr.CommaOk {
					return false
				}
				recvs++
			case *ssa.Extract:
				if instr.Index == 0 && used(instr) {
					return false // the value received is kept or used
				}
			case *ssa.If, *ssa.Jump, *ssa.DebugRef:
			default:
				return false
			}
		}
	}
	return recvs == 1
}

// isDone reports whether ch is the Done() channel of a ctx.
func isDone(ch ssa.Value) bool {
	call, ok := ch.(*ssa.Call)
	if !ok {
		return false
	}
	common := call.Common()
	if common.IsInvoke() {
		return common.Method.Name() == "Done" && typesutil.IsContext(common.Value.Type())
	}
	fn := ctxorigin.Callee(common)
	return fn != nil && fn.Name() == "Done" && fn.Signature().Recv() != nil && len(common.Args) == 1 && typesutil.IsContext(common.Args[0].Type())
}

// isStreamOp reports whether fn sends or receives on a gRPC or connect stream: Send, SendMsg,
// Recv, RecvMsg, Receive.
func isStreamOp(fn *types.Func) bool {
	if fn == nil || fn.Signature().Recv() == nil {
		return false
	}
	switch fn.Name() {
	case "Send", "SendMsg", "Recv", "RecvMsg", "Receive":
	default:
		return false
	}
	pkg := fn.Pkg()
	if pkg == nil {
		return false
	}
	if pkg.Path() == typesutil.GRPCPath || pkg.Path() == typesutil.ConnectPath {
		return true
	}
	// A method of a generated stream type (Catalog_ChatServer's Send): it takes or returns a
	// message and an error, and the receiver embeds grpc.ServerStream or ClientStream.
	recv := fn.Signature().Recv().Type()
	for _, s := range []string{"ServerStream", "ClientStream"} {
		if iface, ok := lookupIface(typesutil.GRPCPath, s, fn); ok && types.Implements(recv, iface) {
			return true
		}
	}
	return false
}

// lookupIface finds the interface pkgPath.name among the imports of fn's package.
func lookupIface(pkgPath, name string, fn *types.Func) (*types.Interface, bool) {
	for _, imp := range fn.Pkg().Imports() {
		if imp.Path() != pkgPath {
			continue
		}
		if obj := imp.Scope().Lookup(name); obj != nil {
			iface, ok := obj.Type().Underlying().(*types.Interface)
			return iface, ok
		}
	}
	return nil, false
}

// givenRequestCtx reports whether the call is given the request's ctx, or one derived from it.
func (c *checker) givenRequestCtx(common *ssa.CallCommon) bool {
	for _, a := range common.Args {
		if typesutil.IsContext(a.Type()) && c.info.FromRequest(a) {
			return true
		}
	}
	return false
}

// errorUsed reports whether the error result of call is looked at.
func errorUsed(call *ssa.Call) bool {
	switch t := call.Type().(type) {
	case *types.Tuple:
		last := t.Len() - 1
		if last < 0 || !typesutil.IsError(t.At(last).Type()) {
			return false
		}
		for _, ref := range *call.Referrers() {
			if ext, ok := ref.(*ssa.Extract); ok && ext.Index == last && used(ext) {
				return true
			}
		}
		return false
	default:
		return typesutil.IsError(t) && used(call)
	}
}

func used(v ssa.Value) bool {
	for _, ref := range *v.Referrers() {
		if _, debug := ref.(*ssa.DebugRef); !debug {
			return true
		}
	}
	return false
}

// blockingPoint returns where the loop waits on a channel that outlives the request, and
// how ("receives from s.events"), or where it sends on the stream dropping the error (what
// ""), or token.NoPos.
func (c *checker) blockingPoint(l *loop) (token.Pos, string) {
	var send token.Pos
	for _, b := range l.blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.UnOp:
				if instr.Op == token.ARROW && c.outlives(instr.X, 0) {
					return c.pos(instr, l), "waits on a channel that outlives the request"
				}
			case *ssa.Select:
				if !instr.Blocking {
					continue
				}
				for _, st := range instr.States {
					if st.Dir == types.RecvOnly && c.outlives(st.Chan, 0) {
						return c.pos(instr, l), "waits in a select on channels that outlive the request"
					}
				}
			case *ssa.Call:
				if send == token.NoPos && isSend(ctxorigin.Callee(instr.Common())) && !errorUsed(instr) {
					send = c.pos(instr, l)
				}
			}
		}
	}
	if send != token.NoPos {
		return send, ""
	}
	return token.NoPos, ""
}

// isSend reports whether fn sends on a stream.
func isSend(fn *types.Func) bool {
	return isStreamOp(fn) && (fn.Name() == "Send" || fn.Name() == "SendMsg")
}

// pos returns a position for instr that a user can open: its own, or the loop's.
func (c *checker) pos(instr ssa.Instruction, l *loop) token.Pos {
	if p := instr.Pos(); p.IsValid() {
		if _, ok := instr.(*ssa.Call); ok {
			if ce := c.res.CallExpr(p); ce != nil {
				return ce.Pos()
			}
		}
		return p
	}
	for _, b := range l.blocks {
		for _, in := range b.Instrs {
			if p := in.Pos(); p.IsValid() {
				return p
			}
		}
	}
	return token.NoPos
}

// outlives reports whether the channel ch outlives the request: a field of a long-lived value,
// a package variable, or a channel returned by a call not given the request's ctx (nor
// obtained from a value such a call returned). Through a variable literals capture, ch is the
// variable's cell (an Alloc, or the FreeVar bound to one): what is stored there must outlive. A channel made in the function, a parameter, a
// free variable or anything else the analysis cannot follow does not.
func (c *checker) outlives(ch ssa.Value, depth int) bool {
	if depth > 6 {
		return false
	}
	switch v := ch.(type) {
	case *ssa.ChangeType:
		return c.outlives(v.X, depth+1)
	case *ssa.FreeVar: // captured by a goroutine's literal: what it is bound to
		bound := valueflow.Bindings(v)
		for _, b := range bound {
			if !c.outlives(b, depth+1) {
				return false
			}
		}
		return len(bound) > 0
	case *ssa.Alloc: // a variable literals capture by reference: what is stored to it
		stored := valueflow.LocalStores(v)
		for _, x := range stored {
			if !c.outlives(x, depth+1) {
				return false
			}
		}
		return len(stored) > 0
	case *ssa.Phi:
		for _, e := range v.Edges {
			if !c.outlives(e, depth+1) {
				return false
			}
		}
		return len(v.Edges) > 0
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return false
		}
		switch addr := v.X.(type) {
		case *ssa.Global:
			return true
		case *ssa.FieldAddr:
			return c.longLived(addr.X, depth+1)
		case *ssa.FreeVar, *ssa.Alloc: // a variable a literal captures by reference: its cell
			return c.outlives(addr, depth+1)
		}
	case *ssa.Field:
		return c.longLived(v.X, depth+1)
	case *ssa.Call:
		return c.unboundCall(v.Common(), depth)
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok {
			return c.unboundCall(call.Common(), depth)
		}
	}
	return false
}

// longLived reports whether x, the value holding a channel field, lives past the request: the
// handler's receiver (the server), a package variable, or a value returned by a call not given
// the request's ctx.
func (c *checker) longLived(x ssa.Value, depth int) bool {
	if depth > 6 {
		return false
	}
	switch v := x.(type) {
	case *ssa.Parameter:
		return c.info.Scopes.IsServerReceiver(v)
	case *ssa.Global:
		return true
	case *ssa.FreeVar:
		return c.freeVarIsReceiver(v)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			switch addr := v.X.(type) {
			case *ssa.FieldAddr:
				return c.longLived(addr.X, depth+1)
			case *ssa.Global:
				return true
			case *ssa.FreeVar: // the receiver, captured by reference
				return c.freeVarIsReceiver(addr)
			case *ssa.Alloc: // the receiver, in the variable the literals that capture it share
				return c.isReceiver(addr)
			}
		}
	case *ssa.FieldAddr:
		return c.longLived(v.X, depth+1)
	case *ssa.Call:
		return c.unboundCall(v.Common(), depth)
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok {
			return c.unboundCall(call.Common(), depth)
		}
	}
	return false
}

// freeVarIsReceiver reports whether the free variable v of a closure is the handler's receiver.
func (c *checker) freeVarIsReceiver(v *ssa.FreeVar) bool {
	fn := v.Parent()
	for i, fv := range fn.FreeVars {
		if fv != v {
			continue
		}
		for _, ref := range *fn.Referrers() {
			if mc, ok := ref.(*ssa.MakeClosure); ok && i < len(mc.Bindings) && c.isReceiver(mc.Bindings[i]) {
				return true
			}
		}
	}
	return false
}

// isReceiver reports whether v, a closure's binding, is the handler's receiver: the parameter,
// or the cell holding it when the closure captures it by reference (a cell only ever given it).
func (c *checker) isReceiver(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Parameter:
		return c.info.Scopes.IsServerReceiver(v)
	case *ssa.Alloc:
		return ctxorigin.OnlyHolds(v, func(x ssa.Value) bool {
			p, ok := x.(*ssa.Parameter)
			return ok && c.info.Scopes.IsServerReceiver(p)
		})
	case *ssa.FreeVar:
		return c.freeVarIsReceiver(v)
	}
	return false
}

// unboundCall reports whether a call returns a channel, or a value holding one, that is not
// tied to the request: it is given no ctx of the request, and its receiver, if any, is not a
// value such a call returned. time.After and Tick channels fire on their own: bound to nothing.
func (c *checker) unboundCall(common *ssa.CallCommon, depth int) bool {
	if c.givenRequestCtx(common) {
		return false
	}
	fn := ctxorigin.Callee(common)
	if fn == nil {
		return false
	}
	if fn.Signature().Recv() != nil {
		var recv ssa.Value
		if common.IsInvoke() {
			recv = common.Value
		} else if len(common.Args) > 0 {
			recv = common.Args[0]
		}
		return recv != nil && c.longLived(recv, depth+1)
	}
	return fn.Pkg() != nil && (fn.Pkg().Path() == "time" || c.res.Owned(fn))
}
