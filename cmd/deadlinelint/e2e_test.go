package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The end-to-end tests build the deadlinelint binary and run it, in both
// modes, on a copy of the stdlib-only fixture module in testdata/fixture:
//
//	consumer  two dropped deadlines (ctxbackground), one on a line with
//	          non-ASCII text before the finding; a test file
//	clean     nothing to report
//	broken    a type error
//
// Most standalone runs use -test=false: loading "testing" from source
// (the rules use facts) is the bulk of a run's time.

// binary is the deadlinelint binary built by TestMain.
var binary string

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "deadlinelint-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binary = filepath.Join(dir, "deadlinelint")
	// The run cache of the tests' own, not the user's.
	if err := os.Setenv("DEADLINELINT_CACHE", filepath.Join(dir, "runs")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building deadlinelint: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// The findings expected on ./consumer, as file:line:col: message.
var wantConsumer = []string{
	"consumer/consumer.go:13:15: context.Background() in request scope Handle drops the caller's deadline and cancellation; pass ctx",
	"consumer/consumer.go:20:28: context.Background() in request scope Greet drops the caller's deadline and cancellation; pass ctx",
}

// fixture copies testdata/fixture to a temporary directory, outside any
// repository, so that paths are reported relative to the module.
func fixture(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	err := os.CopyFS(dst, os.DirFS("testdata/fixture"))
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

type result struct {
	code           int
	stdout, stderr string
}

// command runs name args in dir and returns its exit code and output.
func command(t *testing.T, dir, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exit := (*exec.ExitError)(nil); errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("running %s: %v", name, err)
	}
	return result{code, stdout.String(), stderr.String()}
}

func deadlinelint(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return command(t, dir, binary, args...)
}

func vet(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return command(t, dir, "go", append([]string{"vet", "-vettool=" + binary}, args...)...)
}

func (r result) wantCode(t *testing.T, code int) {
	t.Helper()
	if r.code != code {
		t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
}

var (
	// textLine is a finding in standalone text output.
	textLine = regexp.MustCompile(`^(\S+\.go:\d+:\d+: .*) \((\w+)\)$`)
	// vetLine is a finding in go vet's output, ending in its rule's name as the standalone
	// command's do; related positions are printed as extra lines whose message starts with a tab.
	vetLine = regexp.MustCompile(`^(?:\./)?(\S+\.go:\d+:\d+: [^\t].*) \((\w+)\)$`)
)

// findings extracts file:line:col: message lines from output.
func findings(output string, re *regexp.Regexp) []string {
	var out []string
	for _, line := range strings.Split(output, "\n") {
		if m := re.FindStringSubmatch(line); m != nil {
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return out
}

func wantFindings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s findings:\n%s\nwant:\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestVetAndStandaloneAgree(t *testing.T) {
	dir := fixture(t)

	v := vet(t, dir, "./consumer", "./clean")
	v.wantCode(t, 1)
	wantFindings(t, "go vet", findings(v.stderr, vetLine), wantConsumer)

	s := deadlinelint(t, dir, "./consumer", "./clean")
	s.wantCode(t, 1)
	wantFindings(t, "standalone", findings(s.stdout, textLine), wantConsumer)
	if s.stderr != "" {
		t.Errorf("standalone stderr: %s", s.stderr)
	}

	// The test variant of consumer shares its files: each finding once (related positions are
	// printed under it, file:line:col: <tab>message, as go vet prints them).
	if n := strings.Count(s.stdout, "\n") - strings.Count(s.stdout, ": \t"); n != len(wantConsumer) {
		t.Errorf("standalone printed %d findings, want %d:\n%s", n, len(wantConsumer), s.stdout)
	}
}

func TestCleanPackage(t *testing.T) {
	dir := fixture(t)
	vet(t, dir, "./clean").wantCode(t, 0)
	r := deadlinelint(t, dir, "./clean")
	r.wantCode(t, 0)
	if r.stdout != "" || r.stderr != "" {
		t.Errorf("clean package: stdout %q, stderr %q", r.stdout, r.stderr)
	}
}

func TestExitZero(t *testing.T) {
	t.Parallel()
	r := deadlinelint(t, fixture(t), "-test=false", "-exit-zero", "./consumer")
	r.wantCode(t, 0)
	wantFindings(t, "-exit-zero", findings(r.stdout, textLine), wantConsumer)
}

func TestTypeErrorStillReportsOthers(t *testing.T) {
	t.Parallel()
	r := deadlinelint(t, fixture(t), "-test=false", "./...")
	r.wantCode(t, 2)
	wantFindings(t, "standalone", findings(r.stdout, textLine), wantConsumer)
	want := "deadlinelint: package example.com/fixture/broken: type error: broken/broken.go:4:9: undefined: undefinedName\n"
	if r.stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
	}
}

func TestBadPattern(t *testing.T) {
	t.Parallel()
	dir := fixture(t)
	for _, pattern := range []string{"./nosuchdir", "./nosuchdir/...", "example.com/fixture/nosuch"} {
		r := deadlinelint(t, dir, pattern)
		r.wantCode(t, 2)
		if !strings.HasPrefix(r.stderr, "deadlinelint: pattern "+pattern+": ") || strings.Contains(r.stderr, "goroutine") {
			t.Errorf("pattern %s: stderr %q", pattern, r.stderr)
		}
	}
	r := deadlinelint(t, dir, "-nosuchflag", "./...")
	r.wantCode(t, 2)
}

// TestOutsideModule checks that a pattern outside the module the command runs in, or a run
// outside every module, says what to do, in the go command's words and without go/packages'
// wrapping.
func TestOutsideModule(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	dir := filepath.Join(parent, "fixture")
	if err := os.CopyFS(dir, os.DirFS("testdata/fixture")); err != nil {
		t.Fatal(err)
	}
	r := command(t, parent, binary, "./fixture/consumer")
	r.wantCode(t, 2)
	if !strings.Contains(r.stderr, "go.mod file not found") || !strings.Contains(r.stderr, "(run deadlinelint in a module") ||
		strings.Contains(r.stderr, "stderr:") {
		t.Errorf("outside every module: stderr %q", r.stderr)
	}
	other := filepath.Join(dir, "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/other\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = command(t, other, binary, "../consumer")
	r.wantCode(t, 2)
	if !strings.Contains(r.stderr, "(run deadlinelint in the directory of that package's module") {
		t.Errorf("a package of another module: stderr %q", r.stderr)
	}
}

func TestJSON(t *testing.T) {
	t.Parallel()
	r := deadlinelint(t, fixture(t), "-test=false", "-json", "./consumer")
	r.wantCode(t, 1)
	var got []struct {
		Rule    string `json:"rule"`
		File    string `json:"file"`
		Line    int    `json:"line"`
		Column  int    `json:"column"`
		Message string `json:"message"`
		Fixes   []struct {
			Edits []struct {
				NewText string `json:"new_text"`
			} `json:"edits"`
		} `json:"suggested_fixes"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	var lines []string
	for _, f := range got {
		if f.Rule != "ctxbackground" {
			t.Errorf("rule %q, want ctxbackground", f.Rule)
		}
		lines = append(lines, fmt.Sprintf("%s:%d:%d: %s", f.File, f.Line, f.Column, f.Message))
	}
	wantFindings(t, "json", lines, wantConsumer)
	if len(got) > 0 && (len(got[0].Fixes) == 0 || got[0].Fixes[0].Edits[0].NewText != "ctx") {
		t.Errorf("first finding's fix = %+v, want one replacing Background() with ctx", got[0].Fixes)
	}
}

func TestSARIF(t *testing.T) {
	t.Parallel()
	r := deadlinelint(t, fixture(t), "-test=false", "-format=sarif", "./consumer")
	r.wantCode(t, 1)
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID, HelpURI string }
				}
			}
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           struct{ StartLine, StartColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("not one SARIF 2.1.0 run:\n%s", r.stdout)
	}
	run := log.Runs[0]
	if !slices.ContainsFunc(run.Tool.Driver.Rules, func(r struct{ ID, HelpURI string }) bool {
		return r.ID == "ctxbackground" && strings.HasSuffix(r.HelpURI, "#ctxbackground")
	}) {
		t.Errorf("rules lack ctxbackground: %+v", run.Tool.Driver.Rules)
	}
	var got []string
	for _, res := range run.Results {
		loc := res.Locations[0].PhysicalLocation
		got = append(got, fmt.Sprintf("%s %s %s:%d:%d", res.RuleID, loc.ArtifactLocation.URIBaseID,
			loc.ArtifactLocation.URI, loc.Region.StartLine, loc.Region.StartColumn))
	}
	// Line 20 is `msg, c := "日本語 é", context.Background()`: byte
	// column 28, UTF-16 column 21 (日本語 and é take 11 bytes, 4 units).
	want := []string{
		"ctxbackground %SRCROOT% consumer/consumer.go:13:15",
		"ctxbackground %SRCROOT% consumer/consumer.go:20:21",
	}
	wantFindings(t, "sarif", got, want)
}

func TestGitHub(t *testing.T) {
	t.Parallel()
	r := deadlinelint(t, fixture(t), "-test=false", "-format=github", "./consumer")
	r.wantCode(t, 1)
	want := "::error file=consumer/consumer.go,line=13,col=15,endLine=13,endColumn=35,title=deadlinelint ctxbackground::" +
		"context.Background() in request scope Handle drops the caller's deadline and cancellation; pass ctx\n"
	if !strings.HasPrefix(r.stdout, want) || strings.Count(r.stdout, "::error ") != 2 {
		t.Errorf("github output:\n%s\nwant two annotations, the first:\n%s", r.stdout, want)
	}
}

func TestFixIsIdempotent(t *testing.T) {
	t.Parallel()
	dir := fixture(t)
	file := filepath.Join(dir, "consumer", "consumer.go")
	before := readFile(t, file)

	d := deadlinelint(t, dir, "-test=false", "-diff", "./consumer")
	d.wantCode(t, 1)
	if !strings.Contains(d.stdout, "-\treturn store(context.Background(), msg)\n+\treturn store(ctx, msg)\n") {
		t.Errorf("-diff output:\n%s", d.stdout)
	}
	if readFile(t, file) != before {
		t.Fatal("-diff changed the file")
	}

	deadlinelint(t, dir, "-test=false", "-fix", "./consumer").wantCode(t, 0)
	after := readFile(t, file)
	if after == before || !strings.Contains(after, `msg, c := "日本語 é", ctx`) {
		t.Errorf("-fix left:\n%s", after)
	}
	if r := command(t, dir, "go", "build", "./..."); !strings.Contains(r.stderr, "undefinedName") || strings.Contains(r.stderr, "consumer") {
		t.Errorf("fixed code does not build:\n%s", r.stderr)
	}

	second := deadlinelint(t, dir, "-test=false", "-fix", "./consumer")
	second.wantCode(t, 0)
	if second.stdout != "" || readFile(t, file) != after {
		t.Errorf("second -fix changed something: stdout %q", second.stdout)
	}
	deadlinelint(t, dir, "-test=false", "./consumer").wantCode(t, 0)
}

// TestDiffRemainingRelative checks that the findings -diff cannot show, written to stderr, name
// their files as the text format does: relative to the directory the command ran in.
func TestDiffRemainingRelative(t *testing.T) {
	t.Parallel()
	dir := fixture(t)
	src := `package consumer

import "context"

// Relay hands its message to a helper that drops the deadline: no mechanical fix.
//
//deadlinelint:scope
func Relay(ctx context.Context, msg string) error { return forward(msg) }

func forward(msg string) error { return store(context.Background(), msg) }
`
	if err := os.WriteFile(filepath.Join(dir, "consumer", "unfixable.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	d := deadlinelint(t, filepath.Join(dir, "consumer"), "-test=false", "-diff", ".")
	d.wantCode(t, 1)
	if !strings.Contains(d.stdout, "+\treturn store(ctx, msg)\n") {
		t.Errorf("-diff output:\n%s", d.stdout)
	}
	if !strings.HasPrefix(d.stderr, "unfixable.go:8:") || strings.Contains(d.stderr, "consumer/unfixable.go") {
		t.Errorf("-diff stderr, want the unfixable finding at unfixable.go:8, relative to the directory run in:\n%s", d.stderr)
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return string(data)
}

func TestVersionAndHelp(t *testing.T) {
	dir := t.TempDir()
	if r := deadlinelint(t, dir, "-V=full"); r.code != 0 || !strings.Contains(r.stdout, " version ") {
		t.Errorf("-V=full: exit %d, %q", r.code, r.stdout)
	}
	r := deadlinelint(t, dir, "-flags")
	var flags []struct{ Name string }
	if err := json.Unmarshal([]byte(r.stdout), &flags); err != nil || r.code != 0 {
		t.Fatalf("-flags: exit %d, %v\n%s", r.code, err, r.stdout)
	}
	if !slices.ContainsFunc(flags, func(f struct{ Name string }) bool { return f.Name == "ctxbackground" }) {
		t.Errorf("-flags lacks the ctxbackground rule: %s", r.stdout)
	}
	h := deadlinelint(t, dir, "-help")
	if h.code != 0 || !strings.Contains(h.stdout, "\nctxbackground\n") || !strings.Contains(h.stdout, "Exit status:") {
		t.Errorf("-help: exit %d\n%s", h.code, h.stdout)
	}
}

// TestRuleSelectionInBothModes checks that -RULE, -RULE=false and a
// rule's own flags mean the same in both modes.
func TestRuleSelectionInBothModes(t *testing.T) {
	dir := fixture(t)
	for _, tc := range []struct {
		flags []string
		code  int
	}{
		{[]string{"-ctxbackground=false"}, 0},
		{[]string{"-detach"}, 0},
		{[]string{"-missingdeadline.streams", "-ctxbackground"}, 1},
	} {
		args := append(tc.flags, "./consumer")
		if r := vet(t, dir, args...); r.code != tc.code {
			t.Errorf("go vet %s: exit %d, want %d\n%s", strings.Join(args, " "), r.code, tc.code, r.stderr)
		}
		if r := deadlinelint(t, dir, append([]string{"-test=false"}, args...)...); r.code != tc.code {
			t.Errorf("deadlinelint %s: exit %d, want %d\n%s", strings.Join(args, " "), r.code, tc.code, r.stderr)
		}
	}
}

// TestFindingsHaveRanges checks that every rule's findings on the bundled examples, where each
// rule fires, span the code they are about: an end after the start, for editors and SARIF
// viewers to underline.
func TestFindingsHaveRanges(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	r := deadlinelint(t, dir, "-json", "./...")
	r.wantCode(t, 1)
	var got []struct {
		Rule      string `json:"rule"`
		File      string `json:"file"`
		Line      int    `json:"line"`
		Column    int    `json:"column"`
		EndLine   int    `json:"end_line"`
		EndColumn int    `json:"end_column"`
		Related   []struct {
			File    string `json:"file"`
			Line    int    `json:"line"`
			Column  int    `json:"column"`
			Message string `json:"message"`
		} `json:"related"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	rules := make(map[string]bool)
	roots := 0
	for _, f := range got {
		rules[f.Rule] = true
		if f.EndLine < f.Line || f.EndLine == f.Line && f.EndColumn <= f.Column {
			t.Errorf("%s:%d:%d: %s finding ends at %d:%d", f.File, f.Line, f.Column, f.Rule, f.EndLine, f.EndColumn)
		}
		// A root's related position, in this package or another, is at its call.
		for _, rel := range f.Related {
			call, ok := strings.CutSuffix(rel.Message, "() is created here")
			if !ok {
				continue
			}
			roots++
			data, err := os.ReadFile(filepath.Join(dir, "..", rel.File))
			if err != nil {
				t.Fatal(err)
			}
			line := strings.Split(string(data), "\n")[rel.Line-1]
			if rel.Column < 1 || !strings.HasPrefix(line[rel.Column-1:], call+"(") {
				t.Errorf("%s:%d:%d: %q is not at the call of %s", rel.File, rel.Line, rel.Column, line, call)
			}
		}
	}
	if roots == 0 {
		t.Error("no root's related position in the examples' findings")
	}
	if len(rules) < 6 {
		t.Errorf("the examples gave findings of %d rules, want every rule's: %v", len(rules), rules)
	}
}
