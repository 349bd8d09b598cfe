package statusmask

import (
	"bytes"
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/format"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/ctxssa"
	"github.com/deadlinelint/deadlinelint/internal/report"
	"github.com/deadlinelint/deadlinelint/internal/ruledoc"
	"github.com/deadlinelint/deadlinelint/internal/scope"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

const name = "statusmask"

//go:embed doc.go
var doc string

// Analyzer reports, in request scopes, a deadline or cancellation error turned into another
// status code.
var Analyzer = &analysis.Analyzer{
	Name:     name,
	Doc:      ruledoc.MustExtract(doc, name),
	URL:      ruledoc.URL(name),
	Requires: []*analysis.Analyzer{ctxssa.Analyzer},
	Run:      run,
}

const statusPath = typesutil.GRPCPath + "/status"

// The codes a translation may give: OK (no error), Canceled and DeadlineExceeded (the code kept).
const (
	codeOK               = 0
	codeCanceled         = 1
	codeDeadlineExceeded = 4
)

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[ctxssa.Analyzer].(*ctxssa.Result)
	rep := report.New(pass, res, name)
	defer rep.Finish()
	if res.External || !res.MayHaveScopes() ||
		!typesutil.Imports(pass.Pkg, statusPath) && !typesutil.Imports(pass.Pkg, typesutil.ConnectPath) {
		return nil, nil
	}
	info := res.SSA()
	c := &checker{pass: pass, res: res, info: info}
	helpers := make(map[*ssa.Function]map[*ssa.Parameter]handed) // helper.go
	var order []*ssa.Function
	for _, fn := range info.Funcs {
		sc := info.Scopes.Of(fn)
		if sc == nil {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				if d, ok := c.check(sc, call); ok {
					rep.Report(d)
				}
				helper, params := c.helperErrors(call, sc.Name())
				for p, h := range params {
					if helpers[helper] == nil {
						helpers[helper] = make(map[*ssa.Parameter]handed)
						order = append(order, helper)
					}
					if _, ok := helpers[helper][p]; !ok {
						helpers[helper][p] = h // the first scope's, in source order
					}
				}
			}
		}
	}
	for _, helper := range order {
		for _, d := range c.checkHelper(helper, helpers[helper]) {
			rep.Report(d)
		}
	}
	return nil, nil
}

type checker struct {
	pass *analysis.Pass
	res  *ctxssa.Result
	info *ctxssa.Info
}

// translation describes a call that makes a status: which argument is the code, and which
// carry the message or cause.
type translation struct {
	fn      *types.Func
	code    int64
	sources []ssa.Value // the message, the format's arguments, or the cause
}

// translationOf returns what call makes, if it makes a status with a constant code.
func translationOf(call *ssa.Call) (*translation, bool) {
	common := call.Common()
	fn := ctxorigin.Callee(common)
	if fn == nil || len(common.Args) < 2 {
		return nil, false
	}
	t := &translation{fn: fn}
	switch {
	case typesutil.IsFunc(fn, statusPath, "Error"), typesutil.IsFunc(fn, statusPath, "New"):
		t.sources = common.Args[1:2]
	case typesutil.IsFunc(fn, statusPath, "Errorf"), typesutil.IsFunc(fn, statusPath, "Newf"):
		if len(common.Args) < 3 {
			return nil, false
		}
		t.sources = common.Args[2:3]
	case typesutil.IsFunc(fn, typesutil.ConnectPath, "NewError"):
		t.sources = common.Args[1:2]
	default:
		return nil, false
	}
	k, ok := common.Args[0].(*ssa.Const)
	if !ok || k.Value == nil {
		return nil, false
	}
	code, exact := constantInt(k)
	if !exact || code == codeOK || code == codeCanceled || code == codeDeadlineExceeded {
		return nil, false
	}
	t.code = code
	return t, true
}

