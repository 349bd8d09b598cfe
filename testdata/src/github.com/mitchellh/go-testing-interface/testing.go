// Package testing is a stub of github.com/mitchellh/go-testing-interface: testing.T's methods
// as an interface, for test helpers outside _test.go files.
package testing

// T is the interface testing.T implements.
type T interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}
