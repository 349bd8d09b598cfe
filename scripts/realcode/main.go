// Command realcode runs deadlinelint on real gRPC modules, at pinned versions, as their owners
// would (copied out of the module cache, analysed as the main module, tests excluded), and
// checks every finding against the verdicts read by hand in testdata/realcode/verdicts.tsv.
//
//	go run ./scripts/realcode [-set ci|full] [-only name,...] [-new file] [-keep]
//
// It fails when a finding has no verdict and when a finding judged REAL is no longer reported,
// and prints, per rule, precision = REAL / (REAL + NOISE). scripts/realcode.sh is its front end.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	var (
		modules  = flag.String("modules", "testdata/realcode/modules.tsv", "the list of modules")
		verdicts = flag.String("verdicts", "testdata/realcode/verdicts.tsv", "the verdicts")
		set      = flag.String("set", "full", "which modules: ci (the bounded subset .ci/run uses) or full")
		only     = flag.String("only", "", "comma-separated names of the modules to run (default: all of -set)")
		work     = flag.String("work", filepath.Join(os.TempDir(), "deadlinelint-realcode"), "where modules are copied (kept between runs)")
		lint     = flag.String("lint", "", "the deadlinelint binary (default: built from this checkout)")
		newOut   = flag.String("new", "", "write the findings that have no verdict to this file, as verdict lines to fill in")
		listOut  = flag.String("list", "", "write every finding, with its verdict and message, to this file")
	)
	flag.Parse()
	if err := run(*modules, *verdicts, *set, *only, *work, *lint, *newOut, *listOut); err != nil {
		fmt.Fprintln(os.Stderr, "realcode:", err)
		os.Exit(1)
	}
}

func run(modulesFile, verdictsFile, set, only, work, lint, newOut, listOut string) error {
	mods, err := readModules(modulesFile)
	if err != nil {
		return err
	}
	mods = selectModules(mods, set, only)
	if len(mods) == 0 {
		return fmt.Errorf("no module selected (-set %s -only %q)", set, only)
	}
	vs, err := readVerdicts(verdictsFile)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	if lint == "" {
		lint = filepath.Join(work, "deadlinelint")
		if out, err := exec.Command("go", "build", "-o", lint, "./cmd/deadlinelint").CombinedOutput(); err != nil {
			return fmt.Errorf("building deadlinelint: %v\n%s", err, out)
		}
	}
	ctx := context.Background()
	var all []finding
	for _, m := range mods {
		dir := filepath.Join(work, m.name)
		start := time.Now()
		if err := prepare(ctx, m, dir); err != nil {
			return fmt.Errorf("%s: %v", m.key, err)
		}
		fs, nerr, err := analyse(ctx, lint, m, dir)
		if err != nil {
			return fmt.Errorf("%s: %v", m.key, err)
		}
		fmt.Printf("%-52s %4d findings, %3d packages not analysed, %5.1fs\n", m.key, len(fs), nerr, time.Since(start).Seconds())
		all = append(all, fs...)
	}
	if listOut != "" {
		if err := writeList(listOut, vs, all); err != nil {
			return err
		}
	}
	return check(os.Stdout, mods, vs, all, newOut)
}

// A module is one line of the modules file.
type module struct {
	key      string // module@version
	name     string // a directory name for it
	set      string // "ci" or "full"
	patterns []string
}

func readModules(file string) ([]module, error) {
	lines, err := tsvLines(file)
	if err != nil {
		return nil, err
	}
	var out []module
	seen := make(map[string]int) // module path → line
	for _, l := range lines {
		if len(l.cols) < 3 {
			return nil, fmt.Errorf("%s:%d: want module@version, set, patterns", file, l.n)
		}
		path, _, ok := strings.Cut(l.cols[0], "@")
		if !ok {
			return nil, fmt.Errorf("%s:%d: %q has no version", file, l.n, l.cols[0])
		}
		if n, dup := seen[path]; dup {
			// Listed twice, it would be run twice and counted twice in the module count.
			return nil, fmt.Errorf("%s:%d: %s is listed already, at line %d", file, l.n, path, n)
		}
		seen[path] = l.n
		out = append(out, module{
			key:      l.cols[0],
			name:     strings.NewReplacer("/", "_", ".", "_").Replace(path),
			set:      l.cols[1],
			patterns: strings.Fields(l.cols[2]),
		})
	}
	return out, nil
}

