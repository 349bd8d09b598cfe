package detach

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/deadlinelint/deadlinelint/internal/ctxssa"
	"github.com/deadlinelint/deadlinelint/internal/directive"
	"github.com/deadlinelint/deadlinelint/internal/report"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// reason says whether a WithoutCancel call comes with a comment saying why.
type reason int

const (
	hasReason      reason = iota // a comment, or a //deadlinelint:detach <reason>
	noReason                     // nothing
	emptyDirective               // a //deadlinelint:detach with no reason
)

// reasons finds the reason comments of WithoutCancel calls, and remembers which
// //deadlinelint:detach directives were used.
type reasons struct {
	pass *analysis.Pass
	res  *ctxssa.Result
	used map[*directive.Directive]bool
}

func newReasons(pass *analysis.Pass, res *ctxssa.Result) *reasons {
	return &reasons{pass: pass, res: res, used: make(map[*directive.Directive]bool)}
}

// of returns the reason given for the WithoutCancel call. A call whose syntax cannot be found
// has, as far as the rule can tell, a reason.
func (r *reasons) of(call *ssa.Call) reason {
	ce := r.res.CallExpr(call.Pos())
	file := report.FileOf(r.pass, call.Pos())
	if ce == nil || file == nil {
		return hasReason
	}
	stmt := enclosingStatement(file, ce)
	why := noReason
	for _, pos := range []token.Pos{ce.Pos(), stmt.Pos()} {
		for _, dir := range r.res.Directives.At(pos, directive.Detach) {
			r.used[dir] = true
			if dir.Reason != "" {
				why = hasReason
			} else if why == noReason {
				why = emptyDirective
			}
		}
	}
	if why == noReason && (r.hasComment(file, ce, stmt) || r.enclosingReason(file, ce)) {
		why = hasReason
	}
	return why
}

// enclosingReason reports whether a reason sits above a statement enclosing the call (a go or
// defer statement, a block's statement), or in the doc comment of the function declaring it
// when that function is a helper whose job is the detach: one that returns a ctx, or runs a
// callback it is given (cleanup.Do(ctx, func(ctx))). Documented, such a helper is the reason
// for all its callers. The doc comment of any other function describes the function, not the
// detach.
func (r *reasons) enclosingReason(file *ast.File, ce *ast.CallExpr) bool {
	path, _ := astutil.PathEnclosingInterval(file, ce.Pos(), ce.End())
	for i, n := range path {
		switch n := n.(type) {
		case *ast.FuncLit:
			if !startedHere(path[i+1:], n) {
				return false // a literal stored or returned runs later: what is above it is about that
			}
		case *ast.BlockStmt:
		case ast.Stmt:
			if r.commentAbove(file, n) {
				return true
			}
			if block, ok := path[i+1].(*ast.BlockStmt); ok && r.paragraphComment(file, block, n) {
				return true
			}
		case *ast.FuncDecl:
			if isDetachHelper(r.pass.TypesInfo.Defs[n.Name]) && hasProse(n.Doc) {
				return true
			}
			return r.wrapperReason(n)
		}
	}
	return false
}

// paragraphComment reports whether a prose comment sits directly above the declarations, or
// the statements that detach too, that directly precede stmt in block, with no blank line
// between ("// the file is cached past the request", then "var err error", then the call; "//
// post-response work, which must outlive the client", then two go statements each handing a
// WithoutCancel on): declarations only prepare the statement, and a comment above a run of
// detaches is about each. A comment above a statement doing other work is about that work.
func (r *reasons) paragraphComment(file *ast.File, block *ast.BlockStmt, stmt ast.Stmt) bool {
	i := 0
	for i < len(block.List) && block.List[i] != stmt {
		i++
	}
	for ; i > 0 && r.line(block.List[i-1].End()) == r.line(block.List[i].Pos())-1; i-- {
		if _, ok := block.List[i-1].(*ast.DeclStmt); !ok && !r.detaches(block.List[i-1]) {
			return false
		}
		if r.commentAbove(file, block.List[i-1]) {
			return true
		}
	}
	return false
}

