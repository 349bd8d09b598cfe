package driver

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// fixture copies testdata/name to a temporary directory (so that fixes
// do not touch testdata and no enclosing repository changes the root)
// and returns its path. Files named *.go.txt become *.go: Go files with
// syntax errors are kept out of reach of gofmt -l that way.
func fixture(t *testing.T, name string) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("testdata", name)
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o777)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, strings.TrimSuffix(rel, ".txt")), data, 0o666)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

type runResult struct {
	code           int
	stdout, stderr string
}

// run runs the command in dir with the test rules.
func run(t *testing.T, dir string, args ...string) runResult {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := &Command{
		Name:      "deadlinelint",
		Version:   "v0.0.0-test",
		Analyzers: []*analysis.Analyzer{badcall, panicky},
		Stdout:    &stdout,
		Stderr:    &stderr,
		Dir:       dir,
	}
	code := cmd.Run(args)
	return runResult{code, stdout.String(), stderr.String()}
}

// expect checks the exit code and the findings of the text output: its lines less the related
// positions printed under each (file:line:col: <tab>message), which TestRelatedInText checks.
func (r runResult) expect(t *testing.T, code int, stdout string) {
	t.Helper()
	if r.code != code {
		t.Errorf("exit code %d, want %d\nstderr:\n%s", r.code, code, r.stderr)
	}
	if got := relatedLine.ReplaceAllString(r.stdout, ""); got != stdout {
		t.Errorf("stdout:\n%s\nwant:\n%s", got, stdout)
	}
}

// relatedLine is a related position in text output.
var relatedLine = regexp.MustCompile(`(?m)^\S+:\d+:\d+: \t.*\n`)

// TestRelatedInText checks that text output prints each finding's related positions under it,
// as go vet does.
func TestRelatedInText(t *testing.T) {
	dir := fixture(t, "basic")
	r := run(t, dir, "-badcall", "-test=false", "./a")
	if !strings.Contains(r.stdout, "a/a.go:8:2: call to bad (badcall)\na/a.go:3:6: \tbad is declared here\n") {
		t.Errorf("text output lacks the related position under its finding:\n%s", r.stdout)
	}
}

func TestFindings(t *testing.T) {
	dir := fixture(t, "basic")
	// a.go's findings come once although both a and a [a.test] report
	// them; gen.go is generated and says nothing.
	all := `a/a.go:8:2: call to bad (badcall)
a/a.go:9:6: call to bad (badcall)
a/a.go:9:13: call to bad (badcall)
a/a_test.go:7:2: call to bad (badcall)
`
	run(t, dir, "-badcall", "./...").expect(t, ExitFindings, all)
	run(t, dir, "-badcall", "-exit-zero", "./...").expect(t, ExitClean, all)
	noTests := strings.Replace(all, "a/a_test.go:7:2: call to bad (badcall)\n", "", 1)
	run(t, dir, "-badcall", "-test=false", "./...").expect(t, ExitFindings, noTests)
	run(t, dir, "-badcall", "./clean").expect(t, ExitClean, "")
}

func TestRuleSelection(t *testing.T) {
	dir := fixture(t, "basic")
	// Disabling a rule runs the others; panicky has nothing to say here.
	run(t, dir, "-badcall=false", "-test=false", "./...").expect(t, ExitClean, "")
	t.Cleanup(func() { badName = "bad" })
	run(t, dir, "-badcall", "-badcall.name=good", "./...").expect(t, ExitClean, "")
	run(t, dir, "-badcall", "-badcall.name=F", "./...").expect(t, ExitFindings, "a/a_test.go:6:2: call to F (badcall)\n")
}

func TestSubdirectoryOfRepository(t *testing.T) {
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o777); err != nil {
		t.Fatal(err)
	}
	svc := filepath.Join(repo, "services", "basic")
	if err := os.MkdirAll(filepath.Dir(svc), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(fixture(t, "basic"), svc); err != nil {
		t.Fatal(err)
	}
	// Run from a package directory below the module: text is relative to
	// where the command ran, as go vet prints it; JSON (and SARIF) stay
	// relative to the repository root, as code scanning expects.
	run(t, filepath.Join(svc, "a"), "-badcall", "-test=false", ".").expect(t, ExitFindings,
		`a.go:8:2: call to bad (badcall)
a.go:9:6: call to bad (badcall)
a.go:9:13: call to bad (badcall)
`)
	r := run(t, filepath.Join(svc, "a"), "-badcall", "-test=false", "-json", ".")
	if !strings.Contains(r.stdout, `"file": "services/basic/a/a.go"`) {
		t.Errorf("JSON positions are not relative to the repository root:\n%s", r.stdout)
	}
}

func TestBrokenPackages(t *testing.T) {
	dir := fixture(t, "broken")
	r := run(t, dir, "-badcall", "./...")
	r.expect(t, ExitError, "ok/ok.go:6:12: call to bad (badcall)\nusesboom/usesboom.go:8:16: call to bad (badcall)\n")
	wantErr := `deadlinelint: package example.com/broken/broken: type error: broken/broken.go:3:9: undefined: x
deadlinelint: package example.com/nowhere/pkg: missing/missing.go:3:8: no required module provides package example.com/nowhere/pkg; to add it: 	go get example.com/nowhere/pkg
deadlinelint: package example.com/broken/noclause: syntax error: noclause/noclause.go:1:1: expected 'package', found 'import'
deadlinelint: package example.com/broken/syntax: syntax error: syntax/syntax.go:4:5: missing condition in if statement
deadlinelint: package example.com/broken/dependent: not analysed: it imports example.com/broken/broken, which has errors
deadlinelint: package example.com/broken/missing: not analysed: it imports example.com/nowhere/pkg, which has errors
deadlinelint: package example.com/broken/usessyntax: not analysed: it imports example.com/broken/syntax, which has errors
`
	if r.stderr != wantErr {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, wantErr)
	}
}

