package driver

import (
	"path/filepath"
	"testing"

	"github.com/deadlinelint/deadlinelint/internal/output"
)

// TestMessagePathsRelative checks that a file named in a message (a root context in another
// package, "at /repo/internal/a.go:12") is written relative to the root for SARIF and JSON, and
// relative to the directory the command ran in for text, as positions are; and that a path
// outside the root, or a word merely starting like it, is left alone.
func TestMessagePathsRelative(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	sub := filepath.Join(root, "svc")
	sep := string(filepath.Separator)
	for _, tc := range []struct{ dir, in, want string }{
		{root, "works with context.Background() at " + root + sep + "internal" + sep + "a.go:12, not",
			"works with context.Background() at internal/a.go:12, not"},
		{sub, "at " + root + sep + "svc" + sep + "a.go:12", "at a.go:12"},
		{sub, "at " + root + sep + "lib" + sep + "b.go:3", "at ../lib/b.go:3"},
		{root, "at /elsewhere/b.go:3", "at /elsewhere/b.go:3"},
		{root, "at " + root + "2" + sep + "c.go:4", "at " + root + "2" + sep + "c.go:4"},
	} {
		if got := relativeMessage(root, tc.dir, tc.in); got != tc.want {
			t.Errorf("relativeMessage(%q, in %s) = %q, want %q", tc.in, tc.dir, got, tc.want)
		}
	}
}

// TestTextRelativeToWorkingDirectory checks that positions in text output are relative to the
// directory the command ran in, "../" for files of the repository outside it, and relative to
// the repository root in the other formats.
func TestTextRelativeToWorkingDirectory(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	sub := filepath.Join(root, "svc")
	f := output.Finding{Rule: "r", Pos: output.Position{File: "svc/server/a.go", Line: 1, Column: 1},
		End:     output.Position{File: "svc/server/a.go", Line: 1, Column: 9},
		Related: []output.Related{{Pos: output.Position{File: "lib/b.go", Line: 3, Column: 1}}}}
	got := relativeTo(root, sub, []output.Finding{f})[0]
	if got.Pos.File != "server/a.go" || got.End.File != "server/a.go" || got.Related[0].Pos.File != "../lib/b.go" {
		t.Errorf("text positions from svc/: %s, %s, related %s", got.Pos.File, got.End.File, got.Related[0].Pos.File)
	}
	if same := relativeTo(root, root, []output.Finding{f})[0]; same.Pos.File != "svc/server/a.go" || same.Related[0].Pos.File != "lib/b.go" {
		t.Errorf("root-relative positions changed: %s, related %s", same.Pos.File, same.Related[0].Pos.File)
	}
}