// detaches reports whether the statement calls context.WithoutCancel.
func (r *reasons) detaches(stmt ast.Stmt) bool {
	found := false
	ast.Inspect(stmt, func(n ast.Node) bool {
		if ce, ok := n.(*ast.CallExpr); ok && typesutil.IsFunc(typeutil.Callee(r.pass.TypesInfo, ce), typesutil.ContextPath, "WithoutCancel") {
			found = true
		}
		return !found
	})
	return found
}

// wrapperReason reports whether decl is a method of a wrapper whose job is the detach: its body
// is one statement handing the detached ctx on (return p.next.Get(context.WithoutCancel(ctx),
// key)), and the package makes the type in a documented function that hands it out as an
// interface (NewSeveringStore(s Store) Store { return &severing{s} }). Documented there, the
// wrapper is the reason for every such method, as a documented detach helper is for its
// callers. A type's own doc comment says what the type is, not why it detaches.
func (r *reasons) wrapperReason(decl *ast.FuncDecl) bool {
	if decl.Recv == nil || decl.Body == nil || len(decl.Body.List) != 1 {
		return false
	}
	fn, ok := r.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if !ok {
		return false
	}
	return r.wrapperMadeWithReason(typesutil.Named(fn.Signature().Recv().Type()), 0)
}

