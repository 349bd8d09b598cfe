package ok

func bad() {}

// F calls bad.
func F() { bad() }
