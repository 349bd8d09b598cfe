package a

func bad(args ...int) int  { return 0 }
func good(args ...int) int { return 0 }

// F calls bad; the nested calls have overlapping fixes.
func F() int {
	bad()
	x := bad(1, 2)
	return bad(x, bad()) + bad(
		3,
	)
}
