// Package vetmode is deadlinelint run by go vet (go vet -vettool=deadlinelint): the unitchecker
// protocol, one package per process, plus what makes it fast and lets the standalone command
// drive it.
//
//   - A package of the standard library or of a dependency module in the module cache that go
//     vet asks to analyse only for its facts (a VetxOnly config) is answered with empty facts,
//     without a parse or a type-check, unless it imports context: the rules ask nothing else of
//     code the user does not own, and recognise it by its files, not by facts. Most of go
//     vet's first run is such packages. One that imports context is analysed for the facts
//     ctxssa finds in a library's syntax (functions that only read values from their ctx, or
//     never refer to it), as the in-process driver does.
//   - -test=false leaves _test.go files out, as the standalone command's flag does.
//   - The processes of one run of the standalone command share the outputs of identical
//     analyses (share.go): with -test=false go vet asks for the same analysis of a package more
//     than once.
//   - -ends marks each diagnostic's message with its end position, which go vet's JSON does
//     not carry, for the standalone command to read back (SplitEnd). A flag, not an
//     environment variable: go vet keys its cache on the flags, so a plain go vet never sees a
//     marked message.
//
// go vet lists these among the tool's flags (-flags) and passes them on.
package vetmode

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// The vet-mode flags.
const (
	TestFlag = "test"
	EndsFlag = "ends"
)

func init() {
	flag.Bool(TestFlag, true, "analyse _test.go files (-test=false leaves them out)")
	flag.Bool(EndsFlag, false, "mark each message with its end position (for the standalone command)")
}

