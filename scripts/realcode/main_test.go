package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheck runs the comparison on findings and verdicts made up for it: a finding without a
// verdict and a REAL verdict no longer reported both fail the run; NOISE findings count against
// precision, DEBATABLE ones not at all.
func TestCheck(t *testing.T) {
	mods := []module{{key: "example.com/svc@v1.0.0"}}
	k := func(file string, line int, rule string) findingKey {
		return findingKey{"example.com/svc@v1.0.0", file, line, rule}
	}
	vs := map[findingKey]verdict{
		k("a.go", 1, "ctxbackground"): {key: k("a.go", 1, "ctxbackground"), verdict: "REAL"},
		k("a.go", 2, "ctxbackground"): {key: k("a.go", 2, "ctxbackground"), verdict: "NOISE"},
		k("b.go", 3, "detach"):        {key: k("b.go", 3, "detach"), verdict: "DEBATABLE"},
		k("c.go", 4, "ctxflow"):       {key: k("c.go", 4, "ctxflow"), verdict: "REAL"},
		k("a.go", 9, "ctxbackground"): {key: k("a.go", 9, "ctxbackground"), verdict: "REAL"},
		k("a.go", 8, "ctxbackground"): {key: k("a.go", 8, "ctxbackground"), verdict: "REAL"},
	}
	fs := []finding{
		// a.go:9 reaches the same root as a.go:1: a related position, not lost. a.go:8 is
		// related under another rule: lost.
		{key: k("a.go", 1, "ctxbackground"), related: []findingKey{k("a.go", 9, "ctxbackground"), k("a.go", 8, "ctxless")}},
		{key: k("a.go", 2, "ctxbackground")},
		{key: k("b.go", 3, "detach")},
		{key: k("d.go", 5, "ctxless"), message: "new"},
	}
	newOut := filepath.Join(t.TempDir(), "new.tsv")
	var out strings.Builder
	err := check(&out, mods, vs, fs, newOut)
	if err == nil || !strings.Contains(err.Error(), "1 findings without a verdict, 2 REAL findings lost") {
		t.Fatalf("check: error %v, want one unjudged and two lost", err)
	}
	for _, want := range []string{
		"ctxbackground           2      1      1         0        0      50.0%",
		"detach                  1      0      0         1        0          -",
		"LOST REAL  example.com/svc@v1.0.0 c.go:4 ctxflow",
		"LOST REAL  example.com/svc@v1.0.0 a.go:8 ctxbackground",
		"related positions of another finding (one finding per decision): 1",
		"NO VERDICT example.com/svc@v1.0.0 d.go:5 ctxless",
		"example.com/svc@v1.0.0                                      4      1      1         1        1      50.0%",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	written, err := os.ReadFile(newOut)
	if err != nil || !strings.HasPrefix(string(written), "example.com/svc@v1.0.0\td.go\t5\tctxless\t?\tnew") {
		t.Errorf("-new wrote %q (%v)", written, err)
	}
	if err := check(&out, mods, vs, fs[:3], ""); err == nil {
		t.Error("a lost REAL finding passed")
	}
}

// TestReadVerdicts rejects a verdict that is none of the three, and a finding judged twice.
func TestReadVerdicts(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) string {
		p := filepath.Join(dir, "v.tsv")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	line := "m@v1\ta.go\t1\tdetach\t%s\twhy\n"
	if _, err := readVerdicts(write(strings.Replace(line, "%s", "MAYBE", 1))); err == nil {
		t.Error("verdict MAYBE accepted")
	}
	if _, err := readVerdicts(write(strings.Repeat(strings.Replace(line, "%s", "NOISE", 1), 2))); err == nil {
		t.Error("a finding judged twice accepted")
	}
	vs, err := readVerdicts(write("# comment\n" + strings.Replace(line, "%s", "REAL", 1)))
	if err != nil || len(vs) != 1 {
		t.Errorf("readVerdicts: %v, %d verdicts", err, len(vs))
	}
}

// TestReadModules checks that a module listed twice is refused: the list once held two modules
// twice, run twice and counted in the number of modules measured.
func TestReadModules(t *testing.T) {
	p := filepath.Join(t.TempDir(), "m.tsv")
	write := func(body string) {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("# modules\na.example/m@v1.0.0\tci\t./...\nb.example/n@v2.0.0\tfull\t./x/...\n")
	mods, err := readModules(p)
	if err != nil || len(mods) != 2 || mods[1].patterns[0] != "./x/..." {
		t.Fatalf("readModules: %v, %+v", err, mods)
	}
	write("a.example/m@v1.0.0\tci\t./...\na.example/m@v1.1.0\tfull\t./...\n")
	if _, err := readModules(p); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("a module listed twice: err = %v", err)
	}
}

// TestNotAnalysed checks that a module the go command could not provide counts every package
// it blocked: the harness once printed "0 packages not analysed" for a module of which 28
// packages were not.
func TestNotAnalysed(t *testing.T) {
	stderr := `deadlinelint: package example.com/a/broken: type error: broken.go:4:9: undefined: x
deadlinelint: module example.com/engine@v0.1.0: reading https://proxy.golang.org/…: 403 Forbidden
deadlinelint: module example.com/engine@v0.1.0: 28 packages not analysed because of it: example.com/a/b and 27 more
deadlinelint: module example.com/other@v1.0.0: 1 package not analysed because of it: example.com/a/c
`
	if got, want := notAnalysed(stderr), 1+28+1; got != want {
		t.Errorf("notAnalysed = %d, want %d", got, want)
	}
	if got := notAnalysed(""); got != 0 {
		t.Errorf("notAnalysed of no errors = %d, want 0", got)
	}
}

func TestPrepared(t *testing.T) {
	dir := t.TempDir()
	if prepared(dir, "example.com/m@v1.0.0") {
		t.Fatal("a directory without a marker is prepared")
	}
	if err := os.WriteFile(filepath.Join(dir, preparedMarker), []byte("example.com/m@v1.0.0"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !prepared(dir, "example.com/m@v1.0.0") {
		t.Error("the copy of the version the marker names is not prepared")
	}
	if prepared(dir, "example.com/m@v1.1.0") {
		t.Error("a copy of v1.0.0 counts as prepared for v1.1.0")
	}
}

// TestCheckByModule prints each module's tally, the module with the most findings first, and
// the precision of all the others pooled.
func TestCheckByModule(t *testing.T) {
	big, small := "example.com/big@v1.0.0", "example.com/small@v1.0.0"
	mods := []module{{key: small}, {key: big}}
	k := func(mod string, line int) findingKey { return findingKey{mod, "a.go", line, "ctxbackground"} }
	vs := map[findingKey]verdict{
		k(big, 1):   {key: k(big, 1), verdict: "REAL"},
		k(big, 2):   {key: k(big, 2), verdict: "REAL"},
		k(big, 3):   {key: k(big, 3), verdict: "REAL"},
		k(small, 1): {key: k(small, 1), verdict: "REAL"},
		k(small, 2): {key: k(small, 2), verdict: "NOISE"},
	}
	fs := []finding{{key: k(small, 1)}, {key: k(small, 2)}, {key: k(big, 1)}, {key: k(big, 2)}, {key: k(big, 3)}}
	var out strings.Builder
	if err := check(&out, mods, vs, fs, ""); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if i, j := strings.Index(got, big+"    "), strings.Index(got, small+"  "); i < 0 || j < 0 || i > j {
		t.Errorf("modules not listed, most findings first:\n%s", got)
	}
	if want := "all but " + big + ": 1 REAL, 1 NOISE, precision 50.0%"; !strings.Contains(got, want) {
		t.Errorf("output lacks %q:\n%s", want, got)
	}
}
