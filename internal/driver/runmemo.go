package driver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/deadlinelint/deadlinelint/internal/vetmode"
)

// The run memo: what the last run of the same command in the same directory saw of the user's
// files, so that the next run can tell, without the go command, that nothing changed — or which
// files did.
//
// Listing packages costs the go command most of a second on a module of a few hundred packages
// (it reads every file's header and hashes every file of the build), which is most of what an
// unchanged run or a one-file edit costs otherwise. The memo keeps, under a key of everything
// the run depends on but the files (the tool, the flags, the directory, the environment, the go
// command), the state of every file of the user's code the run could have read — name, size and
// modification time of each Go, C and module file in the trees of the main modules and the
// directories of the other packages of the user's code — and the run cache's key of its findings:
//   - nothing changed: the findings are the run cache's, without listing anything;
//   - only the bodies of Go files changed (their build constraints, package clause and imports
//     are as they were) and the last run took the package route: its listing is still the
//     graph of the build, and each changed package is analysed again against the export data
//     the listing names. A package whose export data the run would need (another analysed
//     package imports it) was changed since: the listing is made again;
//   - anything else (a file added or removed, go.mod, cgo): the run lists as it would have.
//
// A file modified less than memoSlack before the run began may change again within the same
// time stamp (file system clocks are coarse: a few milliseconds, a second or two on some): its
// content is hashed when the run walks the files and compared by content after it and by the next
// run, as git's index treats "racily clean" entries. The files are walked before the packages are
// listed, and again after the run: a memo is written only when nothing changed between. The
// standard library and the module cache are immutable to the go command; a new go command or
// GOROOT changes the key.

// memoSlack is how long before a run a file must have been modified last for the memo to trust
// its time stamp alone.
const memoSlack = 2 * time.Second

// A runMemo is what a run leaves for the next one.
type runMemo struct {
	Roots   []string // trees walked: the main modules'
	Dirs    []string // directories read: the other packages of the user's code
	Files   map[string]fileState
	RunKey  string
	Listing []routePackage // the package route's listing, or nil
	Stale   []string       // packages of Listing changed since it was made: their export data is older
}

// A fileState is what the memo keeps of one file: size and modification time, the hash of its
// content when that time was too near the run to trust (racy), and for a Go file the hash of
// its header (build constraints, package clause, imports).
type fileState struct {
	Size   int64
	Mtime  int64
	Hash   string `json:",omitempty"`
	Header string `json:",omitempty"`
}

// memoFile returns the name of the memo of this run of the command, or "" when there is none:
// no run cache, an overlay, the executable not known.
func (c *Command) memoFile(dir string, cfg *config) string {
	cache := runCacheDir()
	if cache == "" || c.VetTool == "" || overlaid() {
		return ""
	}
	tool, err := c.toolID()
	if err != nil {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "deadlinelint run memo 1\n%s\n", tool)
	fmt.Fprintf(h, "root %q dir %q\npatterns %q\ntags %q\ntests %v\nrules %q\n", findRoot(dir), dir, cfg.patterns, cfg.tags, cfg.tests, cfg.ruleFlags)
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GO") || strings.HasPrefix(kv, "CGO_") || strings.HasPrefix(kv, "DEADLINELINT_") {
			env = append(env, kv)
		}
	}
	slices.Sort(env)
	fmt.Fprintf(h, "env %q\ngoenv %q\n", env, goEnvFile())
	// The go command (a new Go release has another standard library), and the go.work files it
	// would find from here.
	gocmd, err := exec.LookPath("go")
	if err != nil {
		return ""
	}
	fmt.Fprintf(h, "go %q %s\n", gocmd, statLine(gocmd))
	for d := dir; ; d = filepath.Dir(d) {
		fmt.Fprintf(h, "work %q %s\n", d, statLine(filepath.Join(d, "go.work")))
		if filepath.Dir(d) == d {
			break
		}
	}
	return filepath.Join(cacheSibling(cache, "memo"), hex.EncodeToString(h.Sum(nil))+".json")
}

// statLine returns a file's size and modification time, or "-" when it does not exist.
func statLine(name string) string {
	fi, err := os.Stat(name)
	if err != nil {
		return "-"
	}
	return fmt.Sprintf("%d %d", fi.Size(), fi.ModTime().UnixNano())
}

func readMemo(name string) *runMemo {
	if name == "" {
		return nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	var m runMemo
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	return &m
}

func writeMemo(name string, m *runMemo) {
	if name == "" {
		return
	}
	if data, err := json.Marshal(m); err == nil {
		_ = writeAtomic(name, data)
	}
}

// memoRoots returns the trees and directories of the user's code a run of the listed packages
// reads: each main module's tree, and the directory of every other package that is not the
// standard library's or the module cache's (a replaced module's, a vendored one's).
func memoRoots(listed []listedPackage) (roots, dirs []string) {
	for i := range listed {
		if m := listed[i].Module; m != nil && m.Main && m.Dir != "" && !slices.Contains(roots, m.Dir) {
			roots = append(roots, m.Dir)
		}
	}
	for i := range listed {
		p := &listed[i]
		if p.immutable() || p.Dir == "" || slices.Contains(dirs, p.Dir) || slices.ContainsFunc(roots, func(r string) bool { return inTree(r, p.Dir) }) {
			continue
		}
		dirs = append(dirs, p.Dir)
	}
	slices.Sort(roots)
	slices.Sort(dirs)
	return roots, dirs
}

func inTree(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && filepath.IsLocal(rel) || rel == "."
}

// memoFileKinds are the files a build reads, by extension or name.
var memoFileKinds = []string{".go", ".c", ".h", ".s", ".S", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".m", ".f", ".F", ".for", ".f90", ".syso", ".swig", ".swigcxx"}

func buildFile(name string) bool {
	switch name {
	case "go.mod", "go.sum", "go.work", "go.work.sum", "modules.txt":
		return true
	}
	return slices.Contains(memoFileKinds, filepath.Ext(name))
}

// walkFiles returns the state of every build file of the trees (as go walks ./...: no
// directory whose name begins with . or _, no testdata, no nested module) and directories
// (not their subdirectories), without headers; the directories of the trees appear as entries
// with size -1, so that a new package is a change.
func walkFiles(roots, dirs []string) (map[string]fileState, error) {
	files := make(map[string]fileState)
	add := func(path string, d fs.DirEntry) error {
		if !buildFile(d.Name()) {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		files[path] = fileState{Size: fi.Size(), Mtime: fi.ModTime().UnixNano()}
		return nil
	}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				name := d.Name()
				// vendor is walked: go ./... leaves it out, but its packages are built.
				if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
					return filepath.SkipDir
				}
				if path != root {
					if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
						return filepath.SkipDir // another module
					}
				}
				files[path] = fileState{Size: -1}
				return nil
			}
			return add(path, d)
		})
		if err != nil {
			return nil, err
		}
	}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		files[dir] = fileState{Size: -1}
		for _, e := range entries {
			if !e.IsDir() {
				if err := add(filepath.Join(dir, e.Name()), e); err != nil {
					return nil, err
				}
			}
		}
	}
	return files, nil
}

