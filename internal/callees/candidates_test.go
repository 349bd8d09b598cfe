package callees

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// The index by method names keeps every type that implements an interface, through its
// pointer or by promotion from an embedded field, and only drops those missing a name.
func TestCandidatesKeepEveryImplementer(t *testing.T) {
	const src = `package p

type Store interface {
	Get(key string) string
	Put(key, value string)
}

type mem struct{}                       // both, on the value
func (mem) Get(string) string    { return "" }
func (mem) Put(string, string)   {}

type disk struct{}                      // both, on the pointer
func (*disk) Get(string) string  { return "" }
func (*disk) Put(string, string) {}

type cached struct{ *disk }             // both, promoted from an embedded pointer

type wrapped struct{ Store }            // both, promoted from an embedded interface

type readOnly struct{}                  // Get only
func (readOnly) Get(string) string { return "" }

type other struct{}                     // neither
func (other) Close() error { return nil }

type Empty interface{}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := new(types.Config).Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	owned := func(types.Object) bool { return true }
	names := func(iface string) []string {
		var out []string
		it := pkg.Scope().Lookup(iface).Type().Underlying().(*types.Interface)
		for _, tn := range new(Types).candidates(pkg, fset, owned, it) {
			if typesutil.Implementing(tn.Type(), it) != nil {
				out = append(out, tn.Name())
			}
		}
		return out
	}
	if got, want := names("Store"), []string{"cached", "disk", "mem", "wrapped"}; !slices.Equal(got, want) {
		t.Errorf("implementers of Store: got %v, want %v", got, want)
	}
	if got, want := names("Empty"), []string{"cached", "disk", "mem", "other", "readOnly", "wrapped"}; !slices.Equal(got, want) {
		t.Errorf("implementers of the empty interface: got %v, want %v", got, want)
	}
	// Ownership is asked of each type: a package whose first type (by name) is not owned — a
	// generated file that a //line directive places in the module cache — still gives its
	// owned ones.
	notCached := func(o types.Object) bool { return o.Name() != "cached" }
	var got []string
	for _, tn := range new(Types).candidates(pkg, fset, notCached, pkg.Scope().Lookup("Store").Type().Underlying().(*types.Interface)) {
		got = append(got, tn.Name())
	}
	if want := []string{"disk", "mem", "wrapped"}; !slices.Equal(got, want) {
		t.Errorf("candidates when the first type is not owned: got %v, want %v", got, want)
	}
	// Types of a package the caller does not own are never candidates.
	none := func(types.Object) bool { return false }
	it := pkg.Scope().Lookup("Store").Type().Underlying().(*types.Interface)
	if got := new(Types).candidates(pkg, fset, none, it); len(got) != 0 {
		t.Errorf("candidates of a package not owned: %v", got)
	}
}
