package driver

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .golden files")

// golden compares got with testdata/fixme/name.golden.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "fixme", filepath.FromSlash(name)+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s:\n%s", name, path, got)
	}
}

func read(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestDiffAndFix(t *testing.T) {
	dir := fixture(t, "fixme")
	original := read(t, dir, "a/a.go")

	// -diff shows the fixes and changes nothing. The inner call of
	// bad(x, bad()) overlaps the outer one's fix: it is left for later.
	r := run(t, dir, "-badcall", "-diff", "./...")
	if r.code != ExitFindings {
		t.Errorf("-diff: exit %d, want %d", r.code, ExitFindings)
	}
	golden(t, "fix.diff", r.stdout)
	wantStderr := "deadlinelint: note: a/a.go:10:16: call to bad: fix skipped: it overlaps the fix for a/a.go:10:9: call to bad\n" +
		"a/a.go:10:16: call to bad (badcall)\n"
	if r.stderr != wantStderr {
		t.Errorf("-diff stderr:\n%s\nwant:\n%s", r.stderr, wantStderr)
	}
	if read(t, dir, "a/a.go") != original {
		t.Fatal("-diff changed a/a.go")
	}

	// -fix writes the same changes (gofmt-aligned, as b.go was
	// formatted) and reports what it could not fix.
	run(t, dir, "-badcall", "-fix", "./...").expect(t, ExitFindings, "a/a.go:10:16: call to bad (badcall)\n")
	golden(t, "a/a.go", read(t, dir, "a/a.go"))
	golden(t, "b/b.go", read(t, dir, "b/b.go"))

	// The next run fixes the call the conflict held back; after that,
	// -fix has nothing left to do.
	run(t, dir, "-badcall", "-fix", "./...").expect(t, ExitClean, "")
	if a := read(t, dir, "a/a.go"); !strings.Contains(a, "good(x, good())") {
		t.Errorf("second -fix left:\n%s", a)
	}
	fixed := read(t, dir, "a/a.go")
	run(t, dir, "-badcall", "-fix", "./...").expect(t, ExitClean, "")
	if read(t, dir, "a/a.go") != fixed {
		t.Error("a -fix run with nothing to fix changed a/a.go")
	}
}
