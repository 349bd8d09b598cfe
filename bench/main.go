// Command bench measures deadlinelint against its floor and its peers on
// real code from the module cache: the standard library and grpc.
//
// Every tool gets the same packages and the same test setting (tests
// excluded), runs alternate (a, b, c, ... then again) and the table shows
// medians of wall time and peak RSS, with ratios to the floors measured in
// the same invocation:
//
//	(a)  floor: bench/floor loads and type-checks through packages.Load and
//	     checker.Analyze with a no-op analyzer
//	(b)  floor + SSA: the same with an analyzer requiring buildssa
//	(c)  deadlinelint -test=false
//	(d)  go vet, its default suite (result cache bypassed, build cache warm)
//	(d') go vet's suite on the floor's driver, -test=false
//	(e)  contextcheck at its latest served version, -test=false
//
// A scaling run then times (a), (b) and (c) on dependency-closed package
// sets of growing size. Usage, from the module root:
//
//	go run ./bench [-runs 5] [-quick] [-write docs/performance.md]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

type options struct {
	runs      int
	quick     bool
	write     string
	corpora   string
	scaling   string
	floorMode string
	keep      bool
}

func main() {
	var o options
	flag.IntVar(&o.runs, "runs", 5, "timed runs per tool and corpus (after one untimed warm-up)")
	flag.BoolVar(&o.quick, "quick", false, "smoke test: 1 run, no warm-up, no go vet rows, small package sets")
	flag.StringVar(&o.write, "write", "", "update the generated section of this markdown `file` (e.g. docs/performance.md)")
	flag.StringVar(&o.corpora, "corpus", "std,grpc", "comma-separated corpora to measure: std, grpc (empty: only the scaling run)")
	flag.StringVar(&o.scaling, "scaling", "10,100,300,630", "comma-separated package counts for the scaling run (empty: none; capped at the workspace's packages)")
	flag.StringVar(&o.floorMode, "floor-mode", "deadlinelint", "load mode of floor (a): deadlinelint (the mode its driver uses), auto, syntax or allsyntax")
	flag.BoolVar(&o.keep, "keep", false, "keep the work directory (binaries, corpus module, logs)")
	flag.Parse()
	if o.quick {
		o.runs = 1
		if !isFlagSet("scaling") {
			o.scaling = "10,50"
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
}

func isFlagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func run(ctx context.Context, o options) error {
	if o.runs < 1 {
		return fmt.Errorf("-runs must be at least 1")
	}
	root, err := moduleRoot(ctx)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "deadlinelint-bench-")
	if err != nil {
		return err
	}
	if o.keep {
		fmt.Fprintf(os.Stderr, "bench: work directory %s\n", work)
	} else {
		defer os.RemoveAll(work)
	}
	bin, corpusDir, logs := filepath.Join(work, "bin"), filepath.Join(work, "corpus"), filepath.Join(work, "logs")
	for _, d := range []string{bin, logs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	progress("preparing the corpus module")
	if err := setupCorpusModule(ctx, root, corpusDir); err != nil {
		return err
	}
	progress("building the tools")
	tools, versions, err := buildTools(ctx, root, bin, corpusDir, o.floorMode)
	if err != nil {
		return err
	}
	corpora, err := selectCorpora(ctx, root, work, corpusDir, o)
	if err != nil {
		return err
	}
	if o.quick {
		tools = skipTools(tools, "d", "d1", "d'") // go vet's rows dominate a smoke test
	}
	m := &measurer{dir: corpusDir, logs: logs, runs: o.runs, warmup: !o.quick}
	rep := &report{opts: o, machine: describeMachine(ctx), versions: versions, tools: tools, started: time.Now()}
	for _, c := range corpora {
		res, err := m.measure(ctx, c, tools)
		if err != nil {
			return err
		}
		rep.results = append(rep.results, res)
	}
	if o.scaling != "" {
		sizes, err := parseSizes(o.scaling)
		if err != nil {
			return err
		}
		progress("copying grpc, x/tools and protobuf into a workspace for the scaling run")
		wsDir := filepath.Join(work, "workspace")
		if err := setupWorkspace(ctx, root, wsDir); err != nil {
			return err
		}
		sets, err := scalingCorpora(ctx, wsDir, sizes)
		if err != nil {
			return err
		}
		scaleTools := selectTools(tools, "a", "b", "c")
		for _, c := range sets {
			res, err := m.measure(ctx, c, scaleTools)
			if err != nil {
				return err
			}
			rep.scaling = append(rep.scaling, res)
		}
	}
	rep.elapsed = time.Since(rep.started)
	text := rep.markdown()
	fmt.Print(text)
	if o.write != "" {
		path := o.write
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		if err := writeSection(path, text); err != nil {
			return err
		}
		progress("wrote %s", path)
	}
	return nil
}

// selectCorpora resolves the requested corpora; quick mode uses small slices of them. std is
// analysed from the corpus module, where it is what it always is, the standard library; grpc
// is copied out of the module cache first (copyModule), so that it is the user's own code.
func selectCorpora(ctx context.Context, root, work, corpusDir string, o options) ([]corpus, error) {
	var cs []corpus
	if strings.TrimSpace(o.corpora) == "" {
		return nil, nil
	}
	for _, name := range strings.Split(o.corpora, ",") {
		var patterns []string
		dir := corpusDir
		switch name = strings.TrimSpace(name); name {
		case "std":
			patterns = []string{"std"}
			if o.quick {
				patterns = []string{"encoding/json"}
			}
		case "grpc":
			progress("copying google.golang.org/grpc out of the module cache")
			dir = filepath.Join(work, "grpc")
			if err := copyModule(ctx, root, dir, "google.golang.org/grpc"); err != nil {
				return nil, err
			}
			patterns = []string{"./..."}
			if o.quick {
				patterns = []string{"."}
			}
		default:
			return nil, fmt.Errorf("unknown corpus %q (want std or grpc)", name)
		}
		c, err := resolveCorpus(ctx, dir, name, patterns)
		if err != nil {
			return nil, err
		}
		c.owned = name == "grpc"
		if c.owned {
			if c.leafFile, err = leafFile(ctx, c); err != nil {
				return nil, err
			}
		}
		cs = append(cs, c)
	}
	return cs, nil
}

func parseSizes(s string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Split(s, ",") {
		var n int
		if _, err := fmt.Sscan(strings.TrimSpace(f), &n); err != nil || n < 1 {
			return nil, fmt.Errorf("bad -scaling size %q", f)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

func skipTools(tools []tool, keys ...string) []tool {
	var out []tool
	for _, t := range tools {
		if !slices.Contains(keys, t.key) {
			out = append(out, t)
		}
	}
	return out
}

func selectTools(tools []tool, keys ...string) []tool {
	var out []tool
	for _, t := range tools {
		for _, k := range keys {
			if t.key == k {
				out = append(out, t)
			}
		}
	}
	return out
}

// moduleRoot returns the directory of the deadlinelint module's go.mod.
func moduleRoot(ctx context.Context) (string, error) {
	gomod, err := goOutput(ctx, ".", nil, "env", "GOMOD")
	if err != nil {
		return "", err
	}
	gomod = strings.TrimSpace(gomod)
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("run bench from inside the deadlinelint module")
	}
	return filepath.Dir(gomod), nil
}

func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}
