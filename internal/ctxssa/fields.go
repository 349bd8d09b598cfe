package ctxssa

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// A logger that keeps the ctx it is given in a field of the entry it returns, to read the
// trace and the fields from it when a line is written (go-zero's logx.WithContext returning
// &richLogger{ctx: ctx}), does nothing with the ctx a deadline bounds: the field is only read.
// Storing a ctx in such a field is then a read of it. A field qualifies when nothing outside
// the package can name it (unexported, of a type the package declares) and every use of it
// in the package writes it or reads values from it: a read-only ctx field.

// ctxField returns the origin of the field v selects, if it is an unexported ctx field of a
// struct the package declares; nil otherwise.
func ctxField(pkg *types.Package, v *types.Var) *types.Var {
	if v == nil || !v.IsField() {
		return nil
	}
	v = v.Origin()
	if v.Pkg() != pkg || v.Exported() || !typesutil.IsContext(v.Type()) {
		return nil
	}
	return v
}

// fieldOf returns the ctx field the instruction (a FieldAddr or a Field) selects, or nil.
func fieldOf(pkg *types.Package, instr ssa.Instruction) *types.Var {
	switch instr := instr.(type) {
	case *ssa.FieldAddr:
		return ctxField(pkg, typesutil.FieldVar(instr.X.Type(), instr.Field))
	case *ssa.Field:
		return ctxField(pkg, typesutil.FieldVar(instr.X.Type(), instr.Field))
	}
	return nil
}

// fieldUses indexes the instructions of the package's functions that select one of its ctx
// fields, made on first need. A field also selected in a generated file, whose functions are
// not among those, is unseen: its uses are not all in sight.
func (ig *ignoring) fieldUses() map[*types.Var][]ssa.Instruction {
	if ig.fields != nil {
		return ig.fields
	}
	ig.fields = make(map[*types.Var][]ssa.Instruction)
	for _, fn := range ig.res.SSA().Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if f := fieldOf(ig.pass.Pkg, instr); f != nil {
					ig.fields[f] = append(ig.fields[f], instr)
				}
			}
		}
	}
	for sel, s := range ig.pass.TypesInfo.Selections {
		v, _ := s.Obj().(*types.Var)
		if f := ctxField(ig.pass.Pkg, v); f != nil && ig.res.Generated(sel.Pos()) {
			ig.unseen[f] = true
		}
	}
	return ig.fields
}

// storedForReads reports whether the Store of the ctx value v into the field address addr
// keeps it only to be read: the field is a read-only ctx field (see above) in the walker's
// mode, every value loaded from it doing no work (noWork). While a field's loads are being
// judged, only a copy of the field into itself counts as a read (a logger's copy of itself,
// &richLogger{ctx: l.ctx}); any other way back to it does not, so that no answer given on the
// way (a function's, kept by the walker's memo) rests on an assumption about the field.
func (ig *ignoring) storedForReads(addr *ssa.FieldAddr, v ssa.Value, depth int) bool {
	if ig.mode == measures || ig.mode == inspects {
		return false
	}
	f := fieldOf(ig.pass.Pkg, addr)
	if f == nil {
		return false
	}
	uses := ig.fieldUses()
	if ig.unseen[f] {
		return false
	}
	if ig.judging[f] {
		return ig.copyOf(v, f)
	}
	ig.judging[f] = true
	defer delete(ig.judging, f)
	for _, instr := range uses[f] {
		if !ig.fieldUseReads(instr.(ssa.Value), depth) {
			return false
		}
	}
	return true
}

// copyOf reports whether v is the value of the field f itself: loaded through its address, or
// taken from a struct value.
func (ig *ignoring) copyOf(v ssa.Value, f *types.Var) bool {
	switch v := v.(type) {
	case *ssa.UnOp:
		fa, ok := v.X.(*ssa.FieldAddr)
		return ok && v.Op == token.MUL && fieldOf(ig.pass.Pkg, fa) == f
	case *ssa.Field:
		return fieldOf(ig.pass.Pkg, v) == f
	}
	return false
}