// header returns the hash of what go list reads of a Go file: the comments before its package
// clause (build constraints), its package name and its imports; "" when it does not parse.
func header(path string) string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return ""
	}
	h := sha256.New()
	for _, cg := range f.Comments {
		if cg.Pos() < f.Package {
			fmt.Fprintf(h, "%q\n", cg.Text())
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//go:") {
					fmt.Fprintf(h, "%q\n", c.Text)
				}
			}
		}
	}
	fmt.Fprintf(h, "package %s\n", f.Name.Name)
	for _, imp := range f.Imports {
		name := ""
		if imp.Name != nil {
			name = imp.Name.Name
		}
		fmt.Fprintf(h, "import %s %s\n", name, imp.Path.Value)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// hashRacy sets the content hash of every file of files modified less than memoSlack before
// start.
func hashRacy(files map[string]fileState, start time.Time) {
	limit := start.Add(-memoSlack).UnixNano()
	for path, st := range files {
		if st.Size >= 0 && st.Mtime >= limit {
			st.Hash = contentHash(path)
			files[path] = st
		}
	}
}

// racy reports whether a file of files was modified less than memoSlack before start.
func racy(files map[string]fileState, start time.Time) bool {
	limit := start.Add(-memoSlack).UnixNano()
	for _, st := range files {
		if st.Size >= 0 && st.Mtime >= limit {
			return true
		}
	}
	return false
}

func contentHash(path string) string {
	h := sha256.New()
	if vetmode.HashFile(h, path) != nil {
		return "unreadable"
	}
	return hex.EncodeToString(h.Sum(nil))
}

// unchanged reports whether the file at path, in state now, is as old records it: the same
// size and time, and the same content where old's time was too near its run to trust.
func unchanged(path string, old, now fileState) bool {
	return old.Size == now.Size && old.Mtime == now.Mtime && (old.Hash == "" || contentHash(path) == old.Hash)
}

// sameFiles reports whether the files now are those old records.
func sameFiles(old, now map[string]fileState) bool {
	changed, onlyEdits := changedFiles(old, now)
	return onlyEdits && len(changed) == 0
}

// changedFiles compares the files now with the memo's: it returns the files that changed, and
// whether that is all (no file or directory added or removed).
func changedFiles(memo, now map[string]fileState) (changed []string, onlyEdits bool) {
	if len(memo) != len(now) {
		return nil, false
	}
	for path, st := range now {
		old, ok := memo[path]
		switch {
		case !ok:
			return nil, false
		case !unchanged(path, old, st):
			changed = append(changed, path)
		}
	}
	slices.Sort(changed)
	return changed, true
}

// moduleRoot returns the directory of the go.mod file dir is in, or "".
func moduleRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && !fi.IsDir() {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// withHeaders returns files with the header of each Go file: the memo's where the file did not
// change, parsed again where it did.
func withHeaders(files map[string]fileState, memo map[string]fileState) map[string]fileState {
	out := make(map[string]fileState, len(files))
	for path, st := range files {
		if strings.HasSuffix(path, ".go") {
			if old, ok := memo[path]; ok && old.Size == st.Size && old.Mtime == st.Mtime && old.Hash == st.Hash && old.Header != "" {
				st.Header = old.Header
			} else {
				st.Header = header(path)
			}
		}
		out[path] = st
	}
	return out
}

// packagesOfFiles returns the packages of the listing (every variant) that hold one of the
// files, and whether every file is a Go file of a package without cgo, with its header as
// before: then the listing still describes the build.
func packagesOfFiles(listing []routePackage, files []string, memo map[string]fileState) (ids []string, ok bool) {
	for _, path := range files {
		if !strings.HasSuffix(path, ".go") || memo[path].Header == "" || header(path) != memo[path].Header {
			return nil, false
		}
		// A file no package builds (excluded by its constraints) leaves nothing to analyse.
		for i := range listing {
			p := &listing[i]
			for _, g := range [][]string{p.GoFiles, p.CgoFiles, p.TestGoFiles, p.XTestGoFiles} {
				if slices.ContainsFunc(g, func(n string) bool { return p.path(n) == path }) {
					if len(p.CgoFiles) > 0 {
						return nil, false // cgo's output is compiled from the files
					}
					ids = append(ids, p.ImportPath)
				}
			}
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), true
}
