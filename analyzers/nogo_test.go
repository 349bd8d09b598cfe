package analyzers_test

import (
	"bytes"
	"encoding/gob"
	"flag"
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/deadlinelint/deadlinelint/analyzers"
)

// TestNogoRequirements checks what Bazel's nogo (and any other driver of the vet protocol)
// needs of the analyzers: a valid graph, each fact type a pointer that gob encodes and decodes
// (facts cross process boundaries between packages), and no flag that must be set.
func TestNogoRequirements(t *testing.T) {
	all := analyzers.All()
	if err := analysis.Validate(all); err != nil {
		t.Fatalf("analysis.Validate: %v", err)
	}
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer)
	facts := 0
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, req := range a.Requires {
			visit(req)
		}
		for _, f := range a.FactTypes {
			facts++
			checkFact(t, a, f)
		}
		a.Flags.VisitAll(func(fl *flag.Flag) {
			if fl.Value.String() != fl.DefValue {
				t.Errorf("%s: flag -%s is %q before any flag is parsed, want its default %q (state set outside the flag)", a.Name, fl.Name, fl.Value.String(), fl.DefValue)
			}
		})
	}
	for _, a := range all {
		visit(a)
	}
	if facts == 0 {
		t.Fatal("no fact types found: the walk over the analyzers is broken")
	}
}

// checkFact gob-encodes a fact of f's type, as the vet protocol writes it to the next package's
// process, and reads it back.
func checkFact(t *testing.T, a *analysis.Analyzer, f analysis.Fact) {
	t.Helper()
	typ := reflect.TypeOf(f)
	if typ.Kind() != reflect.Pointer {
		t.Errorf("%s: fact type %v is not a pointer", a.Name, typ)
		return
	}
	f = reflect.New(typ.Elem()).Interface().(analysis.Fact)
	fill(reflect.ValueOf(f).Elem(), 0)
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(f); err != nil {
		t.Errorf("%s: fact type %v does not gob-encode: %v", a.Name, typ, err)
		return
	}
	back := reflect.New(typ.Elem()).Interface()
	if err := gob.NewDecoder(&buf).Decode(back); err != nil {
		t.Errorf("%s: fact type %v does not gob-decode: %v", a.Name, typ, err)
		return
	}
	if !reflect.DeepEqual(f, back) {
		t.Errorf("%s: fact type %v changes on its way through gob:\n%#v\n%#v", a.Name, typ, f, back)
	}
}

// fill gives every exported field of v a value other than its zero, so that a field gob
// cannot carry shows up as a difference.
func fill(v reflect.Value, depth int) {
	if depth > 4 || !v.CanSet() {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), depth+1)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, depth+1)
		fill(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	}
}
