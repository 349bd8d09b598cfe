// Package gomock is a stand-in for go.uber.org/mock/gomock: a mockgen mock holds a
// *Controller, through which its methods answer what a test expected.
package gomock

// Controller dispatches a mock's calls to the expectations a test set.
type Controller struct{ n int }

// Call records the call of method on receiver with args and returns the expected results.
func (c *Controller) Call(receiver interface{}, method string, args ...interface{}) []interface{} {
	c.n++
	return []interface{}{nil, nil}
}
