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
		"missingdeadline/interceptor", "missingdeadline/streams", "missingdeadline/handler", "missingdeadline/testfiles",
	)
}

// setFlag sets one of the rule's flags for the rest of the test.
func setFlag(t *testing.T, name, value string) {
	t.Helper()
	f := missingdeadline.Analyzer.Flags.Lookup(name)
	if f == nil {
		t.Fatalf("no flag -%s", name)
	}
	old := f.Value.String()
	if err := f.Value.Set(value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := f.Value.Set(old); err != nil {
			t.Error(err)
		}
	})
}

func TestStreamsFlag(t *testing.T) {
	setFlag(t, "streams", "true")
	analysistest.Run(t, testdata(t), missingdeadline.Analyzer, "missingdeadline/streamsflag")
}

func TestTestsFlag(t *testing.T) {
	setFlag(t, "tests", "true")
	analysistest.Run(t, testdata(t), missingdeadline.Analyzer, "missingdeadline/testfilesflag")
}
