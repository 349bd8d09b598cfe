// Package errors is a stand-in for github.com/pkg/errors: its As answers as the standard
// library's (here written so that no wrapper fact could tell: it is known by name).
package errors

import stderrors "errors"

// As finds the first error in err's chain that matches target.
func As(err error, target interface{}) bool {
	if err == nil {
		return false
	}
	return stderrors.As(err, target)
}
