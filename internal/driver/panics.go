package driver

import (
	"fmt"
	"os"
	"runtime/debug"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// A PanicError is a panic recovered from an analyzer's Run.
type PanicError struct {
	Rule    string
	Package string
	Value   any
	Stack   []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("internal error in rule %s on package %s: %v", e.Rule, e.Package, e.Value)
}

var (
	containMu sync.Mutex
	contained = make(map[*analysis.Analyzer]bool)
)

// ContainPanics makes each analyzer in the graph of analyzers (their
// Requires included) turn a panic in its Run into a *PanicError, so that
// one crashing rule costs one package's results instead of the whole run.
// It changes the analyzers in place, once: analyzers are identified by
// pointer (Pass.ResultOf is keyed by them), so they cannot be copied.
//
// When the environment variable DEADLINELINT_DEBUG is set, the stack of
// each panic is also printed to standard error as it happens (go vet
// mode has no -debug flag).
func ContainPanics(analyzers []*analysis.Analyzer) {
	containMu.Lock()
	defer containMu.Unlock()
	for _, a := range closure(analyzers) {
		if !contained[a] {
			contained[a] = true
			a.Run = recovering(a.Run)
		}
	}
}

func recovering(run func(*analysis.Pass) (any, error)) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (result any, err error) {
		defer func() {
			if v := recover(); v != nil {
				perr := &PanicError{Rule: pass.Analyzer.Name, Package: pass.Pkg.Path(), Value: v, Stack: debug.Stack()}
				if os.Getenv("DEADLINELINT_DEBUG") != "" {
					fmt.Fprintf(os.Stderr, "%v\n%s", perr, perr.Stack)
				}
				result, err = nil, perr
			}
			actionsDone.Add(1)
		}()
		return run(pass)
	}
}

// closure returns the analyzers and all they require, each once,
// dependencies first.
func closure(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	seen := make(map[*analysis.Analyzer]bool)
	var order []*analysis.Analyzer
	var visit func([]*analysis.Analyzer)
	visit = func(as []*analysis.Analyzer) {
		for _, a := range as {
			if !seen[a] {
				seen[a] = true
				visit(a.Requires)
				order = append(order, a)
			}
		}
	}
	visit(analyzers)
	return order
}

// needFacts reports whether any analyzer in the graph uses facts; if so,
// every dependency must be loaded from source and analysed too.
func needFacts(analyzers []*analysis.Analyzer) bool {
	for _, a := range closure(analyzers) {
		if len(a.FactTypes) > 0 {
			return true
		}
	}
	return false
}
