package dependent

import "example.com/broken/broken"

var _ = broken.Y
