// Package fill stores into maps it is given: what it stores, the package that made the map
// does not see.
package fill

// Put stores v under k in m.
func Put[V any](m map[string]V, k string, v V) { m[k] = v }