// fieldUseReads reports whether v, a FieldAddr or Field selecting a read-only ctx field
// candidate, writes the field or reads values from what it holds.
func (ig *ignoring) fieldUseReads(v ssa.Value, depth int) bool {
	if _, value := v.(*ssa.Field); value {
		return ig.noWork(v, depth+1)
	}
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if ref.Addr != v {
				return false // the field's address stored away
			}
		case *ssa.UnOp:
			if ref.Op != token.MUL || !ig.noWork(ref, depth+1) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// readOnlyFields is the syntactic counterpart for a dependency's package, whose SSA is not
// built: the unexported ctx fields of its structs every use of which, in its files, writes the
// field (x.f = e, T{f: e}), copies it into such a field, or reads values from it as a reader
// reads its ctx parameter (x.f.Value(k), x.f == nil, reader(x.f)). It is a greatest fixpoint
// beside the readers' own (shrinkReaders): reads says which calls read.
type readOnlyFields struct {
	info *types.Info
	pkg  *types.Package
	uses map[*types.Var][]fieldUse // every selection of a candidate, with the nodes above it
	ok   map[*types.Var]bool       // the candidates still standing
}

// A fieldUse is one selection x.f of a field, with the nodes above it.
type fieldUse struct {
	sel   *ast.SelectorExpr
	stack []ast.Node
}

// newReadOnlyFields collects the candidates of the package's files and their selections.
func newReadOnlyFields(info *types.Info, pkg *types.Package, files []*ast.File) *readOnlyFields {
	r := &readOnlyFields{info: info, pkg: pkg, uses: make(map[*types.Var][]fieldUse), ok: make(map[*types.Var]bool)}
	for _, file := range files {
		var stack []ast.Node
		ast.Inspect(file, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			if sel, isSel := n.(*ast.SelectorExpr); isSel {
				if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
					v, _ := s.Obj().(*types.Var)
					if f := ctxField(pkg, v); f != nil {
						r.uses[f] = append(r.uses[f], fieldUse{sel, append([]ast.Node(nil), stack...)})
						r.ok[f] = true
					}
				}
			}
			stack = append(stack, n)
			return true
		})
	}
	return r
}

// shrink drops the candidates with a use that neither writes, copies nor reads, calls judged by
// reads; it reports whether it dropped any.
func (r *readOnlyFields) shrink(reads func(*types.Func, *ast.CallExpr) bool) bool {
	changed := false
	for f, uses := range r.uses {
		if !r.ok[f] {
			continue
		}
		for _, u := range uses {
			if !r.written(u) && !r.readUse(u.sel, u.stack, reads) {
				delete(r.ok, f)
				changed = true
				break
			}
		}
	}
	return changed
}

// written reports whether the use is the target of an assignment: x.f = e.
func (r *readOnlyFields) written(u fieldUse) bool {
	if len(u.stack) == 0 {
		return false
	}
	as, ok := u.stack[len(u.stack)-1].(*ast.AssignStmt)
	if !ok {
		return false
	}
	for _, lhs := range as.Lhs {
		if lhs == u.sel {
			return true
		}
	}
	return false
}

// readUse reports whether e, a ctx, under the nodes stack, is read (readUseBy) or stored in a
// read-only field candidate still standing.
func (r *readOnlyFields) readUse(e ast.Expr, stack []ast.Node, reads func(*types.Func, *ast.CallExpr) bool) bool {
	return readUseBy(r.info, e, stack, reads) || r.storedIn(e, stack)
}

// storedIn reports whether e is the value stored in a read-only field candidate: T{f: e},
// T{e} in f's position, or x.f = e.
func (r *readOnlyFields) storedIn(e ast.Expr, stack []ast.Node) bool {
	if len(stack) == 0 {
		return false
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.KeyValueExpr:
		key, ok := p.Key.(*ast.Ident)
		if !ok || p.Value != e {
			return false
		}
		v, _ := r.info.Uses[key].(*types.Var)
		return r.ok[ctxField(r.pkg, v)]
	case *ast.CompositeLit:
		s, ok := r.info.TypeOf(p).Underlying().(*types.Struct)
		if !ok {
			return false
		}
		for i, elt := range p.Elts {
			if elt == e && i < s.NumFields() {
				return r.ok[ctxField(r.pkg, s.Field(i))]
			}
		}
	case *ast.AssignStmt:
		if len(p.Lhs) != len(p.Rhs) {
			return false
		}
		for i, rhs := range p.Rhs {
			if rhs != e {
				continue
			}
			sel, ok := p.Lhs[i].(*ast.SelectorExpr)
			if !ok {
				return false
			}
			if s := r.info.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
				v, _ := s.Obj().(*types.Var)
				return r.ok[ctxField(r.pkg, v)]
			}
		}
	}
	return false
}
