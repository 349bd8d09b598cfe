package a

import "testing"

func TestF(t *testing.T) {
	F()
	bad(2)
}
