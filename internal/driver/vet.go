package driver

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/deadlinelint/deadlinelint/internal/output"
	"github.com/deadlinelint/deadlinelint/internal/vetmode"
)

// The standalone command analyses through go vet when it knows its own executable
// (Command.VetTool): `go vet -vettool=<itself> -json` runs one process per package, each
// reading its dependencies' export data and facts instead of type-checking them from source,
// and the go command caches every package's facts and findings by content. A second run on an
// unchanged module is a cache lookup; a run after an edit re-analyses the edited package and
// those that import it. The command then formats what go vet returned as it would its own.
//
// go vet needs the compiled export data of every package it analyses and of their
// dependencies: with a build cache that lacks most of them (a fresh CI runner, a first
// checkout) it would compile them all first, several times the cost of analysing from source,
// so the command analyses in the process then — unless the process would hold more source
// than memoryBound allows (a large module: in the process every package's syntax, types and
// SSA are held at once): then it goes through go vet all the same, slower once, and bounded in
// memory and cached after. DEADLINELINT_VET=1 goes through go vet always.
//
// DEADLINELINT_INPROCESS=1 analyses in the process always (go/packages and the checker), as
// the command does when it cannot run itself, and when a package cannot be analysed.

// useVet reports whether this run goes through go vet.
func (c *Command) useVet() bool {
	return c.VetTool != "" && os.Getenv("DEADLINELINT_INPROCESS") == ""
}

// vetArgs returns the go vet command line for cfg.
func (c *Command) vetArgs(cfg *config) []string {
	args := []string{"vet", "-vettool=" + c.VetTool, "-json", "-" + vetmode.EndsFlag}
	if cfg.tags != "" {
		args = append(args, "-tags="+cfg.tags)
	}
	if !cfg.tests {
		args = append(args, "-"+vetmode.TestFlag+"=false")
	}
	args = append(args, cfg.ruleFlags...)
	return append(args, cfg.patterns...)
}

// analyseWithVet runs go vet on the patterns and collects its findings. When a package cannot
// be analysed — a pattern that matches nothing, a module the go command cannot provide, a
// package that does not parse or type-check — it analyses in the process instead, which says
// precisely what is wrong and still analyses every other package: errors are the rare case,
// and clear errors matter more there than speed.
//
// A run whose findings the run cache keeps (runcache.go) is answered from it.
func (c *Command) analyseWithVet(dir string, cfg *config, prog *progress) (*result, error) {
	start := time.Now()
	memoName := c.memoFile(dir, cfg)
	// The user's files, walked before anything is listed: the trees the last run walked, or
	// the module dir is in.
	preRoots, preDirs := []string{moduleRoot(dir)}, []string(nil)
	memo := readMemo(memoName)
	if memo != nil {
		if res, ok := c.fromMemo(dir, cfg, prog, memoName, memo, start); ok {
			return res, nil
		}
		preRoots, preDirs = memo.Roots, memo.Dirs
	}
	var pre map[string]fileState
	preErr := errors.New("no run cache")
	if runCacheDir() != "" {
		if pre, preErr = walkFiles(preRoots, preDirs); preErr == nil {
			hashRacy(pre, start)
		}
	}
	plan := c.planVet(dir, cfg)
	plan.again = memo != nil
	if plan.named == nil {
		c.debugf(cfg, "analysing in the process: %s", plan.why)
		cfg.whole = true
		return c.analysePackages(dir, cfg, prog)
	}
	if runCacheDir() == "" {
		return c.analyseOnRoute(dir, cfg, prog, plan)
	}
	t0 := time.Now()
	key, why := c.runKey(dir, cfg, plan.listed)
	if key == "" {
		c.debugf(cfg, "no run cache: %s", why)
	}
	// The memo records the files as they were before the listing: whatever changed after is a
	// difference after the run. When the listing reads other trees than those walked (a first
	// run in a workspace, a new replace directive), they are walked now, and a file modified too
	// near the run leaves no memo.
	roots, dirs := memoRoots(plan.listed)
	before, walkErr := pre, preErr
	if !slices.Equal(roots, preRoots) || !slices.Equal(dirs, preDirs) {
		before, walkErr = walkFiles(roots, dirs)
		if walkErr == nil && racy(before, start) {
			walkErr = fmt.Errorf("a file was modified as the run began")
		}
	}
	if findings, ok := cachedRun(key); ok {
		c.debugf(cfg, "findings from the run cache (key %s, %v)", key[:12], time.Since(t0).Round(time.Millisecond))
		if walkErr == nil {
			c.remember(memoName, &runMemo{Roots: roots, Dirs: dirs, Files: before, RunKey: key}, nil)
		}
		return &result{root: findRoot(dir), dir: dir, findings: findings}, nil
	}
	res, err := c.analyseOnRoute(dir, cfg, prog, plan)
	if err == nil && len(res.errors) == 0 && key != "" {
		// Kept only if nothing the key covers changed while the run analysed (a file saved,
		// a branch checked out): its findings may be of other content than the key's. The
		// walk of the files says so; without one, the key is made again.
		next := &runMemo{Roots: roots, Dirs: dirs, Files: before, RunKey: key, Listing: res.listing}
		kept := false
		if walkErr == nil {
			kept = c.remember(memoName, next, nil)
		} else if after, _ := c.runKey(dir, cfg, nil); after == key {
			kept = true
			c.debugf(cfg, "no run memo: %v", walkErr)
		}
		if kept {
			keepRun(key, res.findings)
		} else {
			c.debugf(cfg, "not kept in the run cache: the files changed during the run")
		}
	}
	return res, err
}

