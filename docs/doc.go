// Package docs embeds the rule catalogue, docs/rules.md, so that the command can give each rule's
// section — what it reports, a bad and a good snippet — as the help of the rule in SARIF, where
// GitHub code scanning shows it beside every alert.
package docs

import (
	_ "embed"
	"strings"
)

//go:embed rules.md
var rules string

// RuleHelp returns the Markdown section of docs/rules.md about rule (from its "## rule" heading
// to the next heading of that level, the heading left out), or "".
func RuleHelp(rule string) string {
	_, rest, ok := strings.Cut(rules, "\n## "+rule+"\n")
	if !ok {
		return ""
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return strings.TrimSpace(rest)
}
