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
		"missingdeadline/interceptor", "missingdeadline/streams", "missingdeadline/handler", "missingdeadline/testfiles", "missingdeadline/evil",
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

func TestClientAPIsFlag(t *testing.T) {
	const store = "missingdeadline/clientapis/store"
	setFlag(t, "clientapis", store+".Client.Get, "+store+".Lookup,"+store+".Getter.Get,"+store+".Typed.Load")
	analysistest.Run(t, testdata(t), missingdeadline.Analyzer, "missingdeadline/clientapis/app")
}

func TestClientAPIsFlagRejectsBadNames(t *testing.T) {
	f := missingdeadline.Analyzer.Flags.Lookup("clientapis")
	for _, bad := range []string{"nodot", "example.com/pkg", "example.com/pkg.", "pkg..F", ".F"} {
		if err := f.Value.Set(bad); err == nil {
			t.Errorf("-clientapis=%s: no error", bad)
		}
	}
	if got := f.Value.String(); got != "" {
		t.Errorf("a rejected value changed the list to %q", got)
	}
}