// remember writes the memo m, and reports whether the files are as m records them: nothing is
// written when they changed since. prev are the files of the memo before, whose headers are kept
// where a file did not change.
func (c *Command) remember(name string, m *runMemo, prev map[string]fileState) bool {
	after, err := walkFiles(m.Roots, m.Dirs)
	if err != nil || !sameFiles(m.Files, after) {
		return false
	}
	if name != "" {
		m.Files = withHeaders(m.Files, prev)
		writeMemo(name, m)
	}
	return true
}

// fromMemo answers the run from what the memo of the last run says, without listing packages,
// when it can: nothing changed (the run cache's findings), or only bodies of Go files changed
// and the last run took the package route (its listing, with the changed packages analysed
// again). ok is false when the run must list.
func (c *Command) fromMemo(dir string, cfg *config, prog *progress, name string, memo *runMemo, start time.Time) (res *result, ok bool) {
	files, err := walkFiles(memo.Roots, memo.Dirs)
	if err != nil {
		return nil, false
	}
	hashRacy(files, start)
	changed, onlyEdits := changedFiles(memo.Files, files)
	if onlyEdits && len(changed) == 0 {
		if findings, ok := cachedRun(memo.RunKey); ok {
			c.debugf(cfg, "findings from the run cache: no file changed since the last run (%v)", time.Since(start).Round(time.Millisecond))
			return &result{root: findRoot(dir), dir: dir, findings: findings}, true
		}
		return nil, false
	}
	if !onlyEdits || memo.Listing == nil || os.Getenv("DEADLINELINT_VET") != "" || os.Getenv("DEADLINELINT_INPROCESS") != "" {
		return nil, false
	}
	ids, ok := packagesOfFiles(memo.Listing, changed, memo.Files)
	if !ok {
		return nil, false
	}
	c.debugf(cfg, "%d files changed since the last run, in %d packages: its listing still holds", len(changed), len(ids))
	stale := slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(memo.Stale), ids...))))
	listed := make([]listedPackage, len(memo.Listing))
	for i := range memo.Listing {
		listed[i] = memo.Listing[i].listedPackage
	}
	key, _ := c.runKeyOf(dir, cfg, listed)
	next := &runMemo{Roots: memo.Roots, Dirs: memo.Dirs, Files: files, RunKey: key, Listing: memo.Listing, Stale: stale}
	if findings, ok := cachedRun(key); ok {
		c.debugf(cfg, "findings from the run cache (key %s)", key[:12])
		c.remember(name, next, memo.Files)
		return &result{root: findRoot(dir), dir: dir, findings: findings}, true
	}
	res, err = c.analyseByPackage(dir, cfg, prog, namedIn(memo.Listing), memo.Listing, stale)
	if err != nil {
		c.debugf(cfg, "listing again: %v", err)
		return nil, false
	}
	next.Listing, next.Stale = res.listing, res.stale
	// The listing is the memo's: the files the run read are those the walk found before it,
	// if none changed since (and none too near the run for its time stamp to say so).
	if len(res.errors) == 0 && key != "" && c.remember(name, next, memo.Files) {
		keepRun(key, res.findings)
	}
	return res, true
}