func selectModules(mods []module, set, only string) []module {
	var out []module
	names := strings.Split(only, ",")
	for _, m := range mods {
		switch {
		case only != "":
			if slices.ContainsFunc(names, func(n string) bool { return n != "" && strings.Contains(m.key, n) }) {
				out = append(out, m)
			}
		case set == "full" || m.set == set:
			out = append(out, m)
		}
	}
	return out
}

// A verdict is one line of the verdicts file.
type verdict struct {
	key     findingKey
	verdict string // REAL, NOISE or DEBATABLE
	reason  string
	line    int // in the verdicts file
}

type findingKey struct {
	module, file string
	line         int
	rule         string
}

func (k findingKey) String() string {
	return fmt.Sprintf("%s %s:%d %s", k.module, k.file, k.line, k.rule)
}

var verdictNames = []string{"REAL", "NOISE", "DEBATABLE"}

func readVerdicts(file string) (map[findingKey]verdict, error) {
	lines, err := tsvLines(file)
	if errors.Is(err, os.ErrNotExist) {
		return map[findingKey]verdict{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := make(map[findingKey]verdict)
	for _, l := range lines {
		if len(l.cols) < 6 {
			return nil, fmt.Errorf("%s:%d: want module@version, file, line, rule, verdict, reason", file, l.n)
		}
		n, err := strconv.Atoi(l.cols[2])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: line %q: %v", file, l.n, l.cols[2], err)
		}
		if !slices.Contains(verdictNames, l.cols[4]) {
			return nil, fmt.Errorf("%s:%d: verdict %q is none of %v", file, l.n, l.cols[4], verdictNames)
		}
		v := verdict{key: findingKey{l.cols[0], l.cols[1], n, l.cols[3]}, verdict: l.cols[4], reason: l.cols[5], line: l.n}
		if prev, dup := out[v.key]; dup {
			return nil, fmt.Errorf("%s:%d: %s already judged on line %d", file, l.n, v.key, prev.line)
		}
		out[v.key] = v
	}
	return out, nil
}

type tsvLine struct {
	n    int
	cols []string
}

// tsvLines reads the tab-separated lines of file, skipping blank lines and # comments.
func tsvLines(file string) ([]tsvLine, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []tsvLine
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		out = append(out, tsvLine{n, strings.Split(text, "\t")})
	}
	return out, sc.Err()
}

// goEnv is the environment of every go command run on a copied module: the module alone (no
// workspace, no vendor directory), its go.sum completed from the module cache or the proxy, and
// this machine's toolchain.
var goEnv = []string{"GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local"}

// prepare copies the module out of the module cache into dir, once per version (the marker
// names the module@version the copy holds): a local replace directive (another module of the
// same repository, by relative path) is dropped, so that the required version comes from the
// module proxy, and go.sum is completed for the packages analysed.
func prepare(ctx context.Context, m module, dir string) error {
	if prepared(dir, m.key) {
		return nil
	}
	out, err := goCmd(ctx, "", "mod", "download", "-json", m.key)
	if err != nil {
		return err
	}
	var dl struct{ Dir, Error string }
	if err := json.Unmarshal(out, &dl); err != nil || dl.Dir == "" {
		return fmt.Errorf("go mod download: %s %v", dl.Error, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.CopyFS(dir, os.DirFS(dl.Dir)); err != nil {
		return err
	}
	if err := makeWritable(dir); err != nil {
		return err
	}
	os.RemoveAll(filepath.Join(dir, "vendor"))
	if err := dropLocalReplaces(ctx, dir); err != nil {
		return err
	}
	if _, err := goCmd(ctx, dir, append([]string{"list", "-e", "-deps"}, m.patterns...)...); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, preparedMarker), []byte(m.key), 0o644)
}

// preparedMarker names the file prepare writes last in a copy, holding its module@version.
const preparedMarker = ".realcode-prepared"

// prepared reports whether dir holds a finished copy of key (module@version): a copy of another
// version of the module — the list pinned a newer one since — is made again.
func prepared(dir, key string) bool {
	b, err := os.ReadFile(filepath.Join(dir, preparedMarker))
	return err == nil && string(b) == key
}

func makeWritable(dir string) error {
	return filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(path, mode)
	})
}

