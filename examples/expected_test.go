// Package examples_test checks that deadlinelint reports exactly the lost
// deadlines planted in the examples, and nothing else.
//
// A planted bug is marked by a trailing comment `// planted: <rule>` on the
// line where the finding must be reported. Everything unmarked is meant to
// be clean: legitimate root contexts in main, constructors, Close and
// background workers, and correct request-scoped code.
//
// On a context.WithoutCancel line the marker is written `//planted:detach`, a directive
// comment: a prose comment there would be the detach's reason, and silence the rule.
// A marker may add a note, `// planted: <rule> (pending: <why>)`, for a bug
// that an existing rule does not catch yet because the feature is still to
// be built (issue 4's transitive drops). Such a marker is not required; once
// the finding appears, the test fails until the note is removed.
package examples_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	// The test builds and runs cmd/deadlinelint. Importing what the command is made of ties
	// the test binary, and so go test's result cache, to that code.
	_ "github.com/deadlinelint/deadlinelint/analyzers"
	_ "github.com/deadlinelint/deadlinelint/internal/driver"
)

// plannedRules are the rule names a marker may use; a marker naming any
// other is a typo that would otherwise never be checked.
var plannedRules = []string{"ctxbackground", "ctxflow", "detach", "missingdeadline", "ctxless", "deadlinemath", "statusmask", "streamloop"}

// finding is one expected or reported finding.
type finding struct {
	File string // slash-separated, relative to the repository root
	Line int
	Rule string
}

func (f finding) String() string { return fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.Rule) }

// TestFindingsMatchPlantedMarkers runs deadlinelint on ./examples/... in
// both modes, standalone and under go vet, and compares its findings with
// the markers.
//
// Only markers of the rules the binary has are compared: the rules land one
// by one, and a marker for a rule not written yet is not a failure of the
// others. Those markers are logged. A finding without a marker always fails,
// whatever its rule.
func TestFindingsMatchPlantedMarkers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs deadlinelint on the examples")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "cmd", "deadlinelint")); errors.Is(err, fs.ErrNotExist) {
		t.Skip("cmd/deadlinelint does not exist yet")
	}
	bin := buildLinter(t, root)

	rules := implementedRules(t, bin)
	markers, pending := plantedMarkers(t, root)
	var want []finding
	for _, m := range markers {
		if rules[m.Rule] {
			want = append(want, m)
		} else {
			t.Logf("not checked, the binary has no rule %s: %v", m.Rule, m)
		}
	}
	for _, m := range pending {
		t.Logf("not required, pending: %v", m)
	}

	t.Run("standalone", func(t *testing.T) {
		t.Parallel()
		compare(t, runStandalone(t, bin, root), want, pending)
	})
	t.Run("vet", func(t *testing.T) {
		t.Parallel()
		compare(t, runVet(t, bin, root), want, pending)
	})
}

// compare fails t with the findings missing from got, those neither in want
// nor pending, and the pending ones that got includes.
func compare(t *testing.T, got, want, pending []finding) {
	t.Helper()
	for _, f := range difference(want, got) {
		t.Errorf("missing: %v", f)
	}
	for _, f := range difference(got, want) {
		if slices.Contains(pending, f) {
			t.Errorf("now reported, remove the (pending: …) note from its marker: %v", f)
		} else {
			t.Errorf("unexpected: %v", f)
		}
	}
}

// difference returns the findings of a that are not in b, sorted.
func difference(a, b []finding) []finding {
	var out []finding
	for _, f := range a {
		if !slices.Contains(b, f) && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(x, y finding) int { return strings.Compare(x.String(), y.String()) })
	return out
}

// buildLinter builds cmd/deadlinelint into a temporary directory.
func buildLinter(t *testing.T, root string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "deadlinelint")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/deadlinelint")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/deadlinelint: %v\n%s", err, out)
	}
	return bin
}

// implementedRules returns the rules of the binary: the boolean flags
// without a dot that it lists for go vet (-flags), one per analyzer.
func implementedRules(t *testing.T, bin string) map[string]bool {
	t.Helper()
	out, err := exec.Command(bin, "-flags").Output()
	if err != nil {
		t.Fatalf("%s -flags: %v", bin, err)
	}
	var flags []struct {
		Name string
		Bool bool
	}
	if err := json.Unmarshal(out, &flags); err != nil {
		t.Fatalf("%s -flags: %v\n%s", bin, err, out)
	}
	rules := make(map[string]bool)
	for _, f := range flags {
		if f.Bool && slices.Contains(plannedRules, f.Name) {
			rules[f.Name] = true
		}
	}
	return rules
}

// markerRE matches the text of a marker comment: the rule, and the
// pending note if there is one.
var markerRE = regexp.MustCompile(`^//\s*planted:\s*(\w+)\s*(\(pending:[^)]*\))?\s*$`)

