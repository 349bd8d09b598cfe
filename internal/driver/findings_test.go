package driver

import (
	"path/filepath"
	"testing"
)

// TestMessagePathsRelative checks that a file named in a message (a root context in another
// package, "at /repo/internal/a.go:12") is written relative to the root, as positions are,
// and that a path outside the root, or a word merely starting like it, is left alone.
func TestMessagePathsRelative(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	c := newCollector(root)
	sep := string(filepath.Separator)
	for _, tc := range []struct{ in, want string }{
		{"work with context.Background() at " + root + sep + "internal" + sep + "a.go:12 instead",
			"work with context.Background() at internal" + sep + "a.go:12 instead"},
		{"at /elsewhere/b.go:3", "at /elsewhere/b.go:3"},
		{"at " + root + "2" + sep + "c.go:4", "at " + root + "2" + sep + "c.go:4"},
	} {
		if got := c.message(tc.in); got != tc.want {
			t.Errorf("message(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