// analyseOnRoute analyses the packages of plan in the process or through go vet, as the build
// cache and the memory the process would need decide.
func (c *Command) analyseOnRoute(dir string, cfg *config, prog *progress, plan vetPlan) (*result, error) {
	named, cold, sources := plan.named, plan.cold, plan.sources
	if cold != "" && os.Getenv("DEADLINELINT_VET") == "" && os.Getenv("DEADLINELINT_PACKAGES") == "" {
		need, bound := plan.need, memoryBound()
		switch {
		case plan.again:
			// The command ran here before with the same flags (its memo says so): runs are
			// being repeated, and the package route, once the packages are compiled, answers
			// each after an edit for a fraction of what a run in the process costs every time.
			c.debugf(cfg, "%s, but the command ran here before: on the package route, which compiles them once for the runs after", cold)
		case need <= bound:
			c.debugf(cfg, "analysing in the process: %s", cold)
			cfg.listed = plan.listed // the stripper's listing
			return c.analysePackages(dir, cfg, prog)
		default:
			c.debugf(cfg, "%s, but in the process their %d MB of source would take about %d MiB (more than %d MiB): on the package route, which compiles them first", cold, sources/1e6, need>>20, bound>>20)
		}
	}
	if os.Getenv("DEADLINELINT_VET") == "" && !overlaid() { // go vet reads an overlay's files
		listed, err := c.listByPackage(dir, cfg)
		var res *result
		if err == nil {
			res, err = c.analyseByPackage(dir, cfg, prog, plan.named, listed, nil)
		}
		var off *errNotOnRoute
		if !errors.As(err, &off) {
			return res, err
		}
		c.debugf(cfg, "analysing in the process: %v", off)
		cfg.whole = true
		return c.analysePackages(dir, cfg, prog)
	}
	res := &result{root: findRoot(dir), dir: dir}
	prog.setStage("analysing (go vet)")
	args := c.vetArgs(cfg)
	c.debugf(cfg, "running go %s", strings.Join(args, " "))
	t0 := time.Now()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	if share, err := os.MkdirTemp("", "deadlinelint-vetshare"); err == nil {
		defer os.RemoveAll(share)
		defer func() { c.debugf(cfg, "go vet: %d analyses copied from an identical one", countShared(share)) }()
		cmd.Env = append(os.Environ(), vetmode.ShareEnv+"="+share)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	c.debugf(cfg, "go vet ran in %v", time.Since(t0).Round(time.Millisecond))
	if err != nil {
		c.debugf(cfg, "go vet failed (%v), analysing in the process:\n%s", err, strings.TrimSpace(stderr.String()))
		cfg.whole = true
		return c.analysePackages(dir, cfg, prog)
	}
	coll := newCollector(res.root)
	internal, err := coll.addVetJSON(&stdout, named)
	if err != nil {
		return nil, fmt.Errorf("reading go vet's output: %v", err)
	}
	res.findings = coll.findings
	output.Sort(res.findings)
	res.errors = internal
	return res, nil
}

// listedPackage is what go list says of one package, as planVet reads it.
type listedPackage struct {
	ImportPath, Name, Dir     string
	DepOnly, Stale, Standard  bool
	Error                     *struct{ Pos, Err string }
	GoFiles, CgoFiles, HFiles []string
	TestGoFiles, XTestGoFiles []string
	Imports                   []string
	ImportMap                 map[string]string
	Module                    *listedModule
}

// path returns the path of the package's file name: go list gives a test main's, generated
// into the build cache, absolute, the others relative to the package's directory.
func (p *listedPackage) path(name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(p.Dir, name)
}

// immutable reports whether p is code the user does not own and the go command never changes
// in place: the standard library's, or a versioned module's in the module cache (not vendored:
// a vendor directory is the user's to edit; not replaced by a directory).
func (p *listedPackage) immutable() bool {
	m := p.Module
	return p.Standard || m != nil && m.Version != "" && m.Replace == nil && strings.Contains(filepath.ToSlash(p.Dir), "/pkg/mod/")
}

// listedModule is what go list says of a package's module.
type listedModule struct {
	Path, Version, Dir, GoMod, GoVersion string
	Main                                 bool
	Replace                              *listedModule
}

// listFields are the fields of listedPackage go list is asked for (Stale aside, which costs
// a hash of every file).
const listFields = "ImportPath,Name,Dir,DepOnly,Standard,Error,GoFiles,CgoFiles,HFiles,TestGoFiles,XTestGoFiles,Imports,ImportMap,Module"

// The in-process route holds the syntax, types and SSA of every package it loads at once:
// its peak RSS was 44 bytes for each byte of Go source loaded on grpc (35 MB of source, 1.5
// GiB) and 54 on vitess (117 MB, 6.35 GiB), -test=false, 2026-12-03. A dependency parsed
// without its function bodies (stripper) took at most 34 bytes for each byte of its source:
// 16 on trillian, 23 on buf, 34 on buildkit, 2026-12-04. go vet's route holds one package at a
// time, a few hundred MiB at most.
const (
	rssPerSourceByte   = 54
	rssPerStrippedByte = 34
)

// memoryBound is the peak RSS the in-process route may be expected to take before a run with a
// cold build cache goes through go vet instead, compiling first: 1.5 GiB, or
// DEADLINELINT_MEMORY (a size in MiB; 0 never goes through go vet for memory).
func memoryBound() int64 {
	if v := os.Getenv("DEADLINELINT_MEMORY"); v != "" {
		if mib, err := strconv.ParseInt(v, 10, 64); err == nil && mib >= 0 {
			if mib == 0 {
				return math.MaxInt64
			}
			return mib << 20
		}
	}
	return 1536 << 20
}

// memoryNeed returns the size of the Go files the in-process route would load for the packages
// listed — every package's, and the test files of those named when tests are analysed — and
// the peak RSS that route may be expected to take for them: less for the files of dependencies
// it parses without bodies (strippable, unless strip is false).
func memoryNeed(pkgs []listedPackage, tests, strip bool) (sources, need int64) {
	for i := range pkgs {
		p := &pkgs[i]
		perByte := int64(rssPerSourceByte)
		if strip && strippable(p) {
			perByte = rssPerStrippedByte
		}
		groups := [][]string{p.GoFiles, p.CgoFiles}
		if tests && !p.DepOnly {
			groups = append(groups, p.TestGoFiles, p.XTestGoFiles)
		}
		for _, g := range groups {
			for _, name := range g {
				if fi, err := os.Stat(p.path(name)); err == nil {
					sources += fi.Size()
					need += fi.Size() * perByte
				}
			}
		}
	}
	return sources, need
}

// A vetPlan is what planVet found: the packages named (nil when go vet cannot analyse them,
// and why), why the build cache cannot serve go vet (cold, or ""), the bytes of Go source
// the in-process route would load when it is cold, and go list's packages.
type vetPlan struct {
	named     map[string]bool
	why, cold string
	sources   int64 // bytes of Go source
	need      int64 // the peak RSS they may be expected to take in the process
	again     bool  // the command ran here before, with the same flags (a run memo)
	listed    []listedPackage
}

// planVet lists the packages the patterns match and their dependencies, once (go list: no
// type-checking, no compiling; it answers from the build cache). It returns the paths of the
// packages named when go vet can analyse every one of them (if not, nil and why), and why the
// go build cache cannot serve go vet — more than a quarter of the packages to analyse and their
// dependencies (commands aside) have no compiled export data in it — or "".
//
// Test files are not listed: an error in one (a test-only import the go command cannot
// provide) makes go vet fail, and the command then analyses in the process, which says what
// is wrong.
func (c *Command) planVet(dir string, cfg *config) (plan vetPlan) {
	listed, err := goList[listedPackage](dir, cfg, listFields+",Stale", false)
	if err != nil {
		return vetPlan{why: err.Error()}
	}
	plan.listed = listed
	var roots []*packages.Package
	stale, total := 0, 0
	for _, p := range listed {
		if plan.why == "" && p.Error != nil {
			plan.why = fmt.Sprintf("package %s: %s", p.ImportPath, strings.TrimPrefix(p.Error.Pos+": "+p.Error.Err, ": "))
		}
		if p.Name != "main" {
			total++
			if p.Stale {
				stale++
			}
		}
		if !p.DepOnly {
			roots = append(roots, &packages.Package{ID: p.ImportPath, PkgPath: p.ImportPath, Dir: p.Dir})
		}
	}
	if total > 0 && 4*stale > total {
		plan.cold = fmt.Sprintf("the build cache lacks %d of the %d packages go vet would need compiled", stale, total)
		plan.sources, plan.need = memoryNeed(plan.listed, cfg.tests, !followsDependencies(cfg.analyzers))
	}
	if plan.why == "" && len(roots) == 0 {
		plan.why = "no packages"
	}
	if un := unmatchedPatterns(dir, cfg.patterns, roots); plan.why == "" && len(un) > 0 {
		plan.why = "pattern " + un[0] + " matches no packages"
	}
	if plan.why != "" {
		return plan
	}
	plan.named = make(map[string]bool)
	for _, p := range roots {
		plan.named[p.PkgPath] = true
	}
	return plan
}

// A vetDiagnostic is one diagnostic in go vet's -json output.
type vetDiagnostic struct {
	Category       string `json:"category"`
	Posn           string `json:"posn"`
	Message        string `json:"message"`
	SuggestedFixes []struct {
		Message string `json:"message"`
		Edits   []struct {
			Filename string `json:"filename"`
			Start    int    `json:"start"`
			End      int    `json:"end"`
			New      string `json:"new"`
		} `json:"edits"`
	} `json:"suggested_fixes"`
	Related []struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	} `json:"related"`
}

