package driver

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/deadlinelint/deadlinelint/internal/output"
)

// relativeTo returns findings (whose positions are relative to root, and whose messages may
// name absolute paths: a root context in another package) with every path relative to dir
// instead: the text format writes them relative to the directory the command ran in, as go vet
// does, so that a terminal or an editor opens them; SARIF, JSON and GitHub annotations keep
// them relative to the repository root (dir == root), as code scanning expects. A file outside
// dir keeps a "../" path when it is in the repository, its absolute path otherwise.
func relativeTo(root, dir string, findings []output.Finding) []output.Finding {
	out := make([]output.Finding, len(findings))
	for i, f := range findings {
		f.Pos.File = displayPath(root, dir, f.Pos.File)
		f.End.File = displayPath(root, dir, f.End.File)
		f.Message = relativeMessage(root, dir, f.Message)
		if len(f.Related) > 0 {
			related := make([]output.Related, len(f.Related))
			for j, r := range f.Related {
				r.Pos.File = displayPath(root, dir, r.Pos.File)
				r.Message = relativeMessage(root, dir, r.Message)
				related[j] = r
			}
			f.Related = related
		}
		out[i] = f
	}
	return out
}

// displayPath returns file, relative to root (or absolute), relative to dir.
func displayPath(root, dir, file string) string {
	if file == "" {
		return file
	}
	abs := absolute(root, file)
	if dir == root {
		return relative(root, abs)
	}
	if rel, err := filepath.Rel(dir, abs); err == nil && (!strings.HasPrefix(rel, "..") || inside(root, abs)) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(abs)
}

// relativeMessage writes the absolute paths of files of the repository a message names (a root
// context in another package, "at /repo/internal/a.go:12") the way displayPath writes positions.
func relativeMessage(root, dir, msg string) string {
	if root == "" || !strings.Contains(msg, root+string(filepath.Separator)) {
		return msg
	}
	re := regexp.MustCompile(` (` + regexp.QuoteMeta(root+string(filepath.Separator)) + `[^\s:]+)`)
	return re.ReplaceAllStringFunc(msg, func(m string) string {
		return " " + displayPath(root, dir, strings.TrimPrefix(m, " "))
	})
}

// inside reports whether path is root or lies under it.
func inside(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
