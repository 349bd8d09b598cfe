// Package native uses cgo; deadlinelint analyses its Go code and reports
// positions in this file, not in cgo's generated files.
package native

/*
static int twice(int x) { return 2 * x; }
*/
import "C"

import "context"

// Twice calls into C.
func Twice(x int) int { return int(C.twice(C.int(x))) }

// Handle is a request scope that loses its deadline.
//
//deadlinelint:scope
func Handle(ctx context.Context) context.Context {
	return context.Background()
}
