package lenient

import (
	"context"
	"strings"
)

// Paragraph explains a run of detaches with one comment above it: each has its reason.
func (l *Ledger) Paragraph(ctx context.Context, entry string) {
	// Post-response work: it must land even if the client hangs up.
	go l.write(context.WithoutCancel(ctx), entry)
	go l.write(context.WithoutCancel(ctx), entry+"/mirror")
}

// Unexplained's comment is about the statement below it, which does other work: the detach
// after it has none.
func (l *Ledger) Unexplained(ctx context.Context, entry string) { // want +3 `context.WithoutCancel\(ctx\) runs work with no deadline and no reason`
	// tidy the entry first
	entry = strings.TrimSpace(entry)
	go l.write(context.WithoutCancel(ctx), entry+"/mirror")
}
