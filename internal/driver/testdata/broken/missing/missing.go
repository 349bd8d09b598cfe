package missing

import "example.com/nowhere/pkg"

var _ = pkg.X
