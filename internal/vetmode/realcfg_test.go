package vetmode

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deadlinelint/deadlinelint/internal/vetproto"
)

// captureDir, when set, makes the test binary a vet tool that keeps a copy of every package
// config go vet hands it and answers with empty facts and no findings.
const captureDir = "VETMODE_TEST_CAPTURE"

func TestMain(m *testing.M) {
	if dir := os.Getenv(captureDir); dir != "" {
		capture(dir, os.Args[1:])
		return
	}
	os.Exit(m.Run())
}

func capture(dir string, args []string) {
	keep := func(_ string, data []byte) error {
		var cfg struct{ ImportPath string }
		if err := json.Unmarshal(data, &cfg); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, strings.ReplaceAll(cfg.ImportPath, "/", "_")+".cfg"), data, 0o644)
	}
	if _, err := vetproto.Answer(args, "vetmodetest", os.Getenv(captureDir+"_ID"), keep); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// The configs go vet really writes: a standard package asked for its facts is answered
// with empty ones unless it imports context, and a package of the user's module never is.
// (A hand-written config once claimed what go vet does not: that its Standard map names the
// package itself.)
func TestSkipDependencyOnGoVetConfigs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	mod := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a/a.go": "package a\n\nimport (\n\t\"example.com/m/b\"\n\t\"net/http/httptrace\"\n\t\"strings\"\n)\n\nvar _ = strings.ToUpper(b.B)\nvar _ = httptrace.ContextClientTrace\n",
		"b/b.go": "package b\n\nconst B = \"b\"\n",
	}
	for name, text := range files {
		path := filepath.Join(mod, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	nonce := make([]byte, 16)
	rand.Read(nonce)
	dir := t.TempDir()
	cmd := exec.Command("go", "vet", "-vettool="+self, "./a")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), captureDir+"="+dir, captureDir+"_ID="+hex.EncodeToString(nonce), "GOWORK=off", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
	// The tool runs with the environment go vet gives it: GOROOT set.
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOROOT", strings.TrimSpace(string(goroot)))
	for _, tc := range []struct {
		pkg  string
		skip bool
	}{
		{"strings", true},
		{"unicode", true},
		{"net/http/httptrace", false}, // imports context
		{"example.com/m/b", false},    // the user's code
	} {
		name := filepath.Join(dir, strings.ReplaceAll(tc.pkg, "/", "_")+".cfg")
		if _, err := os.Stat(name); err != nil {
			t.Fatalf("go vet gave no config for %s: %v", tc.pkg, err)
		}
		out := filepath.Join(t.TempDir(), "vetx")
		cfg := rewriteOutput(t, name, out)
		skipped, err := skipDependency([]string{cfg})
		if err != nil {
			t.Fatal(err)
		}
		if skipped != tc.skip {
			t.Errorf("%s: skipped = %v, want %v", tc.pkg, skipped, tc.skip)
		}
	}
}

// rewriteOutput copies a captured config with its VetxOutput moved to out (go vet's own
// directory is gone once it exits).
func rewriteOutput(t *testing.T, name, out string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["VetxOutput"] = out
	data, err = json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "p.cfg")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
