package plugin

import (
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/deadlinelint/deadlinelint/analyzers"
)

func TestEveryRuleIsRegistered(t *testing.T) {
	all := analyzers.All()
	if len(all) == 0 {
		t.Fatal("analyzers.All() is empty")
	}
	for _, a := range all {
		newRule, err := register.GetPlugin(a.Name)
		if err != nil {
			t.Errorf("rule %s: %v", a.Name, err)
			continue
		}
		p, err := newRule(nil)
		if err != nil {
			t.Errorf("rule %s with no settings: %v", a.Name, err)
			continue
		}
		if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
			t.Errorf("rule %s: load mode %q, want %q", a.Name, got, register.LoadModeTypesInfo)
		}
		built, err := p.BuildAnalyzers()
		if err != nil || len(built) != 1 || built[0].Name != a.Name || built[0].Doc != a.Doc ||
			len(built[0].FactTypes) != len(a.FactTypes) || len(built[0].Requires) != len(a.Requires) {
			t.Errorf("rule %s: BuildAnalyzers() = %v, %v; want exactly its own analyzer", a.Name, built, err)
		}
	}
}

func TestRegisteredRuleRejectsUnknownSetting(t *testing.T) {
	a := analyzers.All()[0]
	newRule, err := register.GetPlugin(a.Name)
	if err != nil {
		t.Fatal(err)
	}
	_, err = newRule(map[string]any{"no-such-setting": true})
	if err == nil || !strings.Contains(err.Error(), `unknown setting "no-such-setting"`) {
		t.Errorf("newRule(no-such-setting) = %v, want an unknown-setting error", err)
	}
}

// TestNoRelatedPositions checks that the analyzer golangci-lint runs reports the rule's findings
// with no related positions, which golangci-lint would make issues of their own.
func TestNoRelatedPositions(t *testing.T) {
	var got []analysis.Diagnostic
	a := &analysis.Analyzer{Name: "rule", Doc: "rule", Run: func(pass *analysis.Pass) (any, error) {
		pass.Report(analysis.Diagnostic{Message: "lost", Related: []analysis.RelatedInformation{{Message: "root here"}}})
		return nil, nil
	}}
	pass := &analysis.Pass{Report: func(d analysis.Diagnostic) { got = append(got, d) }}
	if _, err := withoutRelated(a).Run(pass); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Message != "lost" || len(got[0].Related) != 0 {
		t.Errorf("reported %+v, want one diagnostic, its message kept, no related positions", got)
	}
}
