package driver

import (
	"os"
	"testing"
)

// TestMain pins the go command's environment for the in-process loads:
// the messages the tests expect for missing modules are the go command's
// own, and they change with GOFLAGS (.ci/run sets -mod=readonly, which
// words a missing module differently) and with an enclosing go.work.
func TestMain(m *testing.M) {
	os.Setenv("GOFLAGS", "")
	os.Setenv("GOWORK", "off")
	os.Exit(m.Run())
}
