// Package assert is a stand-in for testify's assert: the types the analyzers know.
package assert

// CollectT collects the failures of one try of an EventuallyWithT condition.
type CollectT struct{ errors []error }

// Errorf records a failure.
func (c *CollectT) Errorf(format string, args ...any) { c.errors = append(c.errors, nil) }

// Assertions are the assertions of a suite.
type Assertions struct{}

// EventuallyWithT retries condition until it records no failure.
func (a *Assertions) EventuallyWithT(condition func(collect *CollectT), waitFor, tick int64, msgAndArgs ...any) bool {
	condition(&CollectT{})
	return true
}

// TestingT is the interface of what assert's functions are given: a *testing.T.
type TestingT interface {
	Errorf(format string, args ...any)
}
