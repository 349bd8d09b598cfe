package missingdeadline

import (
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// loaded returns the values that a load from addr can read, when they are all visible in
// this package: a local variable, a variable captured by a closure, a struct field or a
// package-level variable. It returns nil when it cannot tell.
func (d *defaults) loaded(addr ssa.Value) []ssa.Value {
	switch a := addr.(type) {
	case *ssa.Alloc:
		return localStores(a)
	case *ssa.FreeVar:
		var out []ssa.Value
		for _, b := range bindings(a) {
			vs := d.loaded(b)
			if vs == nil {
				return nil
			}
			out = append(out, vs...)
		}
		return out
	case *ssa.Global:
		return d.storedTo(a)
	case *ssa.FieldAddr:
		return d.storedTo(typesutil.FieldVar(a.X.Type(), a.Field))
	}
	return nil
}

// localStores returns the values stored to the local variable alloc, or nil when something
// else may assign it: its address escapes, or a closure that captures it stores to it. Closures
// that only read it (a client captured by a callback) are fine.
func localStores(alloc *ssa.Alloc) []ssa.Value {
	if !ctxorigin.OnlyLocalStores(alloc) {
		return nil
	}
	var out []ssa.Value
	for _, ref := range *alloc.Referrers() {
		if st, ok := ref.(*ssa.Store); ok {
			out = append(out, st.Val)
		}
	}
	return out
}

// storedTo returns the values the package's functions store to a struct field or a global.
func (d *defaults) storedTo(key any) []ssa.Value {
	if d.stores == nil {
		d.stores = make(map[any][]ssa.Value)
		funcs := d.info.Funcs
		if initFn := d.info.Pkg.Func("init"); initFn != nil {
			funcs = append(funcs[:len(funcs):len(funcs)], initFn)
		}
		for _, fn := range funcs {
			d.indexStores(fn)
		}
	}
	return d.stores[key]
}

func (d *defaults) indexStores(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			switch a := st.Addr.(type) {
			case *ssa.Global:
				d.stores[a] = append(d.stores[a], st.Val)
			case *ssa.FieldAddr:
				if v := typesutil.FieldVar(a.X.Type(), a.Field); v != nil {
					d.stores[v] = append(d.stores[v], st.Val)
				}
			}
		}
	}
}

// bindings returns the values the MakeClosure instructions creating fv's function bind to fv.
func bindings(fv *ssa.FreeVar) []ssa.Value {
	fn := fv.Parent()
	refs := fn.Referrers()
	if fn.Parent() == nil || refs == nil {
		return nil
	}
	idx := -1
	for i, x := range fn.FreeVars {
		if x == fv {
			idx = i
		}
	}
	var out []ssa.Value
	for _, ref := range *refs {
		if mc, ok := ref.(*ssa.MakeClosure); ok && mc.Fn == fn && idx >= 0 {
			out = append(out, mc.Bindings[idx])
		}
	}
	return out
}

// returned returns the values fn returns as result idx.
func returned(fn *ssa.Function, idx int) []ssa.Value {
	var out []ssa.Value
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && idx < len(ret.Results) {
			out = append(out, ret.Results[idx])
		}
	}
	return out
}