// check returns the finding for call, in scope sc, if it translates an error that may be the
// request's deadline or cancellation into another code — or the request ctx's own error,
// which is one, even where the function asks ctx.Err() on the way (asksCtxErr) to tell others
// apart.
func (c *checker) check(sc *scope.Scope, call *ssa.Call) (analysis.Diagnostic, bool) {
	t, ok := translationOf(call)
	if !ok {
		return analysis.Diagnostic{}, false
	}
	w := &walk{c: c, seen: make(map[ssa.Value]bool), at: call.Block()}
	for _, v := range t.sources {
		w.contents(v, 0)
	}
	pos, end := c.res.CallRange(call)
	if w.ctxErr != nil {
		keep := "status.FromContextError(ctx.Err()).Err()"
		if t.fn.Pkg().Path() == typesutil.ConnectPath {
			keep = "connect.CodeDeadlineExceeded or connect.CodeCanceled"
		}
		return analysis.Diagnostic{
			Pos: pos, End: end,
			Message: fmt.Sprintf("%s gives code %s to the request ctx's error, which is its deadline or cancellation; keep its code: %s",
				typesutil.FuncName(t.fn), codeName(t), keep),
		}, true
	}
	if w.told || w.origin == nil || asksCtxErr(call) {
		return analysis.Diagnostic{}, false
	}
	origin := w.origin
	originName := calleeName(origin.Common())
	originPos := origin.Pos()
	if ce := c.res.CallExpr(originPos); ce != nil {
		originPos = ce.Pos()
	}
	d := analysis.Diagnostic{
		Pos: pos, End: end,
		Message: fmt.Sprintf("%s gives code %s to the error of %s, which may be the request's deadline or cancellation; return the ctx's error first when ctx.Err() != nil",
			typesutil.FuncName(t.fn), codeName(t), originName),
		Related: []analysis.RelatedInformation{{Pos: originPos, Message: originName + " is called with the request's ctx here"}},
	}
	if fix, ok := c.fix(sc, call, t); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	return d, true
}

// calleeName names what a call calls: its function, or the field or variable holding the
// function value.
func calleeName(common *ssa.CallCommon) string {
	if fn := ctxorigin.Callee(common); fn != nil {
		return typesutil.FuncName(fn)
	}
	if load, ok := common.Value.(*ssa.UnOp); ok {
		if fa, ok := load.X.(*ssa.FieldAddr); ok {
			if f := typesutil.FieldVar(fa.X.Type(), fa.Field); f != nil {
				return "the function in field " + f.Name()
			}
		}
	}
	return "a function value"
}

// codeName spells the translation's code: "codes.Internal", "connect.CodeInternal".
func codeName(t *translation) string {
	names := map[int64]string{2: "Unknown", 3: "InvalidArgument", 5: "NotFound", 6: "AlreadyExists", 7: "PermissionDenied",
		8: "ResourceExhausted", 9: "FailedPrecondition", 10: "Aborted", 11: "OutOfRange", 12: "Unimplemented",
		13: "Internal", 14: "Unavailable", 15: "DataLoss", 16: "Unauthenticated"}
	n, ok := names[t.code]
	if !ok {
		return fmt.Sprint(t.code)
	}
	if t.fn.Pkg().Path() == typesutil.ConnectPath {
		return "connect.Code" + n
	}
	return "codes." + n
}

// walk follows what a message or cause is built from, down to the errors in it.
type walk struct {
	c      *checker
	at     *ssa.BasicBlock // the translation's block
	seen   map[ssa.Value]bool
	origin *ssa.Call // the first call, given the request's ctx, whose error is in the translation
	ctxErr *ssa.Call // a call of Err() on the request's ctx whose error is in the translation
	told   bool      // some error in it was told apart from a deadline

	skip     *ssa.Call      // a call of a helper the error is handed to, which is not asked (helper.go)
	param    *ssa.Parameter // in a helper, the error parameter followed (helper.go)
	paramHit bool           // the parameter, not told apart, is in the translation
	self     *ssa.Function  // the helper: its calls of itself (unwrapping, recursing) tell nothing
}

