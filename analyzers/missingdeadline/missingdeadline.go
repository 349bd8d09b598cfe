package missingdeadline

import (
	_ "embed"
	"fmt"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/callees"
	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/ctxssa"
	"github.com/deadlinelint/deadlinelint/internal/report"
	"github.com/deadlinelint/deadlinelint/internal/ruledoc"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
	"github.com/deadlinelint/deadlinelint/internal/valueflow"
)

const name = "missingdeadline"

//go:embed doc.go
var doc string

// Analyzer reports unary client calls made with a ctx that has no deadline.
var Analyzer = &analysis.Analyzer{
	Name:      name,
	Doc:       ruledoc.MustExtract(doc, name),
	URL:       ruledoc.URL(name),
	Requires:  []*analysis.Analyzer{ctxssa.Analyzer},
	Run:       run,
	FactTypes: []analysis.Fact{new(needsDeadline), new(defaultingConn), new(defaultingInterceptor), new(noCtxAPI), new(boundsCalls)},
}

// The rule's flags, -missingdeadline.<name> on the command line.
var (
	streams    bool
	tests      bool
	clientAPIs apiList
)

func init() {
	Analyzer.Flags.BoolVar(&streams, "streams", false,
		"also report streaming client calls (NewStream and server-, client- and bidi-streaming methods)")
	Analyzer.Flags.BoolVar(&tests, "tests", false, "also report calls in test code (_test.go files, functions run by a test, packages whose non-test files import testing)")
	Analyzer.Flags.Var(&clientAPIs, "clientapis",
		"comma-separated extra unary client-call APIs, as pkgpath.Func or pkgpath.Type.Method")
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[ctxssa.Analyzer].(*ctxssa.Result)
	if res.External {
		return nil, nil // dependencies' client wrappers are out of scope: no facts from them
	}
	rep := report.New(pass, res, name)
	defer rep.Finish()
	// Whether the package can reach an RPC is read from the names its code uses, with the facts
	// of the functions it calls: not from its dependencies' types, whose imports a package read
	// from export data (go vet, the package route) lists only in part — a command calling a
	// client library's ctx-less Ping, whose exported API names no gRPC type, was reported in the
	// process and on no other route.
	clients, dials := namedAPIs(pass, res)
	dials = dials || declaresInterceptor(pass)
	if !clients && !dials {
		return nil, nil
	}
	c := newChecker(pass, res, res.SSA())
	if dials {
		c.defaults.exportFacts()
	}
	if clients {
		c.exportBounding()
		c.collect()
		c.propagate()
		c.exportFacts()
		c.report(rep)
	}
	return nil, nil
}

// namedAPIs reports, before any SSA work, whether the package's own code names a client-call
// API or an imported function with a needsDeadline fact (clients: without one, no call of the
// package can reach an RPC), and whether it names a way to dial a connection (dials: it may
// export defaultingConn facts).
func namedAPIs(pass *analysis.Pass, res *ctxssa.Result) (clients, dials bool) {
	seen := make(map[*types.Func]bool)
	for id, obj := range pass.TypesInfo.Uses {
		fn, ok := obj.(*types.Func)
		if !ok || seen[fn] || res.Generated(id.Pos()) {
			continue
		}
		seen[fn] = true
		fn = fn.Origin()
		clients = clients || isClientAPI(pass, fn)
		dials = dials || isDial(fn) || fn.Pkg() != pass.Pkg && pass.ImportObjectFact(fn, new(defaultingConn))
		if clients && dials {
			break
		}
	}
	return clients, dials
}

// declaresInterceptor reports whether the package declares an exported unary client
// interceptor, or a function returning one: it may export defaultingInterceptor facts.
func declaresInterceptor(pass *analysis.Pass) bool {
	for id, obj := range pass.TypesInfo.Defs {
		if fn, ok := obj.(*types.Func); ok && id.IsExported() && isInterceptorish(fn.Signature()) {
			return true
		}
	}
	return false
}

// isInterceptorish reports whether sig is a unary client interceptor's or returns one.
func isInterceptorish(sig *types.Signature) bool { return takesInvoker(sig) || returnsInterceptor(sig) }

// takesInvoker reports whether sig takes a grpc.UnaryInvoker: a unary client interceptor's.
func takesInvoker(sig *types.Signature) bool {
	for i := 0; i < sig.Params().Len(); i++ {
		if typesutil.IsNamed(sig.Params().At(i).Type(), typesutil.GRPCPath, "UnaryInvoker") {
			return true
		}
	}
	return false
}