// wrapperMadeWithReason reports whether the package hands out named as an interface from a
// documented function, or from a method of a wrapper that is itself made so (a severing
// store's SnapshotReader returns a severing reader).
func (r *reasons) wrapperMadeWithReason(named *types.Named, depth int) bool {
	if named == nil || depth > 2 {
		return false
	}
	for _, f := range r.pass.Files {
		for _, d := range f.Decls {
			d, ok := d.(*ast.FuncDecl)
			if !ok || !r.handsOutAsInterface(d, named) {
				continue
			}
			if hasProse(d.Doc) {
				return true
			}
			if fn, ok := r.pass.TypesInfo.Defs[d.Name].(*types.Func); ok && fn.Signature().Recv() != nil {
				if recv := typesutil.Named(fn.Signature().Recv().Type()); recv != named && r.wrapperMadeWithReason(recv, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// handsOutAsInterface reports whether decl's one result is an interface and it returns a
// value of type named (or a pointer to one) as it.
func (r *reasons) handsOutAsInterface(decl *ast.FuncDecl, named *types.Named) bool {
	fn, ok := r.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if !ok || fn.Signature().Results().Len() != 1 || !types.IsInterface(fn.Signature().Results().At(0).Type()) {
		return false
	}
	return r.returnsValueOf(decl, named)
}

// returnsValueOf reports whether decl returns a value of type named, or a pointer to one.
func (r *reasons) returnsValueOf(decl *ast.FuncDecl, named *types.Named) bool {
	if decl.Body == nil {
		return false
	}
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || found {
			return !found
		}
		for _, e := range ret.Results {
			if typesutil.Named(r.pass.TypesInfo.TypeOf(e)) == named {
				found = true
			}
		}
		return !found
	})
	return found
}

// startedHere reports whether the function literal lit, whose enclosing nodes are outer, is
// called by a go or defer statement on the spot: go func() { ... }().
func startedHere(outer []ast.Node, lit *ast.FuncLit) bool {
	if len(outer) < 2 {
		return false
	}
	call, ok := outer[0].(*ast.CallExpr)
	if !ok || call.Fun != lit {
		return false
	}
	switch outer[1].(type) {
	case *ast.GoStmt, *ast.DeferStmt:
		return true
	}
	return false
}

// commentAbove reports whether a prose comment ends on its own line directly above n.
func (r *reasons) commentAbove(file *ast.File, n ast.Node) bool {
	line := r.line(n.Pos())
	for _, group := range file.Comments {
		if r.line(group.End()) != line-1 {
			continue
		}
		c := group.List[len(group.List)-1]
		return isProse(c) && !codeBefore(r.pass.Fset.File(c.Pos()), file, c)
	}
	return false
}

// isDetachHelper reports whether obj is a function that returns a context.Context or takes a
// function parameter.
func isDetachHelper(obj types.Object) bool {
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Signature()
	if typesutil.ReturnsContext(sig) {
		return true
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if _, ok := sig.Params().At(i).Type().Underlying().(*types.Signature); ok {
			return true
		}
	}
	return false
}

// hasProse reports whether the comment group says something that is a reason.
func hasProse(g *ast.CommentGroup) bool {
	if g == nil {
		return false
	}
	for _, c := range g.List {
		if isProse(c) {
			return true
		}
	}
	return false
}

// stray returns the //deadlinelint:detach directives that applied to no call, outside
// generated files.
func (r *reasons) stray() []*directive.Directive {
	var out []*directive.Directive
	for _, dir := range r.res.Directives.All() {
		if dir.Kind == directive.Detach && !r.used[dir] && !r.res.Generated(dir.Pos) {
			out = append(out, dir)
		}
	}
	return out
}

// enclosingStatement returns the innermost statement, or declaration spec, that holds ce.
func enclosingStatement(file *ast.File, ce *ast.CallExpr) ast.Node {
	path, _ := astutil.PathEnclosingInterval(file, ce.Pos(), ce.End())
	for _, n := range path {
		switch n.(type) {
		case ast.Stmt, ast.Spec, ast.Decl:
			return n
		}
	}
	return ce
}

// hasComment reports whether a comment that is not a directive sits where it explains ce:
// on the line of the call or of the first line of its statement; on its own line directly
// above the statement; or, inside a multi-line statement, on its own line directly above the
// call.
func (r *reasons) hasComment(file *ast.File, ce *ast.CallExpr, stmt ast.Node) bool {
	callLine, stmtLine := r.line(ce.Pos()), r.line(stmt.Pos())
	for _, group := range file.Comments {
		if r.line(group.End()) < stmtLine-1 || r.line(group.Pos()) > callLine {
			continue
		}
		for _, c := range group.List {
			if !isProse(c) {
				continue
			}
			first, last := r.line(c.Pos()), r.line(c.End())
			switch {
			case first == callLine || first == stmtLine:
				return true
			case last == stmtLine-1 || (last == callLine-1 && last > stmtLine):
				if !codeBefore(r.pass.Fset.File(c.Pos()), file, c) {
					return true
				}
			}
		}
	}
	return false
}

func (r *reasons) line(pos token.Pos) int { return r.pass.Fset.Position(pos).Line }

// isProse reports whether c says something that can be a reason: it is neither empty, nor a
// directive such as //deadlinelint:ignore, //nolint:... or //go:..., nor a note of unfinished
// work (TODO, FIXME, XXX), which says the opposite of a decision.
func isProse(c *ast.Comment) bool {
	text := strings.TrimSpace((&ast.CommentGroup{List: []*ast.Comment{c}}).Text())
	return text != "" && !directive.Unfinished(text)
}

// codeBefore reports whether code precedes the comment c on its line: c trails a statement
// (or an opening brace) and explains that, not what follows.
func codeBefore(tf *token.File, file *ast.File, c *ast.Comment) bool {
	lineStart := tf.LineStart(tf.Line(c.Pos()))
	found := false
	ast.Inspect(file, func(n ast.Node) bool {
		if found || n == nil || n.End() <= lineStart || n.Pos() >= c.Pos() {
			return false // outside the stretch [lineStart, c)
		}
		if _, ok := n.(*ast.CommentGroup); ok {
			return false
		}
		if n.Pos() >= lineStart || n.End() <= c.Pos() {
			found = true // a token of n starts or ends on the line, before c
		}
		return !found
	})
	return found
}
