package missingdeadline_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/deadlinelint/deadlinelint/analyzers/missingdeadline"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestMissingDeadline(t *testing.T) {
	analysistest.Run(t, testdata(t), missingdeadline.Analyzer,
		"missingdeadline/cli",
		"missingdeadline/chain/client", "missingdeadline/chain/service", "missingdeadline/chain/cmd",
		"missingdeadline/interceptor",
	)
}
