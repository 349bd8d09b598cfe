package docs

import (
	"strings"
	"testing"

	"github.com/deadlinelint/deadlinelint/analyzers"
)

func TestRuleHelp(t *testing.T) {
	for _, a := range analyzers.All() {
		rule := a.Name
		help := RuleHelp(rule)
		if !strings.Contains(help, "// bad") || !strings.Contains(help, "// good") || strings.Contains(help, "\n## ") {
			t.Errorf("help of %s is not its section with a bad and a good snippet:\n%s", rule, help)
		}
	}
	if RuleHelp("nosuchrule") != "" {
		t.Error("help of an unknown rule")
	}
}