// returnsInterceptor reports whether sig's first result is a grpc.UnaryClientInterceptor.
func returnsInterceptor(sig *types.Signature) bool {
	return sig.Results().Len() > 0 && typesutil.IsNamed(sig.Results().At(0).Type(), typesutil.GRPCPath, "UnaryClientInterceptor")
}

// isClientAPI reports whether fn is a client-call API, or an imported function with a fact.
func isClientAPI(pass *analysis.Pass, fn *types.Func) bool {
	if isConnMethod(fn, "Invoke") || isConnMethod(fn, "NewStream") ||
		typesutil.IsFunc(fn, typesutil.GRPCPath, "NewClientStream") || clientAPIs.has(fn) {
		return true
	}
	if _, ok := typesutil.ClientShape(fn.Signature()); ok {
		return true
	}
	// A function of another package that passes its ctx to an RPC, or a convenience API that
	// makes one with a root of its own: calling it is a client call.
	return fn.Pkg() != pass.Pkg && (pass.ImportObjectFact(fn, new(needsDeadline)) || pass.ImportObjectFact(fn, new(noCtxAPI)))
}

// checker holds one package's analysis.
type checker struct {
	pass     *analysis.Pass
	res      *ctxssa.Result
	info     *ctxssa.Info
	defaults *defaults
	owned    map[*ssa.Function]bool    // functions whose calls are checked
	sites    []*site                   // calls that may make an RPC, in source order
	callers  map[*ssa.Function][]*site // sites calling each function of the package
	needs    map[*ssa.Function]*need   // functions whose ctx param reaches an RPC without a deadline
	exempts  map[*site]bool            // memo of the interceptor exemption
	targets  *callees.Resolver         // interface calls' implementations, made on first use
	static   []staticCall              // the static calls of the owned functions, for apiCallers
	bounding map[string][]types.Type   // receiver types of methods with a boundsCalls fact, by name
	// sealedFns are the functions whose roots an interface without a ctx decides, made on
	// first use (sealed.go).
	sealedFns map[*ssa.Function]bool
}

// staticCall is a call of a declared function by an owned function.
type staticCall struct {
	fn     *ssa.Function
	instr  ssa.CallInstruction
	callee *types.Func
}

// site is a call that may make an RPC with its ctx argument: a client call, or a call to a
// function whose ctx parameter reaches one.
type site struct {
	fn     *ssa.Function // the function making the call
	instr  ssa.CallInstruction
	rpc    *clientCall           // a client-call API
	local  *ssa.Function         // a function of this package, which may need a deadline
	impls  []*ssa.Function       // or, for an interface call, its implementations in this package
	fact   *needsDeadline        // the fact of a function of another package
	callee *types.Func           // the declared callee, nil for a function literal
	shift  int                   // 1 when the call is through a method value: Args lack the receiver
	shifts map[*ssa.Function]int // for a call of a function value: the shift of each of impls
	// cbCtx is set for a call that hands its callee a callback (impls) the callee runs with
	// the ctx it is given as argument cbCtx-1: batch.Each(ctx, ids, j.refreshOne).
	cbCtx int
	// anyImpl is set when impls are the functions a value holds, found by following it (a
	// phi, a map literal): the call makes the RPC on the path where it holds one that does. An
	// interface's implementations, and a callback parameter's candidates from every caller,
	// are wider than what one call may reach: every one must agree.
	anyImpl bool
}

// need records that a function's ctx parameter reaches an RPC without a deadline.
type need struct {
	param int    // index among the SSA parameters
	path  string // the calls from the function down to the RPC
	via   *site  // the call in the function (or a literal in it) that passes the ctx on
}

func newChecker(pass *analysis.Pass, res *ctxssa.Result, info *ctxssa.Info) *checker {
	c := &checker{
		pass: pass, res: res, info: info,
		defaults: newDefaults(pass, res, info),
		owned:    make(map[*ssa.Function]bool),
		callers:  make(map[*ssa.Function][]*site),
		needs:    make(map[*ssa.Function]*need),
		exempts:  make(map[*site]bool),
	}
	for _, fn := range info.Funcs {
		c.owned[fn] = info.Scopes.Of(fn) == nil && (tests || !info.Scopes.TestSupport(fn))
	}
	return c
}

