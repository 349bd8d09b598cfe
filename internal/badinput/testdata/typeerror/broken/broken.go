// Package broken does not type-check.
package broken

func Answer() int {
	return undefinedName
}
