// Package analyzers lists deadlinelint's rules, for the command, the golangci-lint plugin and
// anything else that runs them together.
package analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/deadlinelint/deadlinelint/analyzers/ctxbackground"
	"github.com/deadlinelint/deadlinelint/analyzers/ctxflow"
	"github.com/deadlinelint/deadlinelint/analyzers/ctxless"
	"github.com/deadlinelint/deadlinelint/analyzers/deadlinemath"
	"github.com/deadlinelint/deadlinelint/analyzers/detach"
	"github.com/deadlinelint/deadlinelint/analyzers/missingdeadline"
	"github.com/deadlinelint/deadlinelint/analyzers/statusmask"
	"github.com/deadlinelint/deadlinelint/analyzers/streamloop"
)

// All returns every deadlinelint rule, in a stable order.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		ctxbackground.Analyzer,
		ctxflow.Analyzer,
		detach.Analyzer,
		missingdeadline.Analyzer,
		ctxless.Analyzer,
		deadlinemath.Analyzer,
		statusmask.Analyzer,
		streamloop.Analyzer,
	}
}