// Invoked reports whether go vet is running the tool: it asks for the flags (-flags) and the
// version (-V=full), then passes one *.cfg file per package.
func Invoked(args []string) bool {
	for _, arg := range args {
		if arg == "-flags" || arg == "--flags" || arg == "-V=full" || arg == "--V=full" {
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

// Main analyses the package of the config os.Args names with analyzers, as go vet asks. It
// does not return.
func Main(analyzers []*analysis.Analyzer) {
	args := os.Args[1:]
	skipped, err := skipDependency(args)
	if err == nil && !skipped {
		skipped, err = rewriteConfig(args)
	}
	switch {
	case err != nil:
		fmt.Fprintf(os.Stderr, "deadlinelint: %v\n", err)
		os.Exit(1)
	case skipped:
		os.Exit(0)
	}
	if share(args) {
		os.Exit(0)
	}
	if v, _ := flagValue(args, EndsFlag); v == "true" {
		analyzers = WithEnds(analyzers) // the standalone command, which names the rules itself
	} else {
		analyzers = WithRuleNames(analyzers)
	}
	unitchecker.Main(analyzers...)
}

// flagValue returns the value the arguments give the flag name, and whether they set it
// ("true" for a bare boolean flag).
func flagValue(args []string, name string) (string, bool) {
	for _, a := range args {
		t := strings.TrimLeft(a, "-")
		if t == name {
			return "true", true
		}
		if v, ok := strings.CutPrefix(t, name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// skipDependency answers a VetxOnly request for a package of the standard library or of a
// versioned dependency module with empty facts.
func skipDependency(args []string) (bool, error) {
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return false, nil
	}
	data, err := os.ReadFile(args[len(args)-1])
	if err != nil {
		return false, nil // unitchecker reports it
	}
	var cfg struct {
		ImportPath    string
		Dir           string
		ModulePath    string
		ModuleVersion string
		GoFiles       []string
		ImportMap     map[string]string
		VetxOnly      bool
		VetxOutput    string
	}
	if json.Unmarshal(data, &cfg) != nil || !cfg.VetxOnly || cfg.VetxOutput == "" {
		return false, nil
	}
	// A package that imports context may declare functions that only read values from their
	// ctx, or never refer to it: the in-process driver knows them from their syntax (ctxssa's
	// library facts), and so must this route, or the two report different findings.
	for path := range cfg.ImportMap {
		if typesutil.IsContextPath(path) {
			return false, nil
		}
	}
	// A versioned module is known by its files only in the module cache: one a replace
	// directive points at a directory is analysed, for the fact that says it is a dependency.
	inCache := cfg.ModuleVersion != "" && len(cfg.GoFiles) > 0 && strings.Contains(filepath.ToSlash(cfg.GoFiles[0]), "/pkg/mod/")
	if !inCache && !standard(cfg.ModulePath, cfg.Dir) {
		return false, nil
	}
	return true, os.WriteFile(cfg.VetxOutput, nil, 0o666)
}

// standard reports whether the package of a vet config is in the standard library: it has no
// module and its directory is under GOROOT/src. The config's Standard map says so only of the
// package's imports, never of the package itself; go vet sets GOROOT in the tool's environment.
func standard(modulePath, dir string) bool {
	goroot := os.Getenv("GOROOT")
	if modulePath != "" || goroot == "" || dir == "" {
		return false
	}
	rel, err := filepath.Rel(filepath.Join(goroot, "src"), dir)
	return err == nil && rel != "." && filepath.IsLocal(rel)
}

// rewriteConfig rewrites the package config at the end of args, and reports whether nothing is
// left to analyse (skipped):
//   - with -test=false, without its _test.go files: an external test package or a test main
//     is skipped. (A package recompiled for another's test, "q [p.test]", is not recognised:
//     go vet gives it the same ID and files as q.)
//   - with -ends (the standalone command), a package of the user's code asked only for its
//     facts is analysed in full. go vet caches a package's output under a key that does not say
//     whether it was asked only for facts, and replays that output to later runs that name the
//     package: a facts-only run must leave its findings in the cache too. The standalone command
//     reports only the packages it was asked for.
func rewriteConfig(args []string) (skipped bool, err error) {
	name := args[len(args)-1]
	if !strings.HasSuffix(name, ".cfg") {
		return false, nil
	}
	v, _ := flagValue(args, TestFlag)
	noTests := slices.Contains([]string{"false", "0", "f", "F", "FALSE", "False"}, v)
	ends, _ := flagValue(args, EndsFlag)
	if !noTests && ends != "true" {
		return false, nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return false, nil // unitchecker reports it
	}
	var cfg map[string]any
	if json.Unmarshal(data, &cfg) != nil {
		return false, nil
	}
	changed := false
	vetxOnly, _ := cfg["VetxOnly"].(bool)
	if noTests {
		files, _ := cfg["GoFiles"].([]any)
		var kept []any
		for _, f := range files {
			if s, ok := f.(string); ok && !strings.HasSuffix(s, "_test.go") {
				kept = append(kept, f)
			}
		}
		switch {
		case len(kept) == 0 && len(files) > 0:
			return true, writeEmpty(cfg, "VetxOutput", "Stdout")
		case len(kept) < len(files):
			cfg["GoFiles"] = kept
			changed = true
		}
	}
	if ends == "true" && vetxOnly {
		cfg["VetxOnly"] = false
		changed = true
	}
	if !changed {
		return false, nil
	}
	data, err = json.Marshal(cfg)
	if err != nil {
		return false, err
	}
	rewritten := strings.TrimSuffix(name, ".cfg") + ".deadlinelint.cfg"
	if err := os.WriteFile(rewritten, data, 0o666); err != nil {
		return false, err
	}
	args[len(args)-1] = rewritten
	return false, nil
}

// writeEmpty creates the files the config names under keys, empty.
func writeEmpty(cfg map[string]any, keys ...string) error {
	for _, key := range keys {
		if out, _ := cfg[key].(string); out != "" {
			if err := os.WriteFile(out, nil, 0o666); err != nil {
				return err
			}
		}
	}
	return nil
}

// WithRuleNames returns the analyzers with their diagnostics' messages ending in the rule's
// name, as the standalone command's text output writes them ("…; pass ctx (ctxbackground)"):
// go vet's text output names no analyzer, and a //deadlinelint:ignore needs the rule. (go vet
// asks its tool for JSON and writes the text itself, so its -json output, keyed by analyzer,
// carries the name in the message too.)
func WithRuleNames(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	return rewriting(analyzers, func(a *analysis.Analyzer, _ *analysis.Pass, d *analysis.Diagnostic) {
		d.Message += " (" + a.Name + ")"
	})
}

// endMark separates a message from the end position WithEnds appends to it.
const endMark = "\x00end="

// WithEnds returns the analyzers with their diagnostics' messages marked with their end
// position (line:column, in the same file).
func WithEnds(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	return rewriting(analyzers, func(_ *analysis.Analyzer, pass *analysis.Pass, d *analysis.Diagnostic) {
		if end := pass.Fset.Position(d.End); end.IsValid() && end.Filename == pass.Fset.Position(d.Pos).Filename {
			d.Message += fmt.Sprintf("%s%d:%d", endMark, end.Line, end.Column)
		}
	})
}

// rewriting returns copies of the analyzers whose diagnostics rewrite changes before they are
// reported.
func rewriting(analyzers []*analysis.Analyzer, rewrite func(*analysis.Analyzer, *analysis.Pass, *analysis.Diagnostic)) []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(analyzers))
	for i, a := range analyzers {
		w := *a
		run := a.Run
		w.Run = func(pass *analysis.Pass) (any, error) {
			report := pass.Report
			p := *pass
			p.Report = func(d analysis.Diagnostic) {
				rewrite(a, pass, &d)
				report(d)
			}
			return run(&p)
		}
		out[i] = &w
	}
	return out
}

// SplitEnd returns a message without the end mark WithEnds gave it, and the end it marks.
func SplitEnd(msg string) (text string, line, col int, ok bool) {
	i := strings.Index(msg, endMark)
	if i < 0 {
		return msg, 0, 0, false
	}
	if _, err := fmt.Sscanf(msg[i+len(endMark):], "%d:%d", &line, &col); err != nil {
		return msg[:i], 0, 0, false
	}
	return msg[:i], line, col, true
}
