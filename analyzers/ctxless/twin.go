package ctxless

import (
	"go/types"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// twinSuffix is the conventional suffix of the ctx-taking variant of a method.
const twinSuffix = "Context"

// genericTwin returns the method MContext of m's receiver type when m is a method M that takes
// no ctx and MContext takes a context.Context followed by exactly M's parameters and returns
// exactly M's results — database/sql's Query and QueryContext, a Dialer's Dial and
// DialContext, or a user's Get and GetContext. It returns nil otherwise, and when MContext only
// reads values out of its ctx (slog's Logger.Info and InfoContext): such a call has no
// deadline to lose.
func genericTwin(m *types.Func) *types.Func {
	sig := m.Signature()
	recv := sig.Recv()
	if recv == nil || typesutil.CtxParamIndex(sig) >= 0 {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(recv.Type(), true, m.Pkg(), m.Name()+twinSuffix)
	twin, ok := obj.(*types.Func)
	if !ok || !isTwinSignature(sig, twin.Signature()) || ctxorigin.IsReader(twin) {
		return nil
	}
	return twin
}

// isTwinSignature reports whether twin's parameters are a context.Context followed by sig's,
// with the same variadicity and identical results.
func isTwinSignature(sig, twin *types.Signature) bool {
	p, tp := sig.Params(), twin.Params()
	if tp.Len() != p.Len()+1 || !typesutil.IsContext(tp.At(0).Type()) || sig.Variadic() != twin.Variadic() {
		return false
	}
	for i := 0; i < p.Len(); i++ {
		if !types.Identical(p.At(i).Type(), tp.At(i+1).Type()) {
			return false
		}
	}
	return types.Identical(sig.Results(), twin.Results())
}