// collect finds the sites of the owned functions, and their static calls.
func (c *checker) collect() {
	for _, fn := range c.info.Funcs {
		if !c.owned[fn] {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if callee := call.Common().StaticCallee(); callee != nil {
					if obj, ok := callee.Object().(*types.Func); ok {
						c.static = append(c.static, staticCall{fn, call, obj})
					}
				}
				sites := c.callbackSites(fn, call)
				if s := c.site(fn, call); s != nil {
					sites = append([]*site{s}, sites...)
				}
				for _, s := range sites {
					c.sites = append(c.sites, s)
					if s.local != nil {
						c.callers[s.local] = append(c.callers[s.local], s)
					}
					for _, impl := range s.impls {
						c.callers[impl] = append(c.callers[impl], s)
					}
				}
			}
		}
	}
}

// site classifies a call, or returns nil when it cannot make an RPC.
func (c *checker) site(fn *ssa.Function, call ssa.CallInstruction) *site {
	common := call.Common()
	obj := ctxorigin.Callee(common)
	if obj != nil && !c.hasBody(common) && !connectBody(common, obj) {
		if rpc, ok := classify(common, obj, clientAPIs); ok {
			if rpc.stream && !streams || !rpc.stream && (c.mayBeBounded(common) || c.importedBounds(obj)) {
				return nil
			}
			return &site{fn: fn, instr: call, rpc: &rpc, callee: obj}
		}
	}
	if common.IsInvoke() {
		return c.interfaceSite(fn, call, obj)
	}
	if typesutil.CtxParamIndex(common.Signature()) < 0 {
		return nil
	}
	callee := common.StaticCallee()
	if callee == nil {
		return c.dynamicSite(fn, call)
	}
	shift := 0
	switch {
	case isBound(callee, obj):
		// A method value: the receiver is bound, the arguments start at the method's first
		// declared parameter.
		callee, shift = c.info.Pkg.Prog.FuncValue(obj), 1
	case isThunk(callee, obj):
		// A method expression (settler.settle, (*T).M): the receiver is the first argument,
		// as it is the method's first SSA parameter.
		callee = c.info.Pkg.Prog.FuncValue(obj)
	}
	if callee == nil {
		return nil
	}
	if o := callee.Origin(); o != nil {
		callee = o
	}
	if callee.Pkg == c.info.Pkg && callee.Blocks != nil {
		return &site{fn: fn, instr: call, local: callee, callee: obj, shift: shift}
	}
	if obj != nil && obj.Pkg() != c.pass.Pkg {
		var f needsDeadline
		if c.pass.ImportObjectFact(obj, &f) {
			return &site{fn: fn, instr: call, fact: &f, callee: obj, shift: shift}
		}
	}
	return nil
}

// isBound reports whether callee is the $bound wrapper of the method obj: it takes the
// method's declared parameters, the receiver bound.
func isBound(callee *ssa.Function, obj *types.Func) bool {
	return wraps(callee, obj) && len(callee.Params) == obj.Signature().Params().Len()
}

// isThunk reports whether callee is the thunk of a method expression of the method obj: it
// takes the receiver first, then the method's declared parameters.
func isThunk(callee *ssa.Function, obj *types.Func) bool {
	return wraps(callee, obj) && len(callee.Params) == obj.Signature().Params().Len()+1
}

// wraps reports whether callee is a synthetic function, without a receiver, for the method obj.
func wraps(callee *ssa.Function, obj *types.Func) bool {
	return callee.Synthetic != "" && obj != nil && obj.Signature().Recv() != nil && callee.Signature.Recv() == nil
}

// hasBody reports whether a static call goes to a function of the package whose body is
// analysed, and that -missingdeadline.clientapis does not list: a hand-written method shaped
// like a generated client's (a wrapper that may add its own deadline) is judged by its body.
// connectBody reports whether the call of obj is judged by obj's body (its needsDeadline fact)
// rather than by its shape: a static call of a concrete method of another package with
// connect-go's unary shape, other than connect's own Client. connect-go gives a service's
// handlers and its clients one method shape, and its generated clients are unexported types
// reached through their interface: a concrete method of that shape is a handler run in the
// process (a fan-out over local shards), or a hand-written wrapper whose body tells.
func connectBody(common *ssa.CallCommon, obj *types.Func) bool {
	sig := obj.Signature()
	if common.IsInvoke() || sig.Recv() == nil || types.IsInterface(sig.Recv().Type()) || obj.Pkg() == nil || obj.Pkg().Path() == typesutil.ConnectPath {
		return false
	}
	return sig.Params().Len() == 2 && sig.Results().Len() == 2 &&
		typesutil.IsPointerToNamed(sig.Params().At(1).Type(), typesutil.ConnectPath, "Request") &&
		typesutil.IsPointerToNamed(sig.Results().At(0).Type(), typesutil.ConnectPath, "Response")
}

