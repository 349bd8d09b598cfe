package plugin

import (
	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/deadlinelint/deadlinelint/analyzers"
)

func init() {
	for _, a := range analyzers.All() {
		register.Plugin(a.Name, newPlugin(a))
	}
}

// rulePlugin is one deadlinelint rule as a golangci-lint linter.
type rulePlugin struct {
	analyzer *analysis.Analyzer
}

// newPlugin returns the constructor golangci-lint calls with the rule's
// settings from .golangci.yml.
func newPlugin(a *analysis.Analyzer) register.NewPlugin {
	folded := withoutRelated(a)
	return func(conf any) (register.LinterPlugin, error) {
		if err := applySettings(a, conf); err != nil {
			return nil, err
		}
		return &rulePlugin{analyzer: folded}, nil
	}
}

// BuildAnalyzers returns the rule's analyzer, as withoutRelated shapes it for golangci-lint,
// which runs its requirements (facts of dependencies) itself.
func (p *rulePlugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{p.analyzer}, nil
}

// withoutRelated returns a copy of the rule's analyzer whose diagnostics carry no related
// positions. golangci-lint makes each related position an issue of its own ("ctxbackground
// (related information): …"), counted, listed and fixed like a finding: one lost deadline would
// show as several. Each finding stays one issue; its message says what the related positions
// showed (the root, how many calls reach it), and deadlinelint's own output keeps them.
func withoutRelated(a *analysis.Analyzer) *analysis.Analyzer {
	w := *a
	w.Run = func(pass *analysis.Pass) (any, error) {
		report := pass.Report
		pass.Report = func(d analysis.Diagnostic) {
			d.Related = nil
			report(d)
		}
		return a.Run(pass)
	}
	return &w
}

// GetLoadMode asks for full type information: the rules work on SSA, and
// with syntax only golangci-lint's ctrlflow pass panics.
func (p *rulePlugin) GetLoadMode() string {
	return register.LoadModeTypesInfo
}