func dropLocalReplaces(ctx context.Context, dir string) error {
	out, err := goCmd(ctx, dir, "mod", "edit", "-json")
	if err != nil {
		return err
	}
	var gm struct {
		Replace []struct {
			Old, New struct{ Path, Version string }
		}
	}
	if err := json.Unmarshal(out, &gm); err != nil {
		return err
	}
	args := []string{"mod", "edit"}
	for _, r := range gm.Replace {
		if r.New.Version == "" { // a directory, not a module version
			old := r.Old.Path
			if r.Old.Version != "" {
				old += "@" + r.Old.Version
			}
			args = append(args, "-dropreplace="+old)
		}
	}
	if len(args) == 2 {
		return nil
	}
	_, err = goCmd(ctx, dir, args...)
	return err
}

func goCmd(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), goEnv...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, lastLines(stderr.String(), 10))
	}
	return out, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// A finding is one diagnostic of deadlinelint's JSON report, on one module.
type finding struct {
	key     findingKey
	message string
	related []findingKey // the other places it names (calls reaching the same root), same rule
}

// analyse runs deadlinelint on the module's patterns, tests excluded. Packages that fail to
// load are counted, not fatal: a module that does not build on this toolchain is still judged
// on the rest.
func analyse(ctx context.Context, lint string, m module, dir string) ([]finding, int, error) {
	cmd := exec.CommandContext(ctx, lint, append([]string{"-test=false", "-json"}, m.patterns...)...)
	cmd.Dir = dir
	// The harness judges findings, which both routes give alike: with a cold build cache (CI)
	// it analyses in the process, whatever the module's size, rather than compile it first.
	cmd.Env = append(os.Environ(), append(goEnv, "DEADLINELINT_MEMORY=0")...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() <= 2) {
		return nil, 0, fmt.Errorf("deadlinelint: %v\n%s", err, lastLines(stderr.String(), 10))
	}
	for _, bad := range []string{"panic:", "internal error", "goroutine "} {
		if strings.Contains(stderr.String(), bad) {
			return nil, 0, fmt.Errorf("deadlinelint crashed:\n%s", lastLines(stderr.String(), 20))
		}
	}
	var report []struct {
		Rule, File, Message string
		Line                int
		Related             []struct {
			File string
			Line int
		}
	}
	if err := json.Unmarshal(out, &report); err != nil {
		return nil, 0, fmt.Errorf("reading the JSON report: %v\n%s", err, lastLines(stderr.String(), 10))
	}
	var fs []finding
	for _, r := range report {
		f := finding{key: findingKey{m.key, r.File, r.Line, r.Rule}, message: r.Message}
		for _, rel := range r.Related {
			f.related = append(f.related, findingKey{m.key, rel.File, rel.Line, r.Rule})
		}
		fs = append(fs, f)
	}
	return fs, notAnalysed(stderr.String()), nil
}

// notAnalysed counts the packages deadlinelint's errors name as not analysed: one line per
// package ("deadlinelint: package P: …"), or one line for a module that could not be had with
// the number of packages it blocked ("deadlinelint: module M: N packages not analysed …").
func notAnalysed(stderr string) int {
	n := strings.Count(stderr, "deadlinelint: package ")
	for _, m := range blockedByModule.FindAllStringSubmatch(stderr, -1) {
		k, _ := strconv.Atoi(m[1])
		n += k
	}
	return n
}

var blockedByModule = regexp.MustCompile(`(?m)^deadlinelint: module .*: (\d+) packages? not analysed`)

