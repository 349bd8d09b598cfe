package driver

import (
	"os"
	"path/filepath"
	"testing"
)

// Findings are kept with paths relative to the repository root: a .git made above the module
// moves the root, and the key with it; a file the run does not load does not.
func TestRunKeyFollowsTheRoot(t *testing.T) {
	repo := t.TempDir()
	dir := filepath.Join(repo, "svc")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/svc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := &Command{VetTool: exe, Version: "test"}
	cfg := &config{patterns: []string{"./..."}}
	key := func() string {
		t.Helper()
		k, why := c.runKey(dir, cfg, nil)
		if k == "" {
			t.Fatalf("no key: %s", why)
		}
		return k
	}
	first := key()
	if err := os.WriteFile(filepath.Join(repo, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if key() != first {
		t.Fatal("a file the run does not load changed the key")
	}
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if key() == first {
		t.Fatal("the repository root moved (a .git above the module) and the key did not change")
	}
}
