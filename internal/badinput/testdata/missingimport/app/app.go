// Package app imports a package no module provides.
package app

import "example.com/nowhere/gone"

var _ = gone.Value
