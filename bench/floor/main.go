// Command floor is the benchmark's baseline: a minimal analysis driver that
// loads and type-checks packages the way deadlinelint's standalone driver
// does (packages.Load, then checker.Analyze) and runs a suite that does
// next to nothing, so that its cost is the floor any analyzer pays.
//
// Usage:
//
//	floor [-suite noop|ssa|vta|vet|deadlinelint] [-mode auto|deadlinelint|syntax|allsyntax] [-test=false] [-timings] [-cpuprofile file] patterns...
//
// Suites:
//
//	noop  one analyzer whose run does nothing (floor a)
//	ssa   one analyzer that requires buildssa: SSA for every root package (floor b)
//	vta   (b) plus a VTA call graph of each root package's functions (go/callgraph/vta over
//	      its CHA graph): what resolving dynamic calls with VTA, package by package, would add
//	vet   go vet's default analyzers, for comparing vet's suite on the same driver
//	deadlinelint  deadlinelint's rules (analyzers.All), to see where its time goes
//
// With -timings, floor runs the analyzers sequentially and prints the load
// time and, per analyzer, the summed run time of its actions on root
// packages and on dependencies: the breakdown by phase of a run. (A lazily
// built shared result is charged to the first analyzer that asks for it.)
//
// The load mode follows the x/tools rule by default (auto): a suite whose
// analyzers carry facts needs the syntax of every dependency. -mode=deadlinelint
// picks the mode deadlinelint's driver picks for its own rules (all syntax,
// as its rules carry facts), so that floor (a) loads exactly what it loads.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/analyzers"
)

func main() {
	suiteName := flag.String("suite", "noop", "analyzers to run: noop, ssa, vet or deadlinelint")
	modeName := flag.String("mode", "auto", "load mode: auto, deadlinelint, syntax or allsyntax")
	tests := flag.Bool("test", true, "also analyse test packages")
	timings := flag.Bool("timings", false, "run analyzers sequentially; print load time and per-analyzer run times")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the run to `file`")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "floor: %v\n", err)
			os.Exit(2)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(*suiteName, *modeName, *tests, *timings, flag.Args()); err != nil {
		fmt.Fprintf(os.Stderr, "floor: %v\n", err)
		pprof.StopCPUProfile()
		os.Exit(2)
	}
}

func run(suiteName, modeName string, tests, timings bool, patterns []string) error {
	suite, err := suiteByName(suiteName)
	if err != nil {
		return err
	}
	mode, err := loadMode(modeName, suite)
	if err != nil {
		return err
	}
	cfg := &packages.Config{Mode: mode, Tests: tests}
	start := time.Now()
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return err
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		fmt.Fprintf(os.Stderr, "floor: %d load errors (analysis continues)\n", n)
	}
	loaded := time.Since(start)
	// Timings are only meaningful when actions do not share the CPUs.
	graph, err := checker.Analyze(suite, pkgs, &checker.Options{Sequential: timings})
	if err != nil {
		return err
	}
	if timings {
		printTimings(os.Stderr, graph, loaded, time.Since(start)-loaded)
	}
	diags := 0
	for act := range graph.All() {
		if act.IsRoot {
			diags += len(act.Diagnostics)
		}
	}
	fmt.Fprintf(os.Stderr, "floor: %d root packages, %d diagnostics\n", len(pkgs), diags)
	return nil
}

// noop does nothing: running it costs only loading and type-checking.
var noop = &analysis.Analyzer{
	Name: "noop",
	Doc:  "does nothing; measures the cost of loading and type-checking",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}

// ssaOnly forces SSA construction for every root package.
var ssaOnly = &analysis.Analyzer{
	Name:     "ssaonly",
	Doc:      "builds SSA and nothing else; measures the cost of SSA construction",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run:      func(*analysis.Pass) (any, error) { return nil, nil },
}

// vtaGraph builds, after SSA, the VTA call graph of the package's own functions, as an
// analysis resolving dynamic calls with go/callgraph/vta would in each package: the initial
// graph is CHA over the package's program, which holds this package's bodies only.
var vtaGraph = &analysis.Analyzer{
	Name:     "vtagraph",
	Doc:      "builds SSA and a VTA call graph of the package's functions; measures what VTA adds",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		info := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
		funcs := make(map[*ssa.Function]bool)
		var add func(fn *ssa.Function)
		add = func(fn *ssa.Function) {
			funcs[fn] = true
			for _, anon := range fn.AnonFuncs {
				add(anon)
			}
		}
		for _, fn := range info.SrcFuncs {
			add(fn)
		}
		vta.CallGraph(funcs, cha.CallGraph(info.Pkg.Prog))
		return nil, nil
	},
}

func suiteByName(name string) ([]*analysis.Analyzer, error) {
	switch name {
	case "noop":
		return []*analysis.Analyzer{noop}, nil
	case "ssa":
		return []*analysis.Analyzer{ssaOnly}, nil
	case "vta":
		return []*analysis.Analyzer{vtaGraph}, nil
	case "vet":
		return vetSuite, nil
	case "deadlinelint":
		return analyzers.All(), nil
	}
	return nil, fmt.Errorf("unknown suite %q (want noop, ssa, vta, vet or deadlinelint)", name)
}

// loadMode returns the packages.Load mode. auto is the rule x/tools'
// checkers apply: syntax for every dependency when some analyzer, or one
// it requires, carries facts; export data for dependencies otherwise.
func loadMode(name string, suite []*analysis.Analyzer) (packages.LoadMode, error) {
	var mode packages.LoadMode
	switch name {
	case "auto":
		mode = packages.LoadSyntax
		if needFacts(suite) {
			mode = packages.LoadAllSyntax
		}
	case "deadlinelint":
		// The mode deadlinelint's driver picks for its rules, by the same rule.
		mode = packages.LoadSyntax
		if needFacts(analyzers.All()) {
			mode = packages.LoadAllSyntax
		}
	case "syntax":
		mode = packages.LoadSyntax
	case "allsyntax":
		mode = packages.LoadAllSyntax
	default:
		return 0, fmt.Errorf("unknown load mode %q (want auto, deadlinelint, syntax or allsyntax)", name)
	}
	return mode | packages.NeedModule, nil
}

// needFacts reports whether any analyzer in the closure of suite under
// Requires declares fact types.
func needFacts(suite []*analysis.Analyzer) bool {
	seen := make(map[*analysis.Analyzer]bool)
	var visit func([]*analysis.Analyzer) bool
	visit = func(as []*analysis.Analyzer) bool {
		for _, a := range as {
			if seen[a] {
				continue
			}
			seen[a] = true
			if len(a.FactTypes) > 0 || visit(a.Requires) {
				return true
			}
		}
		return false
	}
	return visit(suite)
}
