// Package driver is deadlinelint's standalone command: it loads packages
// with go/packages, runs the rules with the public checker.Analyze, and
// reports findings the way a CI gate needs them — de-duplicated across a
// package and its test variant, sorted, with repository-relative paths,
// in text, JSON, SARIF or GitHub Actions format, with documented exit
// codes (0 clean, 1 findings, 2 errors). It can also apply or show the
// rules' suggested fixes.
package driver

import (
	"github.com/deadlinelint/deadlinelint/docs"
	"github.com/deadlinelint/deadlinelint/internal/ruledoc"

	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/deadlinelint/deadlinelint/internal/output"
)

// Exit codes of the standalone command.
const (
	ExitClean    = 0 // no findings
	ExitFindings = 1 // findings (unless -exit-zero)
	ExitError    = 2 // bad usage, packages that fail to load, internal errors
)

// A Command is the standalone deadlinelint command.
type Command struct {
	Name      string // program name in messages: "deadlinelint"
	Version   string
	Analyzers []*analysis.Analyzer
	Stdout    io.Writer
	Stderr    io.Writer
	Dir       string // working directory; "" for the process's own
	// VetTool is the command's own executable, to analyse through go vet (vet.go); "" to
	// analyse in the process.
	VetTool string

	toolOnce sync.Once // toolID
	toolSum  string
	toolErr  error
}

// Run runs the command with args (without the program name) and returns
// its exit code.
func (c *Command) Run(args []string) (code int) {
	defer func() {
		if v := recover(); v != nil {
			c.errorf("internal error: %v", v)
			if os.Getenv("DEADLINELINT_DEBUG") != "" {
				c.Stderr.Write(debug.Stack())
			}
			code = ExitError
		}
	}()
	cfg, err := c.parseFlags(args)
	if err != nil {
		return c.usageError(err)
	}
	switch {
	case cfg.help:
		c.writeHelp(c.Stdout)
		return ExitClean
	case cfg.version:
		fmt.Fprintf(c.Stdout, "%s version %s\n", c.Name, c.Version)
		return ExitClean
	case len(cfg.patterns) > 0 && cfg.patterns[0] == "help":
		return c.help(cfg.patterns[1:])
	case len(cfg.patterns) == 0:
		return c.usageError(&errUsage{"no packages to analyse (try: " + c.Name + " ./...)"})
	case len(cfg.analyzers) == 0:
		return c.usageError(&errUsage{"no rules selected"})
	}
	return c.analyse(cfg)
}

func (c *Command) help(args []string) int {
	if len(args) == 0 {
		c.writeHelp(c.Stdout)
		return ExitClean
	}
	for _, name := range args {
		if err := c.writeRuleHelp(c.Stdout, name); err != nil {
			return c.usageError(err)
		}
	}
	return ExitClean
}

func (c *Command) usageError(err error) int {
	c.errorf("%v (run %s -help for usage)", err, c.Name)
	return ExitError
}

func (c *Command) errorf(format string, args ...any) {
	fmt.Fprintf(c.Stderr, c.Name+": "+format+"\n", args...)
}

// A result is what the analysis of the patterns produced.
type result struct {
	root     string // paths in reports are relative to it (findRoot)
	dir      string // the directory the command ran in: text output is relative to it
	findings []output.Finding
	errors   []string
	listing  []routePackage // the package route's listing, when it ran
	stale    []string       // the packages of listing whose export data is older than their files
}

func (c *Command) analyse(cfg *config) int {
	dir := c.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			c.errorf("%v", err)
			return ExitError
		}
		dir = wd
	}
	prog := startProgress(c.Stderr)
	analyse := c.analysePackages
	if c.useVet() {
		analyse = c.analyseWithVet
	}
	res, err := analyse(dir, cfg, prog)
	prog.end()
	if err != nil {
		c.errorf("%v", err)
		return ExitError
	}
	for _, e := range res.errors {
		fmt.Fprintf(c.Stderr, "%s: %s\n", c.Name, e)
	}

	remaining := res.findings
	if cfg.fix || cfg.diff {
		remaining, err = c.applyFixes(cfg, res)
		if err != nil {
			c.errorf("%v", err)
			return ExitError
		}
	}
	if !cfg.diff {
		if err := c.writeReport(cfg, res, remaining); err != nil {
			c.errorf("%v", err)
			return ExitError
		}
	}

	switch {
	case len(res.errors) > 0:
		return ExitError
	case len(remaining) > 0 && !cfg.exitZero:
		return ExitFindings
	}
	return ExitClean
}

