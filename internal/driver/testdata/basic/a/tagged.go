//go:build special

package a

var _ = bad(4)
