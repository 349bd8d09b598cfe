// Package ruledoc extracts a rule's documentation from the "# Analyzer <name>" section of its
// doc.go, so that the package documentation and the Analyzer.Doc shown by -help are one text.
package ruledoc

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// URL returns the documentation address of rule.
func URL(rule string) string {
	return "https://github.com/deadlinelint/deadlinelint/blob/main/docs/rules.md#" + rule
}

// MustExtract returns the "# Analyzer name" section of the package comment in the Go source
// content. It panics if the section is missing: a programming error caught by every test.
func MustExtract(content, name string) string {
	doc, err := extract(content, name)
	if err != nil {
		panic(err)
	}
	return doc
}

func extract(content, name string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", content, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", err
	}
	if f.Doc == nil {
		return "", fmt.Errorf("doc.go of %s has no package comment", name)
	}
	return section(f.Doc, name)
}

func section(doc *ast.CommentGroup, name string) (string, error) {
	heading := "# Analyzer " + name
	text := doc.Text()
	_, rest, ok := strings.Cut(text, heading+"\n")
	if !ok {
		return "", fmt.Errorf("package comment lacks %q", heading)
	}
	if i := strings.Index(rest, "\n# "); i >= 0 {
		rest = rest[:i]
	}
	rest = strings.TrimSpace(rest)
	// The section starts "name: summary"; Analyzer.Doc starts with the summary.
	rest = strings.TrimPrefix(rest, name+": ")
	return rest, nil
}

// titles are the rules' names for people, as SARIF wants a reportingDescriptor's name: distinct
// from its id (the rule's short name, stable and used in flags and suppressions).
var titles = map[string]string{
	"ctxbackground":   "RootContextInRequestScope",
	"ctxflow":         "LongLivedContextInRequestScope",
	"detach":          "UnboundedDetachedContext",
	"missingdeadline": "ClientCallWithoutDeadline",
	"ctxless":         "CallThatCannotCarryTheDeadline",
	"deadlinemath":    "UncheckedDeadlineOrBareDuration",
	"statusmask":      "DeadlineErrorGivenAnotherCode",
	"streamloop":      "StreamLoopThatOutlivesTheClient",
}

// Title returns the name of rule for people ("RootContextInRequestScope"), or "".
func Title(rule string) string { return titles[rule] }
