// Package require is a stub of testify's require package.
package require

// TestingT is the interface of what require's functions are given: a *testing.T.
type TestingT interface {
	Errorf(format string, args ...any)
	FailNow()
}

// NoError fails the test at once when err is not nil.
func NoError(t TestingT, err error) {
	if err != nil {
		t.Errorf("%v", err)
		t.FailNow()
	}
}
