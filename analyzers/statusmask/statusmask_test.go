package statusmask_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/deadlinelint/deadlinelint/analyzers/statusmask"
	"github.com/deadlinelint/deadlinelint/internal/fixcheck"
)

func TestStatusMask(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	fixcheck.Offered(t, analysistest.RunWithSuggestedFixes(t, dir, statusmask.Analyzer, "statusmask/grpcsvc", "statusmask/connectsvc", "statusmask/evil", "statusmask/detached", "statusmask/idle", "statusmask/httpdo", "statusmask/mocked", "statusmask/embedded", "statusmask/helper", "statusmask/optoff", "statusmask/funcfield"))
}
