package ctxorigin

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// twinSuffixes are the conventional suffixes of the ctx-taking variant of a method: Context
// (database/sql's QueryContext), and Ctx (go-zero's stores: Hget and HgetCtx, QueryRowCtx).
var twinSuffixes = []string{"Context", "Ctx"}

// Twin returns the method MContext (or MCtx) of m's receiver type when m is a method M that
// takes no ctx and MContext takes a context.Context followed by M's parameters and returns M's
// results — database/sql's Query and QueryContext, a Dialer's Dial and DialContext, go-zero's
// Redis.Hget and HgetCtx, or a user's Get and GetContext. A callback parameter may take a ctx
// first in MContext where it takes none in M (Retry(func() error) and RetryContext(ctx,
// func(ctx) error)), and MContext may return an error more (Wait() and WaitContext(ctx) error);
// exact is false then, and the rewrite is not mechanical. It returns nil otherwise, and when
// MContext only reads values out of its ctx (slog's Logger.Info and InfoContext; noWork: an
// interface's MContext every implementation of which does so, a logger interface's
// DebugContext): such a call has no deadline to lose. Nor has one whose MContext returns
// nothing (glog's Verbose.Info and InfoContext, out of sight): it cannot tell its caller that
// the ctx cut it short, so the ctx is there for its values (a log line's trace), not to end
// work anyone waits on.
func Twin(m *types.Func, noWork func(*types.Func) bool) (twin *types.Func, exact bool) {
	sig := m.Signature()
	recv := sig.Recv()
	if recv == nil || typesutil.CtxParamIndex(sig) >= 0 {
		return nil, false
	}
	for _, suffix := range twinSuffixes {
		obj, _, _ := types.LookupFieldOrMethod(recv.Type(), true, m.Pkg(), m.Name()+suffix)
		twin, ok := obj.(*types.Func)
		if !ok {
			continue
		}
		if twin.Signature().Results().Len() == 0 || IsReader(twin) || noWork(twin) {
			return nil, false
		}
		if ok, exact = isTwinSignature(sig, twin.Signature()); ok {
			return twin, exact
		}
	}
	return nil, false
}

// isTwinSignature reports whether twin's parameters are a context.Context followed by sig's,
// with the same variadicity and the same results. Where exact is false, a parameter of sig is a
// func whose twin is its counterpart in twin, or twin returns an error more, last (Wait() and
// WaitContext(ctx) error: the ctx's end is an error M never has).
func isTwinSignature(sig, twin *types.Signature) (ok, exact bool) {
	p, tp := sig.Params(), twin.Params()
	if tp.Len() != p.Len()+1 || !typesutil.IsContext(tp.At(0).Type()) || sig.Variadic() != twin.Variadic() {
		return false, false
	}
	exact = types.Identical(sig.Results(), twin.Results())
	if !exact && !addsError(sig.Results(), twin.Results()) {
		return false, false
	}
	for i := 0; i < p.Len(); i++ {
		a, b := p.At(i).Type(), tp.At(i+1).Type()
		if types.Identical(a, b) {
			continue
		}
		as, aok := a.Underlying().(*types.Signature)
		bs, bok := b.Underlying().(*types.Signature)
		if !aok || !bok {
			return false, false
		}
		if cb, _ := isTwinSignature(as, bs); !cb {
			return false, false
		}
		exact = false
	}
	return true, exact
}

// addsError reports whether twin is res followed by one error.
func addsError(res, twin *types.Tuple) bool {
	if twin.Len() != res.Len()+1 || !types.Identical(twin.At(twin.Len()-1).Type(), types.Universe.Lookup("error").Type()) {
		return false
	}
	for i := 0; i < res.Len(); i++ {
		if !types.Identical(res.At(i).Type(), twin.At(i).Type()) {
			return false
		}
	}
	return true
}

// twinName reports whether name is base followed by one of twinSuffixes.
func twinName(name, base string) bool {
	suffix, ok := strings.CutPrefix(name, base)
	return ok && slices.Contains(twinSuffixes, suffix)
}

// IsVariantOf reports whether fn is the ctx-taking variant of callee — a NextContext(ctx)
// written as a call of Next() — whose body the ctx-less one is, not a call that loses the ctx.
func IsVariantOf(fn *ssa.Function, callee *types.Func) bool {
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || !twinName(obj.Name(), callee.Name()) || obj.Pkg() != callee.Pkg() {
		return false
	}
	r1, r2 := obj.Signature().Recv(), callee.Signature().Recv()
	if r1 == nil || r2 == nil {
		return r1 == nil && r2 == nil
	}
	n1, n2 := typesutil.Named(r1.Type()), typesutil.Named(r2.Type())
	return n1 != nil && n2 != nil && n1.Obj() == n2.Obj()
}