func (c *checker) hasBody(common *ssa.CallCommon) bool {
	callee := common.StaticCallee()
	if common.IsInvoke() || callee == nil {
		return false
	}
	if o := callee.Origin(); o != nil {
		callee = o
	}
	_, analysed := c.owned[callee]
	if obj, ok := callee.Object().(*types.Func); ok && clientAPIs.has(obj) {
		return false
	}
	return analysed
}

// target returns the ctx a site hands to an RPC without a deadline of its own, and the path
// of calls down to that RPC; ok is false when the site makes no such RPC.
func (c *checker) target(s *site) (ctx ssa.Value, path string, ok bool) {
	args := s.instr.Common().Args
	switch {
	case s.rpc != nil:
		if c.exempt(s) || boundedByOption(s.instr.Common()) {
			return nil, "", false
		}
		return s.rpc.ctx, s.rpc.name, true
	case s.cbCtx > 0:
		if local := c.localOf(s); local != nil && s.cbCtx-1 < len(args) {
			return args[s.cbCtx-1], prepend(funcName(local), c.needs[local].path), true
		}
	case s.local != nil || s.impls != nil:
		if local := c.localOf(s); local != nil {
			n := c.needs[local]
			if i := n.param - s.shift - s.shifts[local]; i >= 0 && i < len(args) {
				return args[i], prepend(funcName(local), n.path), true
			}
		}
	case s.fact != nil:
		if i := s.fact.Param - s.shift; i >= 0 && i < len(args) {
			return args[i], prepend(report.FuncName(s.callee), s.fact.Path), true
		}
	}
	return nil, "", false
}

// exempt reports whether a unary client call goes through a connection whose interceptor sets
// a default deadline.
func (c *checker) exempt(s *site) bool {
	if s.rpc == nil || s.rpc.stream || s.rpc.conn == nil {
		return false
	}
	v, ok := c.exempts[s]
	if !ok {
		v = c.defaults.exempt(s.rpc.conn)
		c.exempts[s] = v
	}
	return v
}

