package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"time"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// phase is the time one analyzer spent over the actions of a graph.
type phase struct {
	name              string
	root, dep         time.Duration
	rootActs, depActs int
}

// printTimings writes the load and analysis wall times and, per analyzer,
// the summed duration of its actions on the packages named on the command
// line (roots) and on their dependencies.
// Actions run in parallel, so the sums can exceed the analysis wall time.
func printTimings(w io.Writer, graph *checker.Graph, load, analysis time.Duration) {
	roots := make(map[*packages.Package]bool)
	for _, act := range graph.Roots {
		roots[act.Package] = true
	}
	byName := make(map[string]*phase)
	for act := range graph.All() {
		p := byName[act.Analyzer.Name]
		if p == nil {
			p = &phase{name: act.Analyzer.Name}
			byName[act.Analyzer.Name] = p
		}
		if roots[act.Package] {
			p.root += act.Duration
			p.rootActs++
		} else {
			p.dep += act.Duration
			p.depActs++
		}
	}
	var phases []*phase
	for _, p := range byName {
		phases = append(phases, p)
	}
	slices.SortFunc(phases, func(x, y *phase) int { return cmp.Compare(y.root+y.dep, x.root+x.dep) })
	fmt.Fprintf(w, "load (packages.Load: go list, parse, type-check): %v\n", load.Round(time.Millisecond))
	fmt.Fprintf(w, "analysis (checker.Analyze, wall):                 %v\n", analysis.Round(time.Millisecond))
	fmt.Fprintf(w, "%-18s %12s %6s %12s %6s\n", "analyzer", "roots", "acts", "deps", "acts")
	for _, p := range phases {
		fmt.Fprintf(w, "%-18s %12v %6d %12v %6d\n", p.name, p.root.Round(time.Millisecond), p.rootActs, p.dep.Round(time.Millisecond), p.depActs)
	}
}
