// Package ctxorigin answers, on SSA, the one question every deadlinelint rule asks: where does
// this context.Context value come from, and does it still carry the request's deadline?
//
// An answer is a set of Origins, one per way the value can be computed (a phi that merges
// the request ctx with context.Background() has two). The walk follows derivations
// (context.With*, metadata, errgroup, signal.NotifyContext and any function of the package
// that returns a ctx derived from its argument), phis, variables captured by closures
// (spilled to an Alloc and reloaded), tuples, method values and generic instances. What it
// cannot see it leaves out: an empty answer, or one holding only Unknown, means "cannot
// tell", and no rule reports on it.
package ctxorigin

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Kind classifies where a ctx value comes from.
type Kind uint8

const (
	Unknown  Kind = iota // cannot tell; never reported
	Request              // the request ctx of the enclosing request scope
	Root                 // context.Background() or context.TODO()
	Detached             // context.WithoutCancel(...)
	Field                // loaded from a struct field
	Global               // loaded from a package-level variable
	Param                // a parameter of a function that is not a request scope
)

var kindNames = [...]string{"unknown", "request", "root", "detached", "field", "global", "param"}

func (k Kind) String() string { return kindNames[k] }

// Base says what a struct holding a ctx field is.
type Base uint8

const (
	OtherBase  Base = iota // a local value, a parameter, or something else
	ServerBase             // the receiver of a handler method: lives as long as the server
	GlobalBase             // a package-level variable
)

// Origin is one way a ctx value is computed.
type Origin struct {
	Kind Kind
	// Call is the call that created the context: Background/TODO for Root,
	// WithoutCancel for Detached. It is nil when the context was created in another package
	// (known from a Returned fact): then Desc spells it.
	Call *ssa.Call
	// Desc spells, for an origin known from another package's Returned fact, a Root or
	// Detached context ("context.Background() at tracing.go:68"), a Field's name, or a
	// Global ("app.rootCtx").
	Desc string
	// Via is, for a Root or Detached context created in another function and returned from
	// it, the call (in the function the value is in) of the function that returned it: the
	// outermost helper on the way.
	Via *ssa.Call
	// Param is the parameter the value comes from (Param).
	Param *ssa.Parameter
	// FieldVar is the struct field the value was loaded from (Field), and FieldBase what
	// holds that struct.
	FieldVar  *types.Var
	FieldBase Base
	baseParam *ssa.Parameter // Field: the parameter holding the struct, when FieldBase is OtherBase
	// Global is the package-level variable (Global).
	Global *ssa.Global
	// Pos is where the origin is in the source: the creating call, or the load.
	Pos token.Pos
	// Deadline is true when a deadline (context.WithTimeout, WithDeadline, ...) is applied
	// between the origin and the value.
	Deadline bool
	// Opaque is true when the value passed through a function whose body was not seen, so
	// whether it gained a deadline is not known.
	Opaque bool
}

func (o Origin) String() string {
	s := o.Kind.String()
	switch o.Kind {
	case Param:
		s += " " + o.Param.Name()
	case Field, Global:
		s += " " + o.Name()
	}
	if o.Deadline {
		s += "+deadline"
	}
	if o.Opaque {
		s += "+opaque"
	}
	return s
}

// Name names the field (Field) or the package-level variable (Global) the value comes from.
func (o Origin) Name() string {
	switch {
	case o.Kind == Field && o.FieldVar != nil:
		return o.FieldVar.Name()
	case o.Kind == Global && o.Global != nil:
		return o.Global.Name()
	}
	return o.Desc // known from another package's Returned fact
}

// key identifies an origin for de-duplication.
type key struct {
	kind     Kind
	site     any
	deadline bool
	opaque   bool
}

func (o Origin) key() key {
	var site any
	switch o.Kind {
	case Root, Detached:
		site = o.Call
		if o.Call == nil {
			site = o.Desc
		}
	case Param:
		site = o.Param
	case Field:
		site = fmt.Sprint(o.Pos, o.FieldBase)
	case Global:
		site = o.Global
		if o.Global == nil {
			site = o.Desc
		}
	}
	return key{o.Kind, site, o.Deadline, o.Opaque}
}

// Set is the origins of one value, without duplicates.
type Set []Origin

// Has reports whether any origin of s is of kind k.
func (s Set) Has(k Kind) bool {
	for _, o := range s {
		if o.Kind == k {
			return true
		}
	}
	return false
}

// Only reports whether s holds at least one origin and every one is of kind k: a ctx that is
// the request's (Request) on every path.
func (s Set) Only(k Kind) bool {
	for _, o := range s {
		if o.Kind != k {
			return false
		}
	}
	return len(s) > 0
}

// Known reports whether s holds at least one origin that is not Unknown.
func (s Set) Known() bool {
	for _, o := range s {
		if o.Kind != Unknown {
			return true
		}
	}
	return false
}

func union(sets ...Set) Set {
	var out Set
	seen := make(map[key]bool)
	for _, s := range sets {
		for _, o := range s {
			if k := o.key(); !seen[k] {
				seen[k] = true
				out = append(out, o)
			}
		}
	}
	return out
}

// mapSet applies f to every origin of s.
func mapSet(s Set, f func(Origin) Origin) Set {
	out := make(Set, 0, len(s))
	for _, o := range s {
		out = append(out, f(o))
	}
	return union(out)
}

func withDeadline(s Set) Set {
	return mapSet(s, func(o Origin) Origin { o.Deadline = true; return o })
}

func opaque(s Set) Set {
	return mapSet(s, func(o Origin) Origin { o.Opaque = true; return o })
}

var unknown = Set{{Kind: Unknown}}
