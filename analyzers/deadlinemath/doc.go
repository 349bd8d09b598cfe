// Package deadlinemath defines an Analyzer that reports arithmetic on a deadline that may not
// exist, and durations written without a unit where a deadline or timeout is set.
//
// # Analyzer deadlinemath
//
// deadlinemath: report unchecked ctx.Deadline() arithmetic and bare-number timeouts
//
// ctx.Deadline() returns a time and whether there is one. With no deadline the time is the
// zero time.Time (January 1, year 1): time.Until of it is about -292 years, a ctx made with
// context.WithDeadline of it is expired before it starts, and SetDeadline of it means no
// deadline at all. deadlinemath reports the time of a Deadline() call — on a context.Context,
// or any method Deadline() (time.Time, bool), such as testing.T's — that reaches time.Until,
// Sub, Before, After or Compare, context.WithDeadline or WithDeadlineCause, or a
// SetDeadline, SetReadDeadline or SetWriteDeadline method, on a path where its ok result was
// not checked (ignored with _, or used only after the time was). A time whose IsZero is
// checked, or that is stored, returned or handed elsewhere, is not reported: the analysis
// cannot tell.
//
// A time.Duration is a count of nanoseconds, so context.WithTimeout(ctx, 500) expires after
// 500ns, not 500ms, and the call it bounds fails before it starts. deadlinemath reports a
// constant with no time unit in it — a literal, or this package's untyped constant declared
// without one — of less than a millisecond (no timeout that short is meant; 2e9 is nanoseconds
// written on purpose) given as the duration of context.WithTimeout and WithTimeoutCause,
// time.After, NewTimer and AfterFunc, grpc.WithTimeout and grpc.ConnectionTimeout, as the
// duration added to time.Now() for context.WithDeadline or a SetDeadline method, or as a
// time.Duration field of a net/http Client, Server or Transport literal (Timeout: 30). Zero,
// an explicit conversion (time.Duration(500)), a typed Duration constant and variables are
// not reported: their unit cannot be known, and the rule never guesses from names. Neither is
// 1 for time.NewTimer or AfterFunc: the shortest duration, a timer that fires at once (a
// heartbeat loop's first turn, before Reset gives the period); a one-shot time.After(1) waits
// for nothing, and its 1 can only be a unit left out.
// time.Sleep is staticcheck's SA1004.
//
// For example:
//
//	dl, _ := ctx.Deadline()
//	budget := time.Until(dl) / 2 // no deadline: about -146 years
//	ctx, cancel := context.WithTimeout(ctx, 500) // 500ns
//
// should be:
//
//	budget := defaultBudget
//	if dl, ok := ctx.Deadline(); ok {
//		budget = time.Until(dl) / 2
//	}
//	ctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
package deadlinemath