// propagate marks, from the RPCs outward, the functions whose ctx parameter reaches an RPC
// with no deadline added on the way.
func (c *checker) propagate() {
	var queue []*site
	for _, s := range c.sites {
		if s.local == nil && s.impls == nil {
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		ctx, path, ok := c.target(s)
		if !ok {
			continue
		}
		for _, o := range c.unbounded(s, ctx) {
			if o.Kind != ctxorigin.Param {
				continue
			}
			p := o.Param.Parent()
			if !c.owned[p] || c.needs[p] != nil {
				continue
			}
			c.needs[p] = &need{param: ctxorigin.ParamIndex(p, o.Param), path: path, via: s}
			queue = append(queue, c.callers[p]...)
		}
	}
}

// exportFacts exports the needs of the package's exported functions and methods.
func (c *checker) exportFacts() {
	for _, fn := range c.info.Funcs {
		n := c.needs[fn]
		obj, ok := fn.Object().(*types.Func)
		if n == nil || !ok || !obj.Exported() || obj.Pkg() != c.pass.Pkg {
			continue
		}
		c.pass.ExportObjectFact(obj, &needsDeadline{Param: n.param, Path: n.path, At: c.rpcAt(n)})
	}
}

// rpcAt returns where the client call a need ends at is, as needsDeadline.At spells it:
// following the need's calls down this package, to the client call or to the fact of another
// package's function; "" when the way is not known.
func (c *checker) rpcAt(n *need) string {
	for s, hops := n.via, 0; s != nil && hops < 64; hops++ {
		switch {
		case s.rpc != nil:
			pos := c.pass.Fset.Position(s.instr.Pos())
			if !pos.IsValid() {
				return ""
			}
			return fmt.Sprintf("%s:%d", filepath.Base(pos.Filename), pos.Line)
		case s.fact != nil:
			return s.fact.At
		}
		local := c.localOf(s)
		if local == nil || c.needs[local] == nil {
			return ""
		}
		s = c.needs[local].via
	}
	return ""
}

// report reports every site that hands an RPC a ctx created, on some path, from
// context.Background() or TODO() with no deadline added. A context.WithoutCancel origin is
// left to the detach rule, which reports an unbounded one at the WithoutCancel call: one
// report per lost deadline. A root made in an exported function that takes no ctx (a
// library's convenience API) is reported at that API's callers instead (apiCallers), when the
// call it wraps is one they can make with a ctx of their own (ctxorigin.HasTwin); when it is
// not, the API's signature is the library's decision and a fix needs a new API: not reported.
func (c *checker) report(rep *report.Reporter) {
	apis := make(map[*types.Func]*noCtxAPI)
	var found []finding
	for _, s := range c.sites {
		ctx, path, ok := c.target(s)
		if !ok {
			continue
		}
		for _, o := range c.unbounded(s, ctx) {
			if o.Kind != ctxorigin.Root {
				continue
			}
			if o.Call != nil && c.givenOtherwise(ctxorigin.NilGuard(o.Call)) {
				continue // the fallback of a nil check of a ctx that is given: the one given decides
			}
			if api, ok := c.isNoCtxAPI(s.fn); ok && o.Call != nil && c.isConvenienceCall(s, o.Call) {
				if ctxorigin.HasTwin(s.instr) {
					addWay(apis, api, noCtxAPI{Path: path, Root: rootName(o), Needs: needsAt(s.fn, s.instr)})
				}
				break // the library's decision: its callers', when they can call the twin instead
			}
			if c.isSealed(s, o.Call) {
				continue // the decision of an interface whose method takes no ctx; another root may not be
			}
			found = append(found, finding{s, o, path})
			break
		}
	}
	c.reportOnce(rep, found)
	c.apiCallers(rep, apis)
}

// givenOtherwise reports whether the ctx v, which a nil check replaces with a root when it is
// nil, is given a ctx on some way (valueflow): a parameter (its callers pass one), or a field
// the package sets to a value other than nil (&file{ctx: ctx} when a request opens a file). A
// local that is never set, or a field nothing in the package sets, holds no ctx: its fallback is
// the ctx, and it has no deadline.
func (c *checker) givenOtherwise(v ssa.Value) bool {
	given := false
	if v != nil {
		c.defaults.flow().Each(v, valueflow.Lenient, func(x ssa.Value) bool {
			if k, isConst := x.(*ssa.Const); !isConst || !k.IsNil() {
				given = true
			}
			return true
		})
	}
	return given
}

// A finding is a site that hands an RPC a ctx from a root with no deadline (o).
type finding struct {
	site *site
	o    ctxorigin.Origin
	path string
}

// reportOnce reports the findings one per ctx and path: a deadline-less ctx made by one call
// (a root, or a call returning one) that reaches many RPCs one after the other, or one RPC of
// a function of the package from several paths (sameCall), is one decision, reported at the
// first site in source order, with the others as related positions.
func (c *checker) reportOnce(rep *report.Reporter, found []finding) {
	sort.SliceStable(found, func(i, j int) bool {
		return report.Before(c.pass.Fset, found[i].site.instr.Pos(), found[j].site.instr.Pos())
	})
	var groups []*group
	byCtx := make(map[*ssa.Call][]*group)
	byFactory := make(map[any]*group)
next:
	for _, f := range found {
		if pos, _ := c.res.CallRange(f.site.instr); rep.Suppresses(pos) {
			continue // suppressed where it is reported: not listed with another call either
		}
		if key := factoryKey(f); key != nil {
			if g := byFactory[key]; g != nil {
				g.others = append(g.others, f)
				continue
			}
			g := &group{first: f}
			groups = append(groups, g)
			byFactory[key] = g
			continue
		}
		maker := f.o.Call
		if maker == nil {
			maker = f.o.Via
		}
		for _, g := range byCtx[maker] {
			if onOnePath(g.first.site, f.site) || sameCall(g.first, f) {
				g.others = append(g.others, f)
				continue next
			}
		}
		g := &group{first: f}
		groups = append(groups, g)
		if maker != nil {
			byCtx[maker] = append(byCtx[maker], g)
		}
	}
	groups = c.mergeVerbs(groups)
	for _, g := range groups {
		if g.verbs != nil {
			rep.Report(c.verbsDiagnostic(g))
			continue
		}
		d := c.diagnostic(g.first.site, g.first.o, g.first.path)
		if n := len(g.others); n > 0 {
			d.Message += fmt.Sprintf("; it reaches %d more %s", n, plural(n, "call", "calls"))
		}
		for _, f := range g.others {
			pos, _ := c.res.CallRange(f.site.instr)
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: pos, Message: "the same ctx reaches " + reached(f) + " here"})
		}
		rep.Report(d)
	}
}

