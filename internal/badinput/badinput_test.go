package badinput

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	// The test builds and runs cmd/deadlinelint. Importing what the command is made of ties
	// the test binary, and so go test's result cache, to that code.
	_ "github.com/deadlinelint/deadlinelint/analyzers"
	_ "github.com/deadlinelint/deadlinelint/internal/driver"
)

// A tcase runs deadlinelint with args in a copy of a fixture module.
type tcase struct {
	name     string
	fixture  string // directory under testdata/; "" for an empty module
	setup    func(t *testing.T, dir string)
	dir      string   // subdirectory to run in
	args     []string // flags and patterns
	wantExit int
	stdout   []string // regexps every one of which must match standard output
	stderr   []string // regexps every one of which must match standard error
	notErr   []string // regexps none of which may match standard error
	noStderr bool     // standard error must be empty
	env      []string // extra environment; $DIR is the fixture's copy
}

var cases = []tcase{
	{
		name: "syntax error", fixture: "syntaxerror", setup: unhide("parse/parse.go"), args: []string{"./..."}, wantExit: 2,
		stderr: []string{`(?m)^deadlinelint: package example\.com/syntaxerror/parse: syntax error: parse/parse\.go:4:\d+: `},
	},
	{
		name: "type error", fixture: "typeerror", args: []string{"./..."}, wantExit: 2,
		stderr: []string{`(?m)^deadlinelint: package example\.com/typeerror/broken: type error: broken/broken\.go:5:9: undefined: undefinedName$`},
		// The well-typed sibling is still analysed and reported.
		stdout: []string{`(?m)^fine/fine\.go:10:9: context\.Background\(\) .*\(ctxbackground\)$`},
	},
	{
		name: "missing import", fixture: "missingimport", args: []string{"./..."}, wantExit: 2,
		stderr: []string{`example\.com/nowhere/gone`, `example\.com/missingimport/app`},
	},
	{
		// A required module version the proxy cannot serve: the go command's error once, then
		// the packages it kept from being analysed; the rest is still reported.
		name: "missing module version", fixture: "missingmodule", args: []string{"./..."}, wantExit: 2,
		setup: func(t *testing.T, dir string) { emptyDir(t, dir) },
		env:   []string{"GOPROXY=file://$DIR/empty", "GOFLAGS=-mod=mod -buildvcs=false", "GOSUMDB=off"},
		stderr: []string{
			`(?m)^deadlinelint: module example\.com/vanished@v1\.2\.3: reading file://.*/empty/example\.com/vanished/@v/v1\.2\.3\.(zip|mod|info)`,
			`(?m)^deadlinelint: module example\.com/vanished@v1\.2\.3: 2 packages not analysed because of it: example\.com/missingmodule/a, example\.com/missingmodule/b$`,
		},
		notErr: []string{`type error`, `package example\.com/vanished`, `(?m)^deadlinelint: package example\.com/missingmodule/[ab]:`},
		stdout: []string{`(?m)^c/c\.go:9:\d+: context\.Background\(\) .*\(ctxbackground\)$`},
	},
	{
		name: "non-existent directory pattern", fixture: "typeerror", args: []string{"./nosuch/..."}, wantExit: 2,
		stderr: []string{`(?m)^deadlinelint: pattern \./nosuch/\.\.\.: `},
	},
	{
		name: "non-existent import path pattern", fixture: "typeerror", args: []string{"example.com/elsewhere/pkg"}, wantExit: 2,
		stderr: []string{`(?m)^deadlinelint: pattern example\.com/elsewhere/pkg: `},
	},
	{
		name: "empty directory, recursive pattern", setup: emptyDir, args: []string{"./empty/..."}, wantExit: 2,
		stderr: []string{`(?m)^deadlinelint: pattern \./empty/\.\.\.: matched no packages$`},
	},
	{
		name: "empty directory", setup: emptyDir, args: []string{"./empty"}, wantExit: 2,
		stderr: []string{`(?m)^deadlinelint: pattern \./empty: no Go files`},
	},
	{
		name: "no pattern", fixture: "typeerror", args: nil, wantExit: 2,
		stderr: []string{`(?m)^deadlinelint: .*deadlinelint \./\.\.\.`},
	},
	{
		// cgo rewrites the file into the build cache with a "Code generated
		// by cmd/cgo" header and //line directives: the finding belongs to
		// the user's file and must not be dropped as generated code.
		name: "cgo package", fixture: "cgo", args: []string{"./..."}, wantExit: 1, noStderr: true,
		stdout: []string{`(?m)^native/native\.go:19:9: context\.Background\(\) .*\(ctxbackground\)$`},
	},
	{
		name: "module with vendor directory", fixture: "vendored", args: []string{"./..."}, wantExit: 1, noStderr: true,
		stdout: []string{`(?m)^app/app\.go:15:9: context\.Background\(\) .*\(ctxbackground\)$`},
	},
	{
		// A dependency replaced by a local directory is still not the user's code: its Flush
		// is not followed, and its Send is work for the unbounded detached ctx.
		name: "module with a replaced dependency", fixture: "replaced", args: []string{"./..."}, wantExit: 1, noStderr: true,
		stdout: []string{`(?m)\Aapp/app\.go:15:12: context\.WithoutCancel\(ctx\) runs work with no deadline and no reason; bound it with context\.WithTimeout and say why \(detach\)\napp/app\.go:15:5: \truns Client\.Send on a goroutine with no deadline\n\z`},
	},
	{
		name: "go.work workspace, module patterns", fixture: "workspace", args: []string{"./api/...", "./lib/..."}, wantExit: 1, noStderr: true,
		stdout: []string{`(?m)^api/api\.go:15:9: context\.Background\(\) .*\(ctxbackground\)$`},
	},
	{
		// Text is relative to the directory the command ran in, as go vet prints it.
		name: "go.work workspace, inside a module", fixture: "workspace", dir: "api", args: []string{"./..."}, wantExit: 1, noStderr: true,
		stdout: []string{`(?m)^api\.go:15:9: context\.Background\(\) .*\(ctxbackground\)$`},
	},
	{
		name: "go.work workspace root is not a module", fixture: "workspace", args: []string{"./..."}, wantExit: 2,
		stderr: []string{`(?m)^deadlinelint: pattern \./\.\.\.: .*go\.work`},
	},
}