// contents follows v, a string, an error or a format's arguments, to the errors it is made of.
func (w *walk) contents(v ssa.Value, depth int) {
	if depth > 8 || w.seen[v] {
		return
	}
	w.seen[v] = true
	switch v := v.(type) {
	case *ssa.Phi:
		for _, e := range v.Edges {
			w.contents(e, depth+1)
		}
	case *ssa.BinOp: // string concatenation
		w.contents(v.X, depth+1)
		w.contents(v.Y, depth+1)
	case *ssa.MakeInterface:
		w.contents(v.X, depth+1)
	case *ssa.ChangeInterface:
		w.contents(v.X, depth+1)
	case *ssa.Slice: // a format's variadic arguments
		vals, _ := ctxorigin.ListedArgs(v)
		for _, val := range vals {
			w.contents(val, depth+1)
		}
	case *ssa.Call:
		w.call(v, depth)
	case *ssa.UnOp:
		if alloc, ok := v.X.(*ssa.Alloc); ok && v.Op == token.MUL && typesutil.IsError(v.Type()) {
			vals, _ := ctxorigin.Assigned(alloc, v)
			for _, val := range vals {
				w.contents(val, depth+1)
			}
		}
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok && typesutil.IsError(v.Type()) {
			w.errorOf(v, call)
		}
	case *ssa.Parameter:
		if v == w.param {
			if w.toldApart(v) || recognised(v, w.at) {
				w.told = true
			} else {
				w.paramHit = true
			}
		}
	}
}

// call follows a call in a message or cause: err.Error(), fmt.Sprintf/Errorf/Sprint, errors.New
// of a message; or, for a call returning an error, the error itself.
func (w *walk) call(call *ssa.Call, depth int) {
	common := call.Common()
	fn := ctxorigin.Callee(common)
	if err := ctxorigin.TextOf(common); err != nil {
		w.contents(err, depth+1)
		return
	}
	if w.ctxErr == nil && w.c.requestCtxErr(common) {
		w.ctxErr = call
		return
	}
	switch {
	case fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "fmt", typesutil.IsFunc(fn, "errors", "New"):
		for _, a := range common.Args {
			w.contents(a, depth+1)
		}
	case typesutil.IsError(call.Type()):
		w.errorOf(call, call)
	}
}

// errorOf looks at err, the error result of call: an error the request's deadline can cause if
// call was given the request's ctx; told apart if anything in the function asks what it is.
func (w *walk) errorOf(err ssa.Value, call *ssa.Call) {
	if w.toldApart(err) || recognised(err, w.at) {
		w.told = true
		return
	}
	if w.origin == nil && w.c.givenRequestCtx(call) {
		w.origin = call
	}
}

// recognised reports whether the translation, in block at, runs only once the error err was
// found to be something specific: at is dominated by the branch taken when err (or the cause
// it wraps, or a merge of it) equals a value other than nil — a sentinel, a switch case — or
// when a predicate taking it holds (errors.Is(err, ErrNotFound), isConflict(err)), or when its
// text says what it is (textSays). Such an error is that thing, not the request's deadline.
// Nor is an error known to be nil there (if err != nil { return } … Errorf("…%v", err)): the
// call succeeded, and nothing of its is translated.
//
// The branches may be several (errors.Is(err, ErrNotFound) || errors.Is(err, ErrConflict), a
// case listing two sentinels, err == nil || IsConflict(err)): at is recognised when no way from
// the function's entry reaches it but through one of them.
func recognised(err ssa.Value, at *ssa.BasicBlock) bool {
	seen := map[ssa.Value]bool{}
	taken := make(map[[2]*ssa.BasicBlock]bool) // the edges on which some test of err holds
	take := func(b *ssa.BasicBlock, succ int) { taken[[2]*ssa.BasicBlock{b, b.Succs[succ]}] = true }
	// cause: v is what err wraps (errors.Unwrap(err), errors.Cause(err)), whose being nil says
	// nothing of err: only its comparison with a sentinel counts.
	var walk func(v ssa.Value, depth int, cause bool) bool
	walk = func(v ssa.Value, depth int, cause bool) bool {
		if seen[v] || depth > 4 || v.Referrers() == nil {
			return false
		}
		seen[v] = true
		if v == err && ctxTextsRuledOut(v, at) {
			return true // the text of the error itself: a merge with another error says nothing of it
		}
		for _, ref := range *v.Referrers() {
			switch ref := ref.(type) {
			case *ssa.Phi, *ssa.MakeInterface, *ssa.ChangeInterface:
				if walk(ref.(ssa.Value), depth+1, cause) {
					return true
				}
			case *ssa.BinOp:
				if ref.Op != token.EQL && ref.Op != token.NEQ {
					continue
				}
				if k, ok := otherOperand(ref, v).(*ssa.Const); ok && k.IsNil() && cause {
					continue // what err wraps is nil: err may be anything
				}
				// err == sentinel holds, or err == nil holds: either way, no deadline here.
				if holdsAt(ref, ref.Op == token.EQL, at) {
					return true
				}
				holdingEdges(ref, ref.Op == token.EQL, take)
			case *ssa.Call:
				switch {
				case ctxorigin.TextOf(ref.Common()) == v:
					if textSays(ref, at, 0) {
						return true
					}
				case typesutil.IsBool(ref.Type()):
					if holdsAt(ref, true, at) {
						return true
					}
					holdingEdges(ref, true, take)
				case typesutil.IsError(ref.Type()): // errors.Cause(err), errors.Unwrap(err)
					if walk(ref, depth+1, true) {
						return true
					}
				}
			}
		}
		return false
	}
	return walk(err, 0, false) || len(taken) > 0 && !reachableAvoiding(at, taken)
}