// A group is one finding: its first site, and the later sites it reaches. verbs, when set,
// are the groups of one ctx on separate paths merged into one finding at the ctx's maker
// (mergeVerbs).
type group struct {
	first  finding
	others []finding
	verbs  []*group
}

// mergeVerbs merges the groups of one deadline-less ctx made in a function and used on its
// separate paths (a CLI's verbs, each its own group: onOnePath), when no path gives that ctx a
// deadline: no verb of the command has one, so the decision is made where the ctx is — one
// finding there, listing the calls. When some path does give it one (a verb that applies the
// user's -timeout), each path without one is an oversight of its own, and stays its own
// finding.
func (c *checker) mergeVerbs(groups []*group) []*group {
	byRoot := make(map[*ssa.Call][]*group)
	for _, g := range groups {
		if r := g.first.o.Call; r != nil && factoryKey(g.first) == nil && g.first.site.instr.Parent() == r.Parent() {
			byRoot[r] = append(byRoot[r], g)
		}
	}
	merge := make(map[*ssa.Call]bool, len(byRoot))
	for r, verbs := range byRoot {
		merge[r] = len(verbs) > 1 && exclusive(verbs) && !c.boundedSomewhere(r)
	}
	var out []*group
	for _, g := range groups {
		r := g.first.o.Call
		switch {
		case !merge[r] || !slices.Contains(byRoot[r], g):
			out = append(out, g)
		case byRoot[r][0] == g: // the merged finding takes the place of the first verb's
			out = append(out, &group{first: g.first, verbs: byRoot[r]})
		}
	}
	return out
}

// exclusive reports whether the groups' first sites, in one function, are on paths no run
// takes two of: the arms of a switch on the command's verb. Calls one after the other (a job's
// steps, some behind an if) are not: each is a step of its own; nor are the verbs of a loop
// that reads command after command.
func exclusive(gs []*group) bool {
	for i, a := range gs {
		for _, b := range gs[i+1:] {
			x, y := a.first.site.instr.Block(), b.first.site.instr.Block()
			if x == y || ctxorigin.Reaches(x, y) || ctxorigin.Reaches(y, x) {
				return false
			}
		}
	}
	return true
}

// boundedSomewhere reports whether the ctx the root call makes is given a deadline in the
// function it is made in (or a literal in it), or handed there to a function of the package
// that gives its ctx parameter one (appliesDeadline). A deadline derived anew on each turn of a
// loop (a periodic job's cycle, WithDeadline(ctx, tick.Add(period))) is the job's schedule,
// not a budget the command gives its calls: it is no sign that the other verbs forgot one.
func (c *checker) boundedSomewhere(root *ssa.Call) bool {
	for _, f := range ctxorigin.WithLiterals(declOf(root.Parent())) {
		for _, s := range ctxorigin.Sinks(f) {
			for _, o := range c.info.Origins.Of(s.Ctx) {
				if o.Call != root {
					continue
				}
				if o.Deadline && !perTurn(s.Ctx) || c.appliesDeadline(s.Instr.Common(), s.Ctx, 0) {
					return true
				}
			}
		}
	}
	return false
}

// perTurn reports whether ctx is the child a deadline-giving call (context.WithTimeout,
// WithDeadline or their …Cause forms: ctxorigin.IsDeadlineCall) makes on each turn of a loop.
func perTurn(ctx ssa.Value) bool {
	ext, ok := ctx.(*ssa.Extract)
	if !ok || ext.Index != 0 {
		return false
	}
	call, ok := ext.Tuple.(*ssa.Call)
	return ok && ctxorigin.IsDeadlineCall(ctxorigin.Callee(call.Common())) && ctxorigin.Looped(call)
}

