// Package clean calls nothing bad.
package clean

// G is fine.
func G() int { return 1 }
