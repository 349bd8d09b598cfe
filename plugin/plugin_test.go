package plugin

import (
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"

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
		if err != nil || len(built) != 1 || built[0] != a {
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
