package docs

import (
	"strings"
	"testing"
)

func TestRuleHelp(t *testing.T) {
	for _, rule := range []string{"ctxbackground", "ctxflow", "detach", "missingdeadline", "ctxless"} {
		help := RuleHelp(rule)
		if !strings.Contains(help, "// bad") || !strings.Contains(help, "// good") || strings.Contains(help, "\n## ") {
			t.Errorf("help of %s is not its section with a bad and a good snippet:\n%s", rule, help)
		}
	}
	if RuleHelp("nosuchrule") != "" {
		t.Error("help of an unknown rule")
	}
}
