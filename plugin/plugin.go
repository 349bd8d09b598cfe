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
	return func(conf any) (register.LinterPlugin, error) {
		if err := applySettings(a, conf); err != nil {
			return nil, err
		}
		return &rulePlugin{analyzer: a}, nil
	}
}

// BuildAnalyzers returns the rule's analyzer; golangci-lint runs its
// requirements (buildssa, facts of dependencies) itself.
func (p *rulePlugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{p.analyzer}, nil
}

// GetLoadMode asks for full type information: the rules work on SSA, and
// with syntax only golangci-lint's ctrlflow pass panics.
func (p *rulePlugin) GetLoadMode() string {
	return register.LoadModeTypesInfo
}
