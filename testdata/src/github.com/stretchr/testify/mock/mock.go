// Package mock is a stand-in for testify's mock: a mock type embeds Mock, and its methods
// answer what a test programmed with On(...).Return(...).
package mock

// Mock records the calls of a mock and returns the values a test programmed.
type Mock struct{ calls []string }

// Arguments are the values a programmed call returns.
type Arguments []interface{}

// Get returns the i'th value.
func (a Arguments) Get(i int) interface{} { return a[i] }

// Error returns the i'th value as an error.
func (a Arguments) Error(i int) error {
	if err, ok := a[i].(error); ok {
		return err
	}
	return nil
}

// Called records a call of the mocked method with its arguments.
func (m *Mock) Called(args ...interface{}) Arguments {
	m.calls = append(m.calls, "call")
	return Arguments{nil, nil}
}
