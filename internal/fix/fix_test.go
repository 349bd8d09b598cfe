package fix

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// reader serves files from a map, failing for unknown names.
func reader(files map[string]string) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		s, ok := files[name]
		if !ok {
			return nil, os.ErrNotExist
		}
		return []byte(s), nil
	}
}

// replace returns the edit replacing the first occurrence of old in file.
func replace(t *testing.T, files map[string]string, file, old, new string) Edit {
	t.Helper()
	i := strings.Index(files[file], old)
	if i < 0 {
		t.Fatalf("%q not in %s", old, file)
	}
	return Edit{File: file, Start: i, End: i + len(old), NewText: new}
}

func TestApply(t *testing.T) {
	files := map[string]string{
		"a.go": "package a\n\nfunc f() {\n\tbad()\n\tbad2()\n}\n",
		"b.go": "package b\n\nvar x=bad()\n", // not gofmt-formatted: stays unformatted
	}
	badA := replace(t, files, "a.go", "bad()", "good()")
	bad2 := replace(t, files, "a.go", "bad2()", "good2()")
	overlapping := replace(t, files, "a.go", "bad()\n\tbad2", "x")
	badB := replace(t, files, "b.go", "bad", "good")
	res, err := Apply([]Fix{
		{Name: "a.go:4:2: bad", Edits: []Edit{badA}},
		{Name: "a.go:4:2: bad (duplicate)", Edits: []Edit{badA}},
		{Name: "a.go:4:2: overlapping", Edits: []Edit{overlapping}},
		{Name: "a.go:5:2: bad2 and b", Edits: []Edit{bad2, badB}},
	}, reader(files))
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, true, false, true}; fmt.Sprint(res.Applied) != fmt.Sprint(want) {
		t.Errorf("Applied = %v, want %v", res.Applied, want)
	}
	if len(res.Skipped) != 1 || !strings.HasPrefix(res.Skipped[0], "a.go:4:2: overlapping: fix skipped") {
		t.Errorf("Skipped = %q, want one note for the overlapping fix", res.Skipped)
	}
	got := map[string]string{}
	for _, f := range res.Files {
		got[f.Name] = string(f.New)
	}
	want := map[string]string{
		"a.go": "package a\n\nfunc f() {\n\tgood()\n\tgood2()\n}\n",
		"b.go": "package b\n\nvar x=good()\n",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("new files = %q, want %q", got, want)
	}
}

func TestApplyKeepsGofmt(t *testing.T) {
	files := map[string]string{"a.go": "package a\n\nvar (\n\tx  = f()\n\tyy = 2\n)\n"}
	e := replace(t, files, "a.go", "x  =", "xxxx =")
	res, err := Apply([]Fix{{Name: "fix", Edits: []Edit{e}}}, reader(files))
	if err != nil {
		t.Fatal(err)
	}
	want := "package a\n\nvar (\n\txxxx = f()\n\tyy   = 2\n)\n"
	if len(res.Files) != 1 || string(res.Files[0].New) != want {
		t.Errorf("got %q, want gofmt-aligned %q", res.Files, want)
	}
}

func TestApplyRejectsStaleFile(t *testing.T) {
	files := map[string]string{"a.go": "package a\n"}
	_, err := Apply([]Fix{{Name: "fix", Edits: []Edit{{File: "a.go", Start: 5, End: 50}}}}, reader(files))
	if err == nil || !strings.Contains(err.Error(), "past the end") {
		t.Errorf("Apply = %v, want a past-the-end error", err)
	}
}

func TestOverlap(t *testing.T) {
	e := func(s, en int) Edit { return Edit{File: "f", Start: s, End: en} }
	for _, tc := range []struct {
		a, b Edit
		want bool
	}{
		{e(0, 5), e(5, 8), false}, // adjacent
		{e(0, 5), e(4, 8), true},
		{e(3, 3), e(3, 3), true}, // two insertions at one point
		{e(3, 3), e(0, 3), false},
		{e(3, 3), e(3, 6), false},
		{e(4, 4), e(3, 6), true}, // insertion inside a replacement
		{e(0, 9), e(2, 3), true},
		{e(0, 5), Edit{File: "g", Start: 0, End: 5}, false},
	} {
		if got := overlap(tc.a, tc.b); got != tc.want {
			t.Errorf("overlap(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := overlap(tc.b, tc.a); got != tc.want {
			t.Errorf("overlap(%v, %v) = %v, want %v", tc.b, tc.a, got, tc.want)
		}
	}
}