// check compares the findings with the verdicts and prints the precision per rule.
func check(w io.Writer, mods []module, vs map[findingKey]verdict, fs []finding, newOut string) error {
	type tally struct{ real, noise, debatable, unjudged int }
	perRule := make(map[string]*tally)
	perModule := make(map[string]*tally)
	var unjudged []finding
	reported := make(map[findingKey]bool)
	merged := make(map[findingKey]bool) // a related position of a finding: reported with it
	for _, f := range fs {
		reported[f.key] = true
		for _, k := range f.related {
			merged[k] = true
		}
		t := perRule[f.key.rule]
		if t == nil {
			t = new(tally)
			perRule[f.key.rule] = t
		}
		m := perModule[f.key.module]
		if m == nil {
			m = new(tally)
			perModule[f.key.module] = m
		}
		switch vs[f.key].verdict {
		case "REAL":
			t.real++
			m.real++
		case "NOISE":
			t.noise++
			m.noise++
		case "DEBATABLE":
			t.debatable++
			m.debatable++
		default:
			t.unjudged++
			m.unjudged++
			unjudged = append(unjudged, f)
		}
	}
	ran := make(map[string]bool)
	for _, m := range mods {
		ran[m.key] = true
	}
	var lost, gone []verdict
	var joined int
	for _, v := range vs {
		if ran[v.key.module] && !reported[v.key] {
			if merged[v.key] {
				joined++
				continue
			}
			if v.verdict == "REAL" {
				lost = append(lost, v)
			} else {
				gone = append(gone, v)
			}
		}
	}
	rules := make([]string, 0, len(perRule))
	for r := range perRule {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	fmt.Fprintf(w, "\n%-16s %8s %6s %6s %9s %8s %10s\n", "rule", "findings", "REAL", "NOISE", "DEBATABLE", "unjudged", "precision")
	var sum tally
	for _, r := range rules {
		t := perRule[r]
		fmt.Fprintf(w, "%-16s %8d %6d %6d %9d %8d %10s\n", r, t.real+t.noise+t.debatable+t.unjudged, t.real, t.noise, t.debatable, t.unjudged, precision(t.real, t.noise))
		sum.real, sum.noise, sum.debatable, sum.unjudged = sum.real+t.real, sum.noise+t.noise, sum.debatable+t.debatable, sum.unjudged+t.unjudged
	}
	fmt.Fprintf(w, "%-16s %8d %6d %6d %9d %8d %10s\n", "all", len(fs), sum.real, sum.noise, sum.debatable, sum.unjudged, precision(sum.real, sum.noise))
	// Per module, the modules with the most findings first: a pooled figure is the largest
	// module's, and a user judges the tool on their own repository.
	mkeys := make([]string, 0, len(perModule))
	for m := range perModule {
		mkeys = append(mkeys, m)
	}
	n := func(t *tally) int { return t.real + t.noise + t.debatable + t.unjudged }
	sort.Slice(mkeys, func(i, j int) bool {
		a, b := perModule[mkeys[i]], perModule[mkeys[j]]
		return n(a) > n(b) || n(a) == n(b) && mkeys[i] < mkeys[j]
	})
	fmt.Fprintf(w, "\n%-52s %8s %6s %6s %9s %8s %10s\n", "module", "findings", "REAL", "NOISE", "DEBATABLE", "unjudged", "precision")
	var rest tally
	for i, m := range mkeys {
		t := perModule[m]
		fmt.Fprintf(w, "%-52s %8d %6d %6d %9d %8d %10s\n", m, n(t), t.real, t.noise, t.debatable, t.unjudged, precision(t.real, t.noise))
		if i > 0 {
			rest.real, rest.noise = rest.real+t.real, rest.noise+t.noise
		}
	}
	if len(mkeys) > 1 {
		fmt.Fprintf(w, "all but %s: %d REAL, %d NOISE, precision %s\n", mkeys[0], rest.real, rest.noise, precision(rest.real, rest.noise))
	}
	fmt.Fprintf(w, "verdicts now related positions of another finding (one finding per decision): %d\n", joined)
	fmt.Fprintf(w, "verdicts no longer reported: %d NOISE/DEBATABLE (fine), %d REAL (lost)\n", len(gone), len(lost))
	sort.Slice(lost, func(i, j int) bool { return lost[i].line < lost[j].line })
	for _, v := range lost {
		fmt.Fprintf(w, "LOST REAL  %s  (verdicts line %d: %s)\n", v.key, v.line, v.reason)
	}
	for _, f := range unjudged {
		fmt.Fprintf(w, "NO VERDICT %s  %s\n", f.key, f.message)
	}
	if newOut != "" && len(unjudged) > 0 {
		var b strings.Builder
		for _, f := range unjudged {
			fmt.Fprintf(&b, "%s\t%s\t%d\t%s\t?\t%s\n", f.key.module, f.key.file, f.key.line, f.key.rule, f.message)
		}
		if err := os.WriteFile(newOut, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	if len(lost) > 0 || len(unjudged) > 0 {
		return fmt.Errorf("%d findings without a verdict, %d REAL findings lost", len(unjudged), len(lost))
	}
	return nil
}

// writeList writes every finding as a verdict line: its verdict ("?" when it has none), the
// reason judged, and the message reported now.
func writeList(file string, vs map[findingKey]verdict, fs []finding) error {
	var b strings.Builder
	for _, f := range fs {
		v, ok := vs[f.key]
		if !ok {
			v.verdict = "?"
		}
		fmt.Fprintf(&b, "%s\t%s\t%d\t%s\t%s\t%s\t%s\n", f.key.module, f.key.file, f.key.line, f.key.rule, v.verdict, v.reason, f.message)
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}

func precision(real, noise int) string {
	if real+noise == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(real)/float64(real+noise))
}
