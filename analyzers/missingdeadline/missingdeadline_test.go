package missingdeadline_test

import (
	"fmt"
	"path/filepath"
	"strings"
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

// TestRelated checks the related positions of findings: where the ctx is created, and each
// call down to the RPC.
func TestRelated(t *testing.T) {
	results := analysistest.Run(t, testdata(t), missingdeadline.Analyzer, "missingdeadline/chain/cmd", "missingdeadline/evil")
	want := map[string][]string{
		// across packages: the root, then the declaration of the function of another package
		"Service.Describe is called": {
			"main.go:24: the ctx comes from context.Background() here, without a deadline",
			"service.go:23: Service.Describe passes its ctx on to Client.Item → CatalogClient.GetItem",
		},
		// within the package: the root, then every call down to the RPC
		"evil.poll is called": {
			"evil.go:24: the ctx comes from context.Background() here, without a deadline",
			"evil.go:19: a function literal in evil.poll calls RPC CatalogClient.GetItem with it here",
		},
		"evil.retry is called": {
			"evil.go:110: the ctx comes from context.Background() here, without a deadline",
			"evil.go:103: evil.retry calls RPC CatalogClient.GetItem with it here",
		},
	}
	found := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for prefix, related := range want {
				if !strings.HasPrefix(d.Message, prefix) {
					continue
				}
				found++
				var got []string
				for _, rel := range d.Related {
					posn := r.Pass.Fset.Position(rel.Pos)
					got = append(got, fmt.Sprintf("%s:%d: %s", filepath.Base(posn.Filename), posn.Line, rel.Message))
				}
				if strings.Join(got, "\n") != strings.Join(related, "\n") {
					t.Errorf("related of %q:\n%s\nwant:\n%s", d.Message, strings.Join(got, "\n"), strings.Join(related, "\n"))
				}
			}
		}
	}
	if found != len(want) {
		t.Errorf("found %d of the %d findings checked", found, len(want))
	}
}
