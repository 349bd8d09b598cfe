package ctxless

import (
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// TestKnownAPIsExist checks the table against the real standard library: every entry names an
// existing function or method that takes no ctx, and every rewrite produces a call of a
// ctx-taking function with the call's own parameters after the ctx and the extra arguments.
func TestKnownAPIsExist(t *testing.T) {
	paths := map[string]bool{}
	for _, k := range knownAPIs {
		paths[k.pkg] = true
	}
	var list []string
	for p := range paths {
		list = append(list, p)
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes}, list...)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]*types.Package{}
	for _, p := range pkgs {
		byPath[p.PkgPath] = p.Types
	}
	for i := range knownAPIs {
		k := &knownAPIs[i]
		what := k.pkg + "." + k.name
		if k.recv != "" {
			what = "(*" + k.pkg + "." + k.recv + ")." + k.name
		}
		fn := lookupAPI(byPath[k.pkg], k.recv, k.name)
		if fn == nil {
			t.Errorf("%s does not exist", what)
			continue
		}
		if lookupKnown(fn) != &k.advice {
			t.Errorf("lookupKnown(%s) does not find its entry", what)
		}
		if typesutil.CtxParamIndex(fn.Signature()) >= 0 {
			t.Errorf("%s takes a ctx already", what)
		}
		if k.edit == nil {
			continue
		}
		twin := rewritten(byPath[k.pkg], fn, k.edit)
		if twin == nil {
			t.Errorf("%s: rewrite %q does not name a function", what, k.edit.sel)
			continue
		}
		extra := 0
		if k.edit.extra != "" {
			extra = 1
		}
		tp, p := twin.Signature().Params(), fn.Signature().Params()
		if tp.Len() != p.Len()+1+extra || !typesutil.IsContext(tp.At(0).Type()) {
			t.Errorf("%s: %s is not (ctx, %d extra, the call's parameters...)", what, twin, extra)
			continue
		}
		for i := 0; i < p.Len(); i++ {
			if !types.Identical(p.At(i).Type(), tp.At(1+extra+i).Type()) {
				t.Errorf("%s: parameter %d of %s is %s, want %s", what, i, twin, tp.At(1+extra+i).Type(), p.At(i).Type())
			}
		}
	}
}

// lookupAPI finds pkg.name, or the method name of *pkg.recv.
func lookupAPI(pkg *types.Package, recv, name string) *types.Func {
	if pkg == nil {
		return nil
	}
	if recv == "" {
		fn, _ := pkg.Scope().Lookup(name).(*types.Func)
		return fn
	}
	tn, ok := pkg.Scope().Lookup(recv).(*types.TypeName)
	if !ok {
		return nil
	}
	fn, _ := lookupMethod(types.NewPointer(tn.Type()), false, pkg, name)
	return fn
}

// rewritten resolves the callee a rewrite writes: a method of fn's receiver, a function of
// pkg, or a method of a package-level variable ("DefaultResolver.LookupHost"); the Dialer
// prefix rewrite is resolved as the method of a new *net.Dialer.
func rewritten(pkg *types.Package, fn *types.Func, e *rewrite) *types.Func {
	sel := e.sel
	if recv := fn.Signature().Recv(); recv != nil {
		m, _ := lookupMethod(recv.Type(), true, pkg, sel)
		return m
	}
	if head, method, ok := strings.Cut(sel, "{})."); ok && e.prefix == "(&" {
		return lookupAPI(pkg, head, method)
	}
	if v, method, ok := strings.Cut(sel, "."); ok {
		obj, isVar := pkg.Scope().Lookup(v).(*types.Var)
		if !isVar {
			return nil
		}
		m, _ := lookupMethod(obj.Type(), false, pkg, method)
		return m
	}
	f, _ := pkg.Scope().Lookup(sel).(*types.Func)
	return f
}
