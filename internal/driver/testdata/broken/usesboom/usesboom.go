package usesboom

import "example.com/broken/boom"

func bad() {}

// F calls bad.
func F() int { bad(); return boom.V }
