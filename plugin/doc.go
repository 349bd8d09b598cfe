// Package plugin registers deadlinelint's rules as golangci-lint v2 module
// plugins, one linter per rule, so that golangci-lint reports, `//nolint:`
// directives and SARIF ruleIds name the rule (ctxbackground, ctxflow, …).
//
// A custom golangci-lint binary blank-imports this package (see
// .custom-gcl.yml at the repository root, or plugin/gcl for an offline
// build). Each rule is then enabled and configured in .golangci.yml:
//
//	linters:
//	  enable: [ctxbackground]
//	  settings:
//	    custom:
//	      ctxbackground:
//	        type: module
//	        description: context.Background() in request scope
//	        settings: {} # keys are the rule's flags, as in -ctxbackground.<key>
//
// Settings are strict: a key that is not one of the rule's flags, or a value
// the flag rejects, stops golangci-lint with an error naming the rule.
package plugin
