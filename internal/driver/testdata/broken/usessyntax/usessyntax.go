package usessyntax

import "example.com/broken/syntax"

var _ = syntax.G