// analysePackages loads and analyses the packages; it returns an error
// only when nothing could be analysed at all.
func (c *Command) analysePackages(dir string, cfg *config, prog *progress) (*result, error) {
	res := &result{root: findRoot(dir), dir: dir}
	prog.setStage("loading packages")
	t0 := time.Now()
	pkgs, err := load(dir, cfg, needFacts(cfg.analyzers), func(format string, args ...any) { c.debugf(cfg, format, args...) })
	if err != nil {
		return nil, fmt.Errorf("loading packages: %s", goCommandError(err))
	}
	res.errors = packageErrors(pkgs, cfg.patterns, res.root)
	for i, e := range res.errors {
		res.errors[i] = withModuleHint(e)
	}
	for _, pat := range unmatchedPatterns(dir, cfg.patterns, pkgs) {
		res.errors = append(res.errors, fmt.Sprintf("pattern %s: matched no packages", pat))
	}
	if len(pkgs) == 0 && len(res.errors) == 0 {
		res.errors = append(res.errors, fmt.Sprintf("%s: matched no packages", strings.Join(cfg.patterns, " ")))
	}
	roots := analysable(pkgs)
	c.debugf(cfg, "loaded %d packages (%d to analyse) in %v", len(pkgs), len(roots), time.Since(t0).Round(time.Millisecond))

	prog.setStage(fmt.Sprintf("analysing %d packages", len(roots)))
	t0 = time.Now()
	ContainPanics(cfg.analyzers)
	graph, err := checker.Analyze(cfg.analyzers, roots, nil)
	if err != nil {
		return nil, err
	}
	c.debugf(cfg, "analysed in %v", time.Since(t0).Round(time.Millisecond))

	coll := newCollector(res.root)
	for _, p := range roots {
		coll.addFiles(p.Fset, p.Syntax)
	}
	for _, act := range graph.Roots {
		if act.Err == nil {
			for _, d := range act.Diagnostics {
				coll.add(act.Package.Fset, act.Analyzer.Name, d)
			}
		}
	}
	res.findings = coll.findings
	output.Sort(res.findings)
	res.errors = append(res.errors, actionErrors(graph, cfg.debug)...)
	if cfg.listed != nil && len(res.errors) == 0 && c.VetTool != "" {
		// A run in the process because the build cache is cold: what it checked lets the
		// next run after an edit take the package route without compiling (pkgfill.go).
		t0 := time.Now()
		listing, why := c.fillPackageCache(cfg, pkgs, graph)
		if listing == nil {
			c.debugf(cfg, "the package cache is not filled: %s", why)
		} else {
			c.debugf(cfg, "the package cache filled for the next run in %v", time.Since(t0).Round(time.Millisecond))
		}
		res.listing = listing
	}
	return res, nil
}

// actionErrors describes each failed analysis once, at its cause: an
// action that failed only because an action it needs failed says nothing.
func actionErrors(graph *checker.Graph, withStack bool) []string {
	var lines []string
	seen := make(map[string]bool)
	for act := range graph.All() {
		if act.Err == nil || depFailed(act) {
			continue
		}
		var line string
		if perr, ok := act.Err.(*PanicError); ok {
			line = perr.Error()
			if withStack {
				line += "\n" + strings.TrimRight(string(perr.Stack), "\n")
			} else {
				line += " (run with -debug for the stack)"
			}
		} else {
			line = fmt.Sprintf("rule %s on package %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err)
		}
		if !seen[line] {
			seen[line] = true
			lines = append(lines, line)
		}
	}
	return lines
}

func depFailed(act *checker.Action) bool {
	for _, dep := range act.Deps {
		if dep.Err != nil {
			return true
		}
	}
	return false
}

func (c *Command) debugf(cfg *config, format string, args ...any) {
	if cfg.debug {
		c.errorf(format, args...)
	}
}

// writeReport writes the findings in the chosen format to -o or stdout.
func (c *Command) writeReport(cfg *config, res *result, findings []output.Finding) error {
	if cfg.format == "text" {
		findings = relativeTo(res.root, res.dir, findings)
	} else {
		findings = relativeTo(res.root, res.root, findings)
	}
	report := &output.Report{
		ToolName:    c.Name,
		ToolVersion: c.Version,
		Findings:    findings,
		Errors:      res.errors,
		Root:        res.root,
	}
	for _, a := range cfg.analyzers {
		report.Rules = append(report.Rules, output.Rule{
			Name: a.Name, Title: ruledoc.Title(a.Name), Doc: a.Doc, URL: a.URL, Help: docs.RuleHelp(a.Name),
		})
	}
	return c.writeOutput(cfg, func(w io.Writer) error {
		return output.Write(w, cfg.format, report)
	})
}

// writeOutput calls write with the -o file, or with stdout.
func (c *Command) writeOutput(cfg *config, write func(io.Writer) error) error {
	if cfg.output == "" {
		return write(c.Stdout)
	}
	f, err := os.Create(cfg.output)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// goCommandError returns what the go command said of a load that failed, without the wrapping
// go/packages gives it ("err: exit status 1: stderr: go: …"), with a hint where the fix is to
// run from a module.
func goCommandError(err error) string {
	msg := err.Error()
	if _, after, ok := strings.Cut(msg, "stderr: "); ok {
		msg = strings.TrimSpace(after)
	}
	return withModuleHint(msg)
}

// withModuleHint adds to a go command error that the packages are outside every module, or
// outside the one the command ran in, what to do: run deadlinelint in the module's directory.
func withModuleHint(msg string) string {
	switch {
	case strings.Contains(msg, "go.mod file not found"):
		return msg + " (run deadlinelint in a module: the directory of its go.mod, or below it)"
	case strings.Contains(msg, "does not contain main module"), strings.Contains(msg, "outside main module"):
		return msg + " (run deadlinelint in the directory of that package's module, with patterns relative to it)"
	}
	return msg
}
