package testvar

import (
	"os"
	"testing"
)

func TestGet(_ *testing.T) { get() }

func get() {
	var c command = getCmd{}
	_ = c.Do(nil, &Env{}, os.Stdout)
}