// holdingEdges calls f with each If on cond (or on its negation) and the index of the
// successor it takes when cond is want.
func holdingEdges(cond ssa.Value, want bool, f func(b *ssa.BasicBlock, succ int)) {
	for _, ref := range *cond.Referrers() {
		switch ref := ref.(type) {
		case *ssa.If:
			succ := 1
			if want {
				succ = 0
			}
			f(ref.Block(), succ)
		case *ssa.UnOp:
			if ref.Op == token.NOT {
				holdingEdges(ref, !want, f)
			}
		}
	}
}

// reachableAvoiding reports whether block at can be reached from its function's entry without
// taking any of the edges.
func reachableAvoiding(at *ssa.BasicBlock, edges map[[2]*ssa.BasicBlock]bool) bool {
	entry := at.Parent().Blocks[0]
	if at == entry || !ctxorigin.Reaches(entry, at) {
		return true // the entry, or a recover block: no test of err on the way to tell of
	}
	return ctxorigin.ReachesAvoiding(entry, at, func(b, succ *ssa.BasicBlock) bool { return edges[[2]*ssa.BasicBlock{b, succ}] })
}

// ctxErrorTexts are the texts a deadline or cancellation has: the ctx's own, and a gRPC
// status made of one.
var ctxErrorTexts = []string{
	"context deadline exceeded",
	"context canceled",
	"rpc error: code = DeadlineExceeded desc = context deadline exceeded",
	"rpc error: code = Canceled desc = context canceled",
}

// textSays reports whether block at runs only once the error text s (or s lowered, upper-cased
// or trimmed) was found to hold words a deadline's text lacks: strings.Contains, HasPrefix,
// HasSuffix or EqualFold of s and a constant, or s == a constant, holds there. A constant found
// in a deadline's or a cancellation's text (Contains(s, "deadline")) picks those out too, and
// tells nothing apart; nor does a test that the words are absent.
func textSays(s ssa.Value, at *ssa.BasicBlock, depth int) bool {
	if depth > 2 || s.Referrers() == nil {
		return false
	}
	for _, ref := range *s.Referrers() {
		switch ref := ref.(type) {
		case *ssa.BinOp:
			if k, ok := otherOperand(ref, s).(*ssa.Const); ok && (ref.Op == token.EQL || ref.Op == token.NEQ) &&
				notCtxText(k) && holdsAt(ref, ref.Op == token.EQL, at) {
				return true
			}
		case *ssa.Call:
			fn := ctxorigin.Callee(ref.Common())
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "strings" || len(ref.Common().Args) == 0 || ref.Common().Args[0] != s {
				continue
			}
			switch fn.Name() {
			case "ToLower", "ToUpper", "TrimSpace":
				if textSays(ref, at, depth+1) {
					return true
				}
			case "Contains", "HasPrefix", "HasSuffix", "EqualFold":
				if k, ok := ref.Common().Args[1].(*ssa.Const); ok && notCtxText(k) && holdsAt(ref, true, at) {
					return true
				}
			}
		}
	}
	return false
}