// addVetJSON adds the findings, in the packages named, of go vet's -json output: a stream of
// objects mapping each package to each analyzer's diagnostics, or to {"error": "..."} when the
// analyzer failed. It returns those failures, one line each. go vet also prints what its cache
// holds for dependencies of the packages named: those are left out, as the in-process driver
// reports only the packages it was asked for.
func (c *collector) addVetJSON(r io.Reader, named map[string]bool) ([]string, error) {
	var failures []string
	seen := make(map[string]bool)
	files := make(map[string][]byte)
	dec := json.NewDecoder(r)
	for {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		for _, pkg := range sortedKeys(tree) {
			if !named[packageOfID(pkg)] {
				continue
			}
			for _, rule := range sortedKeys(tree[pkg]) {
				raw := tree[pkg][rule]
				var diags []vetDiagnostic
				if err := json.Unmarshal(raw, &diags); err != nil {
					var failed struct{ Error string }
					if json.Unmarshal(raw, &failed) == nil && failed.Error != "" {
						line := fmt.Sprintf("rule %s on package %s: %s", rule, packageOfID(pkg), failed.Error)
						if !seen[line] {
							seen[line] = true
							failures = append(failures, line)
						}
					}
					continue
				}
				for _, d := range diags {
					c.addVet(rule, d, files)
				}
			}
		}
	}
	return failures, nil
}

