// Package parse imports no context package either, one step further from the root.
package parse

import (
	"strings"

	"ctxbackground/nocontext/deeper"
)

// Parse checks a name through deeper.
func Parse(s string) (string, error) { // want Parse:"drops ctx: deeper.Check → events.Legacy: context.TODO\\(\\) at .*/events.go:22"
	if err := deeper.Check(s); err != nil {
		return "", err
	}
	return strings.TrimSpace(s), nil
}

// Trim only trims: no root on its way.
func Trim(s string) string { return strings.TrimSpace(s) + strings.Repeat(" ", deeper.Length(s)) }