// ctxTextsRuledOut reports whether block at runs only once the text of the error err was found
// to hold no deadline's and no cancellation's text: strings.Contains of err.Error() (or of it
// lowered, upper-cased or trimmed) and words of each of ctxErrorTexts is false there —
// Contains(…, "deadline") and Contains(…, "canceled") both, or Contains(…, "context"). Words of
// one text alone leave the other's error masked.
func ctxTextsRuledOut(err ssa.Value, at *ssa.BasicBlock) bool {
	out := make([]bool, len(ctxErrorTexts))
	for _, ref := range *err.Referrers() {
		if call, ok := ref.(*ssa.Call); ok && ctxorigin.TextOf(call.Common()) == err {
			ruleOutTexts(call, at, func(t string) string { return t }, out, 0)
		}
	}
	for _, ruled := range out {
		if !ruled {
			return false
		}
	}
	return true
}

// ruleOutTexts marks in out the ctxErrorTexts (as the text s is, through as) that a false
// strings.Contains of s and a constant rules out in block at.
func ruleOutTexts(s ssa.Value, at *ssa.BasicBlock, as func(string) string, out []bool, depth int) {
	if depth > 2 || s.Referrers() == nil {
		return
	}
	for _, ref := range *s.Referrers() {
		call, ok := ref.(*ssa.Call)
		if !ok {
			continue
		}
		fn := ctxorigin.Callee(call.Common())
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "strings" || len(call.Common().Args) == 0 || call.Common().Args[0] != s {
			continue
		}
		switch fn.Name() {
		case "ToLower":
			ruleOutTexts(call, at, strings.ToLower, out, depth+1)
		case "ToUpper":
			ruleOutTexts(call, at, strings.ToUpper, out, depth+1)
		case "TrimSpace":
			ruleOutTexts(call, at, as, out, depth+1)
		case "Contains":
			k, ok := call.Common().Args[1].(*ssa.Const)
			if !ok || k.Value == nil || k.Value.Kind() != constant.String || constant.StringVal(k.Value) == "" || !holdsAt(call, false, at) {
				continue
			}
			for i, t := range ctxErrorTexts {
				if strings.Contains(as(t), constant.StringVal(k.Value)) {
					out[i] = true
				}
			}
		}
	}
}

// notCtxText reports whether the string constant k is in no text of a deadline or a
// cancellation, whatever the case.
func notCtxText(k *ssa.Const) bool {
	if k.Value == nil || k.Value.Kind() != constant.String {
		return false
	}
	words := strings.ToLower(constant.StringVal(k.Value))
	if words == "" {
		return false
	}
	for _, t := range ctxErrorTexts {
		if strings.Contains(strings.ToLower(t), words) {
			return false
		}
	}
	return true
}

// holdsAt reports whether the boolean cond is known to be want in block at: at is dominated by
// the successor an If on cond (or on its negation) takes then, entered only from that If.
func holdsAt(cond ssa.Value, want bool, at *ssa.BasicBlock) bool {
	holds := false
	holdingEdges(cond, want, func(b *ssa.BasicBlock, succ int) {
		holds = holds || ctxorigin.OnlyVia(b, succ, at)
	})
	return holds
}

func otherOperand(b *ssa.BinOp, v ssa.Value) ssa.Value {
	if b.X == v {
		return b.Y
	}
	return b.X
}

// givenRequestCtx reports whether call takes a ctx, and is given the request's ctx or one
// derived from it, on every path; and may work with it (a function of the module known to
// ignore its ctx returns no error of it, nor does a function value whose every value, in
// sight, ignores it).
func (c *checker) givenRequestCtx(call *ssa.Call) bool {
	common := call.Common()
	ctx := ctxArgument(common)
	if ctx == nil {
		ctx = groupCtx(common)
	}
	if ctx == nil {
		return false
	}
	// A ctx with a deadline of its own on the way (WithTimeout(ctx, d)) still carries the
	// request's when that is the earlier: its expiry may be the request's. The fix checks the
	// request's ctx, so the dependency's own time-out keeps the code it is given.
	if !c.info.Origins.Of(ctx).Only(ctxorigin.Request) {
		return false
	}
	fn := ctxorigin.Callee(common)
	return !c.res.CallIgnoresCtx(common) && (fn == nil || !ctxorigin.IsReader(fn))
}