func TestBadPatterns(t *testing.T) {
	dir := fixture(t, "broken")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"./nonexistent"}, "deadlinelint: pattern ./nonexistent: stat " + dir + "/nonexistent: directory not found\n"},
		{[]string{"./empty"}, "deadlinelint: pattern ./empty: no Go files in " + dir + "/empty\n"},
		{[]string{"./empty/..."}, "deadlinelint: pattern ./empty/...: matched no packages\n"},
		{[]string{"./nonexistent/..."}, "deadlinelint: pattern ./nonexistent/...: lstat ./nonexistent/: no such file or directory\n"},
		{[]string{"./ok", "./empty/..."}, "deadlinelint: pattern ./empty/...: matched no packages\n"},
		{[]string{"example.com/nowhere"}, "deadlinelint: pattern example.com/nowhere: no required module provides package example.com/nowhere; to add it: \tgo get example.com/nowhere\n"},
		{[]string{}, "deadlinelint: no packages to analyse (try: deadlinelint ./...) (run deadlinelint -help for usage)\n"},
		{[]string{"-format=xml", "./ok"}, "deadlinelint: unknown -format \"xml\" (want text, json, sarif, github) (run deadlinelint -help for usage)\n"},
		{[]string{"-json", "-format=sarif", "./ok"}, "deadlinelint: -json conflicts with -format=sarif (run deadlinelint -help for usage)\n"},
		{[]string{"-nosuchrule", "./ok"}, "deadlinelint: flag provided but not defined: -nosuchrule (run deadlinelint -help for usage)\n"},
	} {
		r := run(t, dir, tc.args...)
		if r.code != ExitError || r.stderr != tc.want {
			t.Errorf("deadlinelint %s: exit %d, stderr:\n%s\nwant exit 2, stderr:\n%s", strings.Join(tc.args, " "), r.code, r.stderr, tc.want)
		}
	}
}

func TestPanicIsContained(t *testing.T) {
	dir := fixture(t, "broken")
	// boom panics; usesboom imports it, so panicky cannot run there
	// either (it needs boom's facts); ok is still analysed by both rules.
	r := run(t, dir, "./ok", "./boom", "./usesboom")
	r.expect(t, ExitError, "ok/ok.go:6:12: call to bad (badcall)\nusesboom/usesboom.go:8:16: call to bad (badcall)\n")
	want := "deadlinelint: internal error in rule panicky on package example.com/broken/boom: boom! (run with -debug for the stack)\n"
	if r.stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
	}
	r = run(t, dir, "-debug", "./boom")
	if !strings.Contains(r.stderr, "boom!\ngoroutine ") || !strings.Contains(r.stderr, "runPanicky") {
		t.Errorf("with -debug, stderr has no stack:\n%s", r.stderr)
	}
}

func TestJSONAndOutputFile(t *testing.T) {
	dir := fixture(t, "basic")
	out := filepath.Join(t.TempDir(), "report.json")
	run(t, dir, "-badcall", "-json", "-o", out, "-test=false", "./a").expect(t, ExitFindings, "")
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var findings []struct {
		Rule, File, Message string
		Line, Column        int
		Related             []struct{ File, Message string }
		SuggestedFixes      []struct{ Message string } `json:"suggested_fixes"`
	}
	if err := json.Unmarshal(data, &findings); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if len(findings) != 3 {
		t.Fatalf("got %d findings, want 3:\n%s", len(findings), data)
	}
	f := findings[0]
	if f.Rule != "badcall" || f.File != "a/a.go" || f.Line != 8 || f.Column != 2 ||
		len(f.Related) != 1 || f.Related[0].Message != "bad is declared here" ||
		len(f.SuggestedFixes) != 1 || f.SuggestedFixes[0].Message != "call good" {
		t.Errorf("first finding = %+v", f)
	}
}

func TestHelp(t *testing.T) {
	r := run(t, t.TempDir(), "-help")
	for _, want := range []string{"-format format", "Exit status:", "\nbadcall\n    report calls to bad\n", "  -badcall.name string\n", "\npanicky\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("-help output lacks %q:\n%s", want, r.stdout)
		}
	}
	r = run(t, t.TempDir(), "help", "badcall")
	if r.code != ExitClean || !strings.Contains(r.stdout, "The badcall test rule reports") || strings.Contains(r.stdout, "panicky") {
		t.Errorf("help badcall: exit %d\n%s", r.code, r.stdout)
	}
	r = run(t, t.TempDir(), "help", "nosuch")
	if r.code != ExitError || !strings.Contains(r.stderr, `no rule named "nosuch"`) {
		t.Errorf("help nosuch: exit %d, stderr %s", r.code, r.stderr)
	}
}

func TestBuildTags(t *testing.T) {
	dir := fixture(t, "basic")
	r := run(t, dir, "-badcall", "-test=false", "-tags=special", "./a")
	if r.code != ExitFindings || !strings.Contains(r.stdout, "a/tagged.go:5:9: call to bad (badcall)\n") {
		t.Errorf("-tags=special: exit %d, stdout:\n%s", r.code, r.stdout)
	}
	r = run(t, dir, "-badcall", "-test=false", "./a")
	if strings.Contains(r.stdout, "tagged.go") {
		t.Errorf("without -tags, tagged.go was analysed:\n%s", r.stdout)
	}
}
