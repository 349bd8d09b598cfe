// Package errs wraps the standard errors package, as modules do to keep one import.
package errs

import "errors"

// As is errors.As.
func As(err error, target any) bool { return errors.As(err, target) }

// AsEither is errors.As with its arguments the other way round: not a wrapper.
func AsEither(target any, err error) bool { return errors.As(err, target) }
