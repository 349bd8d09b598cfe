// Package boom makes the panicky test rule panic.
package boom

// V is imported by usesboom.
var V = 1