// addVet records one diagnostic of go vet's output.
func (c *collector) addVet(rule string, d vetDiagnostic, files map[string][]byte) {
	pos, ok := parsePosn(d.Posn)
	if !ok || c.isGenerated(pos.file) {
		return
	}
	msg, endLine, endCol, hasEnd := vetmode.SplitEnd(d.Message)
	d.Message = msg
	f := output.Finding{Rule: rule, Message: d.Message}
	f.Pos = output.Position{File: relative(c.root, pos.file), Line: pos.line, Column: pos.col}
	f.End = f.Pos
	if hasEnd {
		f.End.Line, f.End.Column = endLine, endCol
	}
	for _, r := range d.Related {
		if rp, ok := parsePosn(r.Posn); ok {
			f.Related = append(f.Related, output.Related{
				Pos:     output.Position{File: relative(c.root, rp.file), Line: rp.line, Column: rp.col},
				Message: r.Message,
			})
		}
	}
	for _, sf := range d.SuggestedFixes {
		fix := output.Fix{Message: sf.Message}
		ok := true
		for _, e := range sf.Edits {
			content, found := files[e.Filename]
			if !found {
				content, _ = os.ReadFile(e.Filename)
				files[e.Filename] = content
			}
			if e.Start < 0 || e.End < e.Start || e.End > len(content) {
				ok = false
				break
			}
			fix.Edits = append(fix.Edits, output.Edit{
				Pos:       lineCol(c.root, e.Filename, content, e.Start),
				End:       lineCol(c.root, e.Filename, content, e.End),
				Offset:    e.Start,
				EndOffset: e.End,
				NewText:   e.New,
			})
		}
		if ok {
			f.Fixes = append(f.Fixes, fix)
		}
	}
	c.addFinding(f)
}

