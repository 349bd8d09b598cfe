package directive

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		text string
		ok   bool
		want Directive
	}{
		{"//deadlinelint:ignore ctxbackground the cache fill is bounded", true,
			Directive{Kind: Ignore, Rules: []string{"ctxbackground"}, Reason: "the cache fill is bounded"}},
		{"//deadlinelint:ignore ctxflow,detach  two rules ", true,
			Directive{Kind: Ignore, Rules: []string{"ctxflow", "detach"}, Reason: "two rules"}},
		{"//deadlinelint:ignore ctxbackground", true, Directive{Kind: Ignore, Rules: []string{"ctxbackground"}}},
		{"//deadlinelint:ignore ctxbackground // want `x`", true, Directive{Kind: Ignore, Rules: []string{"ctxbackground"}}},
		{"//deadlinelint:detach audit rows outlive the caller", true, Directive{Kind: Detach, Reason: "audit rows outlive the caller"}},
		{"//deadlinelint:detach", true, Directive{Kind: Detach}},
		{"//deadlinelint:scope", true, Directive{Kind: Scope}},
		{"// deadlinelint:scope", false, Directive{}}, // a space after // makes it prose
		{"//deadlinelint:frobnicate x", false, Directive{}},
		{"//nolint:deadlinelint", false, Directive{}},
	}
	for _, tt := range tests {
		got, ok := Parse(tt.text)
		if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) = %+v, %v; want %+v, %v", tt.text, got, ok, tt.want, tt.ok)
		}
	}
}

const src = `package p

//deadlinelint:ignore ctxbackground reason above
var a = 1

var b = 2 //deadlinelint:ignore ctxflow reason trailing

var c = 3

func f() {
	if c > 0 {
		c++
	} //deadlinelint:ignore ctxflow after a closing brace
	c--
}
`

func TestIndexAt(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	ix := Collect(fset, []*ast.File{f})
	line := func(n int) token.Pos { return fset.File(f.Pos()).LineStart(n) }
	if got := ix.At(line(4), Ignore); len(got) != 1 || got[0].Rules[0] != "ctxbackground" {
		t.Errorf("line 4: got %v, want the directive of line 3", got)
	}
	if got := ix.At(line(6), Ignore); len(got) != 1 || got[0].Rules[0] != "ctxflow" || !got[0].Trailing {
		t.Errorf("line 6: got %v, want the trailing directive", got)
	}
	if got := ix.At(line(7), Ignore); len(got) != 0 {
		t.Errorf("line 7: a trailing directive must not apply to the next line, got %v", got)
	}
	if got := ix.At(line(15), Ignore); len(got) != 0 {
		t.Errorf("line 15: a directive after a closing brace trails it, got %v", got)
	}
	if got := len(ix.All()); got != 3 {
		t.Errorf("All() has %d directives, want 3", got)
	}
}

// FuzzParse checks that Parse never panics and that what it returns is consistent with its
// input: rules and reasons are trimmed text that occurs in the comment.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"//deadlinelint:ignore ctxbackground why", "//deadlinelint:detach", "//deadlinelint:scope",
		"//deadlinelint:ignore a,b,,c  r // c", "//deadlinelint:", "//deadlinelint:ignore",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d, ok := Parse(text)
		if !ok {
			if d.Kind != 0 || d.Rules != nil || d.Reason != "" {
				t.Fatalf("not ok but non-zero result %+v", d)
			}
			return
		}
		if !strings.HasPrefix(text, prefix) {
			t.Fatalf("ok for %q without the prefix", text)
		}
		for _, r := range d.Rules {
			if r == "" || strings.TrimSpace(r) != r || !strings.Contains(text, r) {
				t.Fatalf("bad rule %q from %q", r, text)
			}
		}
		if strings.TrimSpace(d.Reason) != d.Reason || !strings.Contains(text, d.Reason) {
			t.Fatalf("bad reason %q from %q", d.Reason, text)
		}
		if d.Kind != Ignore && d.Rules != nil {
			t.Fatalf("rules on a %v directive", d.Kind)
		}
	})
}

func TestUnfinished(t *testing.T) {
	for text, want := range map[string]bool{
		"TODO: keep the deadline":     true,
		"  fixme later":               true,
		"XXX racy":                    true,
		"Convert detaches on purpose": false,
		"":                            false,
	} {
		if got := Unfinished(text); got != want {
			t.Errorf("Unfinished(%q) = %v, want %v", text, got, want)
		}
	}
}