// requestCtxErr reports whether common is ctx.Err() on the request's ctx or one derived from it
// on every path: its error, when there is one, is the request's deadline or cancellation.
func (c *checker) requestCtxErr(common *ssa.CallCommon) bool {
	ctx := ctxorigin.AsksErr(common)
	if ctx == nil {
		return false
	}
	origins := c.info.Origins.Of(ctx)
	for _, o := range origins {
		if o.Kind != ctxorigin.Request || o.Deadline {
			return false // a ctx with a deadline of its own: its expiry may be its own
		}
	}
	return len(origins) > 0
}

// ctxArgument returns the ctx the call is given: its ctx argument, or for http.Client.Do the
// ctx its request was made with; or nil.
func ctxArgument(common *ssa.CallCommon) ssa.Value {
	sig := common.Signature()
	i := typesutil.CtxParamIndex(sig)
	if i < 0 {
		return requestCtxOfDo(common)
	}
	if !common.IsInvoke() && sig.Recv() != nil {
		i++ // a static method call's arguments start with the receiver
	}
	if i >= len(common.Args) {
		return nil
	}
	return common.Args[i]
}

// groupCtx returns, for g.Wait() of an errgroup made with errgroup.WithContext(ctx) whose own
// ctx the function uses (g, gctx := errgroup.WithContext(ctx), gctx handed to the goroutines'
// work), the ctx the group was made from: the error Wait returns is the first of work done on
// a child of that ctx, its deadline's or cancellation's when that ctx ends. Otherwise nil.
func groupCtx(common *ssa.CallCommon) ssa.Value {
	fn := ctxorigin.Callee(common)
	if fn == nil || !typesutil.IsMethod(fn, "golang.org/x/sync/errgroup", "Group", "Wait") || len(common.Args) != 1 {
		return nil
	}
	group, ok := common.Args[0].(*ssa.Extract)
	if !ok || group.Index != 0 {
		return nil
	}
	made, ok := group.Tuple.(*ssa.Call)
	if !ok || !typesutil.IsFunc(ctxorigin.Callee(made.Common()), "golang.org/x/sync/errgroup", "WithContext") || len(made.Common().Args) != 1 {
		return nil
	}
	for _, ref := range *made.Referrers() {
		if gctx, ok := ref.(*ssa.Extract); ok && gctx.Index == 1 && gctx.Referrers() != nil && len(*gctx.Referrers()) > 0 {
			return made.Common().Args[0]
		}
	}
	return nil
}

// requestCtxOfDo returns, for a call of (*net/http.Client).Do, the ctx its request was made
// with — http.NewRequestWithContext(ctx, …), or req.WithContext(ctx) — or nil.
func requestCtxOfDo(common *ssa.CallCommon) ssa.Value {
	fn := ctxorigin.Callee(common)
	if fn == nil || !typesutil.IsMethod(fn, "net/http", "Client", "Do") || len(common.Args) != 2 {
		return nil
	}
	req := common.Args[1]
	if ext, ok := req.(*ssa.Extract); ok && ext.Index == 0 {
		if mk, ok := ext.Tuple.(*ssa.Call); ok && typesutil.IsFunc(ctxorigin.Callee(mk.Common()), "net/http", "NewRequestWithContext") && len(mk.Common().Args) > 0 {
			return mk.Common().Args[0]
		}
	}
	if mk, ok := req.(*ssa.Call); ok && typesutil.IsMethod(ctxorigin.Callee(mk.Common()), "net/http", "Request", "WithContext") && len(mk.Common().Args) == 2 {
		return mk.Common().Args[1]
	}
	return nil
}

// toldApart reports whether the error err, or a value it is merged into, is asked what it is:
// handed to status.Code, FromError, Convert, FromContextError, errors.Is, errors.As,
// connect.CodeOf, or to a function of the module that takes an error and returns an error or a
// code.
func (w *walk) toldApart(err ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	var told func(v ssa.Value, depth int) bool
	told = func(v ssa.Value, depth int) bool {
		if seen[v] || depth > 4 || v.Referrers() == nil {
			return false
		}
		seen[v] = true
		for _, ref := range *v.Referrers() {
			switch ref := ref.(type) {
			case *ssa.Phi:
				if told(ref, depth+1) {
					return true
				}
			case *ssa.MakeInterface:
				if told(ref, depth+1) {
					return true
				}
			case ssa.CallInstruction:
				if ref != ssa.CallInstruction(w.skip) && !calls(ref, w.self) && w.c.asks(ref.Common(), v) {
					return true
				}
			}
		}
		return false
	}
	return told(err, 0)
}

