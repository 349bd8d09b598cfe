package a

func bad(args ...int) int  { return 0 }
func good(args ...int) int { return 0 }

// F calls bad a few times.
func F() {
	bad()
	_ = bad(1, bad())
}
