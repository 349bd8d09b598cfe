package b

func bad() int  { return 0 }
func good() int { return 0 }

var (
	x    = bad() // the fix realigns these comments,
	long = 2     // as b.go was gofmt-formatted
)