// plantedMarkers returns the markers of every Go file under root/examples
// but the generated ones, the pending ones apart.
func plantedMarkers(t *testing.T, root string) (markers, pending []finding) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir(filepath.Join(root, "examples"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		for _, group := range f.Comments {
			for _, c := range group.List {
				m := markerRE.FindStringSubmatch(c.Text)
				if m == nil {
					continue
				}
				if !slices.Contains(plannedRules, m[1]) {
					t.Errorf("%s: marker names unknown rule %q (want one of %v)", fset.Position(c.Slash), m[1], plannedRules)
				}
				f := finding{filepath.ToSlash(rel), fset.Position(c.Slash).Line, m[1]}
				if m[2] != "" {
					pending = append(pending, f)
				} else {
					markers = append(markers, f)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("scan examples for markers: %v", err)
	}
	if len(markers) == 0 {
		t.Fatal("no planted markers found under examples/")
	}
	return markers, pending
}

// runStandalone runs `deadlinelint -format json ./...` in the examples module, as its owner
// would (with or without the repository's go.work).
func runStandalone(t *testing.T, bin, root string) []finding {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "-format", "json", "./...")
	cmd.Dir, cmd.Stdout, cmd.Stderr = filepath.Join(root, "examples"), &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("deadlinelint ./examples/...: %v\n%s", err, stderr.Bytes())
	}
	var reported []struct {
		Rule    string `json:"rule"`
		File    string `json:"file"`
		Line    int    `json:"line"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &reported); err != nil {
		t.Fatalf("deadlinelint -format json: %v\n%s", err, stdout.Bytes())
	}
	// A message is one sentence a busy reviewer reads at a glance: what is lost, what to do.
	// The chain, the root and the other calls are related positions.
	var lengths []int
	for _, r := range reported {
		lengths = append(lengths, len(r.Message))
	}
	slices.Sort(lengths)
	if n := len(lengths); n > 0 && lengths[n/2] > 120 {
		t.Errorf("median message length %d characters, want at most 120", lengths[n/2])
	}
	if got, want := err != nil, len(reported) > 0; got != want {
		t.Errorf("deadlinelint exited with %v for %d findings, want 1 exactly when there are findings", err, len(reported))
	}
	var found []finding
	for _, r := range reported {
		found = append(found, finding{relative(root, r.File), r.Line, r.Rule})
	}
	return found
}

// runVet runs `go vet -vettool=bin -json ./...` in the examples module.
func runVet(t *testing.T, bin, root string) []finding {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("go", "vet", "-vettool="+bin, "-json", "./...")
	cmd.Dir, cmd.Stdout, cmd.Stderr = filepath.Join(root, "examples"), &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go vet -vettool: %v\n%s", err, stderr.Bytes())
	}
	// Where the JSON goes has changed across Go releases: read both.
	out := append(stdout.Bytes(), stderr.Bytes()...)
	found, err := parseVetJSON(out, root)
	if err != nil {
		t.Fatalf("go vet -json output: %v\n%s", err, out)
	}
	return found
}

// parseVetJSON reads go vet -json output: for each package, a "# pkg"
// comment line and an object {pkg: {analyzer: [diagnostic…] or error}}.
func parseVetJSON(out []byte, root string) ([]finding, error) {
	var body bytes.Buffer
	for line := range bytes.Lines(out) {
		if !bytes.HasPrefix(line, []byte("#")) {
			body.Write(line)
		}
	}
	var found []finding
	dec := json.NewDecoder(&body)
	for dec.More() {
		var pkgs map[string]map[string]json.RawMessage
		if err := dec.Decode(&pkgs); err != nil {
			return nil, err
		}
		for pkg, byRule := range pkgs {
			for rule, raw := range byRule {
				var diags []struct{ Posn string }
				if err := json.Unmarshal(raw, &diags); err != nil {
					return nil, fmt.Errorf("%s: %s: %s", pkg, rule, raw)
				}
				for _, d := range diags {
					file, line, err := splitPosn(d.Posn)
					if err != nil {
						return nil, err
					}
					found = append(found, finding{relative(root, file), line, rule})
				}
			}
		}
	}
	return found, nil
}

// splitPosn splits "file:line:col" into file and line.
func splitPosn(posn string) (string, int, error) {
	rest, _, ok := cutLast(posn, ":")
	if ok {
		file, lineText, ok := cutLast(rest, ":")
		if line, err := strconv.Atoi(lineText); ok && err == nil {
			return file, line, nil
		}
	}
	return "", 0, fmt.Errorf("bad position %q", posn)
}

func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// relative returns file relative to root, slash-separated.
func relative(root, file string) string {
	if filepath.IsAbs(file) {
		if rel, err := filepath.Rel(root, file); err == nil {
			file = rel
		}
	}
	return filepath.ToSlash(file)
}