// posn is a parsed "file:line:col".
type posn struct {
	file      string
	line, col int
}

// parsePosn parses go vet's "file:line:col" (the file may itself contain colons).
func parsePosn(s string) (posn, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return posn{}, false
	}
	j := strings.LastIndexByte(s[:i], ':')
	if j < 0 {
		return posn{}, false
	}
	line, err1 := strconv.Atoi(s[j+1 : i])
	col, err2 := strconv.Atoi(s[i+1:])
	if err1 != nil || err2 != nil {
		return posn{}, false
	}
	return posn{file: s[:j], line: line, col: col}, true
}

// lineCol returns the position of a byte offset of a file's content.
func lineCol(root, file string, content []byte, offset int) output.Position {
	line := 1 + bytes.Count(content[:offset], []byte("\n"))
	col := offset + 1
	if nl := bytes.LastIndexByte(content[:offset], '\n'); nl >= 0 {
		col = offset - nl
	}
	return output.Position{File: relative(root, file), Line: line, Column: col}
}

// packageOfID returns the package path of a go vet package ID ("p [p.test]" → "p").
func packageOfID(id string) string {
	if i := strings.Index(id, " ["); i >= 0 {
		return id[:i]
	}
	return id
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ruleFlagArgs returns, as command-line arguments, the rule flags set on fs (-RULE,
// -RULE=false, -RULE.flag=value): go vet passes them on to the vet tool.
func ruleFlagArgs(fs *flag.FlagSet, ruleFlag func(name string) bool) []string {
	var args []string
	fs.Visit(func(f *flag.Flag) {
		if ruleFlag(f.Name) {
			args = append(args, "-"+f.Name+"="+f.Value.String())
		}
	})
	return args
}

// countShared counts the analyses the tool's processes copied from an identical one
// (vetmode.ShareEnv).
func countShared(dir string) int {
	entries, _ := os.ReadDir(dir)
	n := 0
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), vetmode.SharedSuffix) {
			n++
		}
	}
	return n
}