// calls reports whether call is a call of fn (nil: none), or of an instance of it.
func calls(call ssa.CallInstruction, fn *ssa.Function) bool {
	return fn != nil && declared(call.Common().StaticCallee()) == fn
}

// asks reports whether the call, given the error v, tells what it is.
func (c *checker) asks(common *ssa.CallCommon, v ssa.Value) bool {
	if common.IsInvoke() && common.Value == v {
		return false // err.Error()
	}
	fn := ctxorigin.Callee(common)
	if fn == nil {
		return false
	}
	if typesutil.IsFunc(fn, "errors", "Is") && len(common.Args) == 2 && otherSentinel(common.Args[1]) {
		// errors.Is(err, ErrNotFound) recognises one other error: the translation on the
		// branch where it holds is no mask (recognised), the one past it still is.
		return false
	}
	for _, f := range []struct{ pkg, name string }{
		{statusPath, "Code"}, {statusPath, "FromError"}, {statusPath, "Convert"}, {statusPath, "FromContextError"},
		{"errors", "Is"}, {"errors", "As"}, {typesutil.ConnectPath, "CodeOf"},
	} {
		if typesutil.IsFunc(fn, f.pkg, f.name) {
			return true
		}
	}
	if !c.res.Owned(fn) || fn.Pkg() == nil {
		return false
	}
	results := fn.Signature().Results()
	for i := 0; i < results.Len(); i++ {
		t := results.At(i).Type()
		if typesutil.IsError(t) || typesutil.IsNamed(t, typesutil.GRPCPath+"/codes", "Code") || typesutil.IsNamed(t, typesutil.ConnectPath, "Code") {
			return true
		}
	}
	return false
}

// otherSentinel reports whether target, the second argument of errors.Is, is a package-level
// error variable other than context.DeadlineExceeded and context.Canceled: a sentinel of its own.
func otherSentinel(target ssa.Value) bool {
	g := ctxorigin.LoadedGlobal(target)
	if g == nil || g.Pkg.Pkg.Path() == typesutil.ContextPath {
		return false
	}
	return typesutil.IsError(g.Type().(*types.Pointer).Elem())
}

// asksCtxErr reports whether the function of the translation at calls Err() on a ctx on the way
// to it — in a block that dominates it, or before it in its block (if ctx.Err() != nil { … }
// first) — or in a function literal of its not started on a goroutine (a deferred rewrite of the
// error it returns, a mapping closure): it tells a deadline apart itself. A ctx.Err() elsewhere,
// on another way (a watch loop's case <-ctx.Done(): return ctx.Err() after the translation), or
// on a goroutine the function starts (post-response work checking its own detached ctx), tells
// nothing of the error translated.
func asksCtxErr(at *ssa.Call) bool {
	fn := at.Parent()
	for _, f := range fn.AnonFuncs {
		if !ctxorigin.Started(f) && callsCtxErrIn(f, nil) {
			return true
		}
	}
	return callsCtxErrIn(fn, at)
}

// callsCtxErrIn reports whether fn calls Err() on a ctx: anywhere when at is nil; otherwise in
// a block that dominates at's, or before at in its block.
func callsCtxErrIn(fn *ssa.Function, at *ssa.Call) bool {
	for _, b := range fn.Blocks {
		if at != nil && !b.Dominates(at.Block()) {
			continue
		}
		for _, instr := range b.Instrs {
			if instr == ssa.Instruction(at) {
				break
			}
			if call, ok := instr.(*ssa.Call); ok && ctxorigin.AsksErr(call.Common()) != nil {
				return true
			}
		}
	}
	return false
}

// constantInt returns the integer value of k.
func constantInt(k *ssa.Const) (int64, bool) {
	if k.Value == nil {
		return 0, false
	}
	return k.Int64(), true
}

