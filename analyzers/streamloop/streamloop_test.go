package streamloop_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/deadlinelint/deadlinelint/analyzers/streamloop"
)

func TestStreamLoop(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, streamloop.Analyzer, "streamloop/feed", "streamloop/connectfeed", "streamloop/evil", "streamloop/shapes", "streamloop/drain", "streamloop/seek", "streamloop/pump")
}
