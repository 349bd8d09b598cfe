// Package suite is a stand-in for testify's suite: Suite, which suite.Run runs.
package suite

import "github.com/stretchr/testify/assert"

// Suite is embedded by a test suite.
type Suite struct {
	*assert.Assertions
}