// fix inserts, before the return statement whose result is the translation, a return of the
// ctx's error when it is set — for a unary handler or connect handler whose ctx parameter is
// named, when every other result has a zero value to write.
func (c *checker) fix(sc *scope.Scope, call *ssa.Call, t *translation) (analysis.SuggestedFix, bool) {
	if sc.Kind != scope.Unary && sc.Kind != scope.Connect || sc.Ctx == nil || sc.Ctx.Name() == "_" || sc.Ctx.Parent() != call.Parent() {
		return analysis.SuggestedFix{}, false
	}
	ce := c.res.CallExpr(call.Pos())
	if ce == nil {
		return analysis.SuggestedFix{}, false
	}
	file := report.FileOf(c.pass, ce.Pos())
	if file == nil {
		return analysis.SuggestedFix{}, false
	}
	path, _ := astutil.PathEnclosingInterval(file, ce.Pos(), ce.End())
	var ret *ast.ReturnStmt
	for _, n := range path {
		if r, ok := n.(*ast.ReturnStmt); ok {
			ret = r
			break
		}
		if _, ok := n.(*ast.FuncLit); ok {
			break
		}
	}
	if ret == nil || len(ret.Results) == 0 || ast.Unparen(ret.Results[len(ret.Results)-1]) != ce && !isErrCall(ret.Results[len(ret.Results)-1], ce) {
		return analysis.SuggestedFix{}, false
	}
	results := sc.Func.Signature.Results()
	var zeros []string
	for i := 0; i < results.Len()-1; i++ {
		z, ok := zeroValue(results.At(i).Type(), c.pass.Pkg)
		if !ok {
			return analysis.SuggestedFix{}, false
		}
		zeros = append(zeros, z)
	}
	ctxName := sc.Ctx.Name()
	errExpr := "status.FromContextError(" + ctxName + ".Err()).Err()"
	if t.fn.Pkg().Path() == typesutil.ConnectPath {
		errExpr = ctxName + ".Err()" // connect gives a context error its code
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "if %s.Err() != nil {\n\treturn %s\n}\n", ctxName, joinResults(zeros, errExpr))
	src, err := format.Source(buf.Bytes())
	if err != nil {
		return analysis.SuggestedFix{}, false
	}
	indent := c.indentAt(ret.Pos())
	text := bytes.ReplaceAll(bytes.TrimRight(src, "\n"), []byte("\n"), []byte("\n"+indent))
	text = append(text, '\n')
	text = append(text, indent...)
	return analysis.SuggestedFix{
		Message:   "Return the ctx's error when the request's deadline or cancellation caused the failure",
		TextEdits: []analysis.TextEdit{{Pos: ret.Pos(), End: ret.Pos(), NewText: text}},
	}, true
}

// isErrCall reports whether e is ce.Err(): status.New(…).Err().
func isErrCall(e ast.Expr, ce *ast.CallExpr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Err" && ast.Unparen(sel.X) == ce
}

func joinResults(zeros []string, last string) string {
	out := ""
	for _, z := range zeros {
		out += z + ", "
	}
	return out + last
}

// zeroValue spells the zero value of t, where it is simple to write.
func zeroValue(t types.Type, pkg *types.Package) (string, bool) {
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Interface, *types.Slice, *types.Map, *types.Chan, *types.Signature:
		return "nil", true
	case *types.Basic:
		switch {
		case u.Info()&types.IsNumeric != 0:
			return "0", true
		case u.Info()&types.IsString != 0:
			return `""`, true
		case u.Info()&types.IsBoolean != 0:
			return "false", true
		}
	case *types.Struct:
		return types.TypeString(t, types.RelativeTo(pkg)) + "{}", true
	}
	return "", false
}

// indentAt returns the whitespace before pos on its line.
func (c *checker) indentAt(pos token.Pos) string {
	tf := c.pass.Fset.File(pos)
	content, err := c.pass.ReadFile(tf.Name())
	if err != nil {
		return "\t"
	}
	off := tf.Offset(tf.LineStart(tf.Line(pos)))
	end := tf.Offset(pos)
	if off > end || end > len(content) {
		return "\t"
	}
	line := content[off:end]
	for i, b := range line {
		if b != ' ' && b != '\t' {
			return string(line[:i])
		}
	}
	return string(line)
}
