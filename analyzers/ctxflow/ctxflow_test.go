package ctxflow_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/deadlinelint/deadlinelint/analyzers/ctxflow"
)

func TestCtxFlow(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, ctxflow.Analyzer, "ctxflow/basic", "ctxflow/evil", "ctxflow/crosspkg", "ctxflow/containers", "ctxflow/dialcache", "ctxflow/objects", "ctxflow/carries", "ctxflow/outofsight", "ctxflow/watching/...")
}