// stackTrace matches what a panic or a runtime stack dump prints.
var stackTrace = regexp.MustCompile(`panic:|goroutine \d+ \[|\.go:\d+ \+0x[0-9a-f]+|internal error`)

func TestBadInput(t *testing.T) {
	bin := buildDeadlinelint(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.fixture == "cgo" {
				requireCgo(t)
			}
			dir := t.TempDir()
			if tc.fixture != "" {
				if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", tc.fixture))); err != nil {
					t.Fatal(err)
				}
			} else {
				writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/empty\n\ngo 1.22\n")
			}
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			var env []string
			for _, e := range tc.env {
				env = append(env, strings.ReplaceAll(e, "$DIR", dir))
			}
			stdout, stderr, code := run(t, bin, filepath.Join(dir, tc.dir), tc.fixture == "cgo", tc.args, env...)
			if code != tc.wantExit {
				t.Errorf("exit status %d, want %d", code, tc.wantExit)
			}
			for _, re := range tc.stdout {
				if !regexp.MustCompile(re).MatchString(stdout) {
					t.Errorf("standard output does not match %q", re)
				}
			}
			for _, re := range tc.stderr {
				if !regexp.MustCompile(re).MatchString(stderr) {
					t.Errorf("standard error does not match %q", re)
				}
			}
			for _, re := range tc.notErr {
				if regexp.MustCompile(re).MatchString(stderr) {
					t.Errorf("standard error matches %q", re)
				}
			}
			if tc.noStderr && stderr != "" {
				t.Errorf("unexpected standard error output")
			}
			if stackTrace.MatchString(stdout + stderr) {
				t.Errorf("output holds a panic or stack trace")
			}
			checkErrorLines(t, stderr)
			if t.Failed() {
				t.Logf("deadlinelint %s in %s\nstdout:\n%s\nstderr:\n%s", strings.Join(tc.args, " "), tc.fixture, stdout, stderr)
			}
		})
	}
}

// checkErrorLines requires every non-blank line of standard error to be
// one of the command's own messages, prefixed with its name.
func checkErrorLines(t *testing.T, stderr string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if line != "" && !strings.HasPrefix(line, "deadlinelint: ") && !strings.HasPrefix(line, "\t") {
			t.Errorf("standard error line without the deadlinelint: prefix: %q", line)
		}
	}
}

// unhide renames FILE.txt to FILE: fixtures that do not parse are stored
// under another name so that gofmt and go vet over the repository skip them.
func unhide(file string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		path := filepath.Join(dir, filepath.FromSlash(file))
		if err := os.Rename(path+".txt", path); err != nil {
			t.Fatal(err)
		}
	}
}

func emptyDir(t *testing.T, dir string) {
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// requireCgo skips the test when no C compiler is available.
func requireCgo(t *testing.T) {
	t.Helper()
	out, err := exec.Command("go", "env", "CC").Output()
	if err != nil {
		t.Fatalf("go env CC: %v", err)
	}
	if _, err := exec.LookPath(strings.Fields(string(out) + " gcc")[0]); err != nil {
		t.Skipf("no C compiler (%s) for the cgo fixture", strings.TrimSpace(string(out)))
	}
}

// run executes bin with args in dir, hermetically: no module proxy, no
// workspace but the fixture's own, the fixture's go.mod decides -mod.
func run(t *testing.T, bin, dir string, cgo bool, args []string, env ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-buildvcs=false", "GOWORK=")
	cmd.Env = append(cmd.Env, env...) // the last value of a variable wins
	if cgo {
		cmd.Env = append(cmd.Env, "CGO_ENABLED=1")
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		code = exitErr.ExitCode()
	default:
		t.Fatalf("running %s: %v", bin, err)
	}
	return out.String(), errb.String(), code
}

var build struct {
	once sync.Once
	bin  string
	err  error
}

// buildDeadlinelint builds cmd/deadlinelint once per test binary run.
func buildDeadlinelint(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "cmd", "deadlinelint")
	if _, err := os.Stat(src); err != nil {
		t.Skip("cmd/deadlinelint does not exist yet")
	}
	build.once.Do(func() {
		dir, err := os.MkdirTemp("", "badinput-")
		if err != nil {
			build.err = err
			return
		}
		build.bin = filepath.Join(dir, "deadlinelint")
		out, err := exec.Command("go", "build", "-o", build.bin, "./"+filepath.ToSlash(src)).CombinedOutput()
		if err != nil {
			build.err = errors.New(string(out))
		}
	})
	if build.err != nil {
		t.Fatalf("building deadlinelint: %v", build.err)
	}
	return build.bin
}
