package driver

import (
	"os"
	"path/filepath"
	"strings"
)

// findRoot returns the directory that reported paths are relative to:
// the root of the git work tree holding dir, else the directory of the
// enclosing go.work or go.mod, else dir itself. Running from a module in
// a subdirectory of a monorepo thus still reports repository-relative
// paths, which is what code scanning expects of SARIF.
func findRoot(dir string) string {
	for _, marker := range []string{".git", "go.work", "go.mod"} {
		if root, ok := enclosing(dir, marker); ok {
			return root
		}
	}
	return dir
}

// enclosing returns the nearest ancestor of dir (dir included) that
// contains an entry named marker.
func enclosing(dir, marker string) (string, bool) {
	for {
		if _, err := os.Lstat(filepath.Join(dir, marker)); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// relative returns file relative to root, slash-separated, or file
// (slash-separated) if it is not under root.
func relative(root, file string) string {
	if root != "" && filepath.IsAbs(file) {
		if rel, err := filepath.Rel(root, file); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(file)
}

// absolute undoes relative.
func absolute(root, file string) string {
	path := filepath.FromSlash(file)
	if filepath.IsAbs(path) || root == "" {
		return path
	}
	return filepath.Join(root, path)
}
