package lenient

import (
	"context"
	"testing"
)

// AfterTest is the t.Cleanup idiom: the test's ctx is cancelled just before cleanups run, so
// they detach from it. A test is not a request.
func AfterTest(t *testing.T, l *Ledger) {
	t.Cleanup(func() {
		l.write(context.WithoutCancel(t.Context()), "drop test ledger")
	})
}

// AfterBenchmark: the same with testing.TB.
func AfterBenchmark(tb testing.TB, l *Ledger) {
	tb.Cleanup(func() {
		l.write(context.WithoutCancel(tb.Context()), "drop bench ledger")
	})
}