// appliesDeadline reports whether the static call common of a function of the package gives
// the ctx argument ctx a deadline: its body derives one from that parameter, directly or
// through calls of other functions of the package.
func (c *checker) appliesDeadline(common *ssa.CallCommon, ctx ssa.Value, depth int) bool {
	callee := common.StaticCallee()
	if callee == nil || depth > 4 {
		return false
	}
	if o := callee.Origin(); o != nil {
		callee = o
	}
	if callee.Pkg != c.info.Pkg || callee.Blocks == nil {
		return false
	}
	i := slices.Index(common.Args, ctx)
	if i < 0 || i >= len(callee.Params) {
		return false
	}
	p := callee.Params[i]
	for _, f := range ctxorigin.WithLiterals(callee) {
		for _, s := range ctxorigin.Sinks(f) {
			for _, o := range c.info.Origins.Of(s.Ctx) {
				if o.Kind == ctxorigin.Param && o.Param == p && (o.Deadline && !perTurn(s.Ctx) || c.appliesDeadline(s.Instr.Common(), s.Ctx, depth+1)) {
					return true
				}
			}
		}
	}
	return false
}

// verbsDiagnostic builds the one finding of a ctx made without a deadline and used, on
// separate paths, by calls none of which gives it one (mergeVerbs): at the call that makes it.
func (c *checker) verbsDiagnostic(g *group) analysis.Diagnostic {
	root := g.first.o.Call
	pos, end := c.res.CallRange(root)
	n := 0
	var related []analysis.RelatedInformation
	for _, v := range g.verbs {
		for _, f := range append([]finding{v.first}, v.others...) {
			n++
			fpos, _ := c.res.CallRange(f.site.instr)
			related = append(related, analysis.RelatedInformation{Pos: fpos, Message: "it reaches " + reached(f) + " here"})
		}
	}
	return analysis.Diagnostic{Pos: pos, End: end, Related: related, Message: fmt.Sprintf(
		"the ctx from %s reaches %d calls on separate paths, none with a deadline; add one here with context.WithTimeout",
		rootName(g.first.o), n)}
}

// factoryKey identifies, for a finding whose deadline-less ctx is made by a function other than
// the one calling (a ctx factory every command of a CLI calls: func getContext() context.Context),
// the root that function makes: the decision is made once, there, whatever the number of calls
// that use it. It is nil for a ctx made in the calling function itself.
func factoryKey(f finding) any {
	switch {
	case f.o.Call != nil && declOf(f.o.Call.Parent()) != declOf(f.site.fn):
		return f.o.Call
	case f.o.Call == nil && f.o.Desc != "":
		return f.o.Desc // made in another package, known from its Returned fact
	}
	return nil
}

// declOf returns the declared function fn is, or is nested in.
func declOf(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

// onOnePath reports whether every run through later passes through first: both are in one
// function, first's block dominating later's. Calls on separate paths (the verbs of a CLI's
// switch, each its own command) are separate decisions even with one ctx: each path is run,
// and fixed, on its own.
func onOnePath(first, later *site) bool {
	a, b := first.instr.Block(), later.instr.Block()
	return a != nil && b != nil && a.Parent() == b.Parent() && a.Dominates(b)
}

// sameCall reports whether the findings a and b reach one RPC call through one function of
// the package, down the same calls: heartbeat(ctx, true) on a timer and heartbeat(ctx, false)
// on stop both wait in heartbeat's Ping. Whichever path runs, the fix is one: a deadline on
// the ctx, or in the function. Calls made directly are the calling function's own, one per
// path.
func sameCall(a, b finding) bool {
	return a.site.local != nil && a.site.local == b.site.local && a.path == b.path
}

// reached names the RPC, or the function leading to one, that finding f's site calls.
func reached(f finding) string {
	rpc, via := split(f.path)
	if via == "" {
		return "RPC " + rpc
	}
	head, _, _ := strings.Cut(via, arrow)
	return head + " (RPC " + rpc + ")"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// isConvenienceCall reports whether site s is the one ctx-taking call of its function, given
// the root made by root written in its arguments (ctxorigin.ConvenienceCall).
func (c *checker) isConvenienceCall(s *site, root *ssa.Call) bool {
	pos, end := c.res.CallRange(s.instr)
	return ctxorigin.ConvenienceCall(s.instr, pos, end, root)
}

// funcName names a function of the package in messages.
func funcName(fn *ssa.Function) string {
	if obj, ok := fn.Object().(*types.Func); ok {
		return report.FuncName(obj)
	}
	if p := fn.Parent(); p != nil {
		return "a function literal in " + funcName(p)
	}
	return fn.Name()
}
