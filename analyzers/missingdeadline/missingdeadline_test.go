package missingdeadline_test

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/deadlinelint/deadlinelint/analyzers/missingdeadline"
	"github.com/deadlinelint/deadlinelint/internal/fixcheck"
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
		"missingdeadline/cli", "missingdeadline/optional",
		"missingdeadline/chain/client", "missingdeadline/chain/service", "missingdeadline/chain/cmd",
		"missingdeadline/interceptor", "missingdeadline/dialer/...", "missingdeadline/streams", "missingdeadline/handler", "missingdeadline/testfiles", "missingdeadline/evil",
		"missingdeadline/factory", "missingdeadline/retryopt", "missingdeadline/iface", "missingdeadline/dynamic",
		"missingdeadline/wrapped/client", "missingdeadline/wrapped/app", "missingdeadline/connectimpl/...", "missingdeadline/suite", "missingdeadline/attempt", "missingdeadline/attemptlib", "missingdeadline/attemptapp", "missingdeadline/sealed/...", "missingdeadline/fallback", "missingdeadline/dryrunlib", "missingdeadline/dryrunapp", "missingdeadline/tied", "missingdeadline/periodic", "missingdeadline/closurecall",
	)
}

// TestGivenCtx checks that a root made by a function given a ctx is told to use it, and that
// the fix replaces the root with the ctx where its name denotes it: Flush has one, Shadow's ctx
// is hidden, Batch's is _, Replace's root is assigned to it, Legacy's would leave an import
// unused.
func TestGivenCtx(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, testdata(t), missingdeadline.Analyzer, "missingdeadline/givenctx")
	fixcheck.Offered(t, results)
	fixes := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			fixes += len(d.SuggestedFixes)
		}
	}
	if fixes != 1 {
		t.Errorf("%d suggested fixes, want 1 (Flush)", fixes)
	}
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
	analysistest.Run(t, testdata(t), missingdeadline.Analyzer, "missingdeadline/clientapis/app", "missingdeadline/clientapis/wrap", "missingdeadline/clientapis/cmd")
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
// call down to the RPC. A position is written as its file and the start of its line.
func TestRelated(t *testing.T) {
	results := analysistest.Run(t, testdata(t), missingdeadline.Analyzer, "missingdeadline/chain/cmd", "missingdeadline/evil", "missingdeadline/onectx", "missingdeadline/factory")
	want := map[string][]string{
		// across packages: the root, then the declaration of the function of another package
		"Service.Describe calls RPC CatalogClient.GetItem with no deadline (ctx from context.Background())": {
			"main.go: ctx := context.Background(): the ctx comes from context.Background() here, without a deadline",
			"service.go: func (s *Service) Describe(: Service.Describe passes its ctx on to Client.Item → CatalogClient.GetItem at client.go:27",
		},
		// one ctx, many calls: the root, then the other calls it reaches
		"RPC CatalogClient.GetItem has no deadline (ctx from context.Background()); add one with context.WithTimeout; it reaches 2 more calls": {
			"onectx.go: ctx := context.Background(): the ctx comes from context.Background() here, without a deadline",
			"onectx.go: _, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: \"b\"}): the same ctx reaches RPC CatalogClient.GetItem here",
			"onectx.go: _ = refresh(ctx, c, \"c\"): the same ctx reaches onectx.refresh (RPC CatalogClient.GetItem) here",
		},
		// one ctx on separate paths none of which gives it a deadline: the verbs' calls
		"the ctx from context.Background() reaches 2 calls on separate paths, none with a deadline": {
			"onectx.go: _ = refresh(ctx, c, \"r\"): it reaches onectx.refresh (RPC CatalogClient.GetItem) here",
			"onectx.go: _, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: \"g\"}): it reaches RPC CatalogClient.GetItem here",
		},
		// one factory, many commands: the root in the factory, then the other commands' calls
		"RPC LegacyClient.Ping has no deadline (ctx from context.Background())": {
			"factory.go: ctx, cancel := context.WithCancel(context.Background()): the ctx comes from context.Background() here, without a deadline",
			"factory.go: _, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: \"catalog\"}): the same ctx reaches RPC CatalogClient.GetItem here",
			"factory.go: _, err := c.GetItem(getContext(), &catalogpb.GetItemRequest{Id: id}): the same ctx reaches RPC CatalogClient.GetItem here",
		},
		// within the package: the root, then every call down to the RPC
		"evil.poll calls RPC": {
			"evil.go: poll(context.Background(), c): the ctx comes from context.Background() here, without a deadline",
			"evil.go: get := func() { _, _ = c.GetItem(: a function literal in evil.poll calls RPC CatalogClient.GetItem with it here",
		},
		"evil.retry calls RPC": {
			"evil.go: _ = retry(context.Background(), c, 3): the ctx comes from context.Background() here, without a deadline",
			"evil.go: if _, err := c.GetItem(ctx, req); err: evil.retry calls RPC CatalogClient.GetItem with it here",
		},
	}
	found := make(map[string]bool)
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for prefix, related := range want {
				if !strings.HasPrefix(d.Message, prefix) {
					continue
				}
				found[prefix] = true
				var got []string
				for _, rel := range d.Related {
					got = append(got, fmt.Sprintf("%s: %s", lineOf(t, r.Pass.Fset.Position(rel.Pos)), rel.Message))
				}
				if !matchAll(got, related) {
					t.Errorf("related of %q:\n%s\nwant:\n%s", d.Message, strings.Join(got, "\n"), strings.Join(related, "\n"))
				}
			}
		}
	}
	for prefix := range want {
		if !found[prefix] {
			t.Errorf("no finding %q", prefix)
		}
	}
}

// lineOf returns the file name and the trimmed source line of posn.
func lineOf(t *testing.T, posn token.Position) string {
	data, err := os.ReadFile(posn.Filename)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	if posn.Line < 1 || posn.Line > len(lines) {
		t.Fatalf("%s: no such line", posn)
	}
	return filepath.Base(posn.Filename) + ": " + strings.TrimSpace(lines[posn.Line-1])
}

// matchAll reports whether each got entry, "file: line: message", starts with the file and
// a prefix of the line of its want entry, "file: line prefix: message", and has its message.
func matchAll(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		file, rest, _ := strings.Cut(want[i], ": ")
		i2 := strings.LastIndex(rest, ": ")
		linePrefix, msg := rest[:i2], rest[i2+2:]
		if !strings.HasPrefix(got[i], file+": "+linePrefix) || !strings.HasSuffix(got[i], ": "+msg) {
			return false
		}
	}
	return true
}

// TestRuntimeDeadlines checks that a connection built with the runtime companion's default
// deadline interceptor is known to bound its calls: the interceptor's real source, copied from
// runtime/deadlines into a GOPATH beside the stubs, is recognised by its body as any other. The
// client package is testdata/runtimedeadlines.go.
func TestRuntimeDeadlines(t *testing.T) {
	gopath := filepath.Join(t.TempDir(), "src")
	stubs := filepath.Join(testdata(t), "src")
	link := func(rel string) {
		if err := os.Symlink(filepath.Join(stubs, rel), filepath.Join(gopath, rel)); err != nil {
			t.Fatal(err)
		}
	}
	copyFile := func(from, rel string) {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(gopath, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(gopath, rel), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(filepath.Join("..", "..", "runtime", "deadlines", "deadlines.go"), "github.com/deadlinelint/deadlinelint/runtime/deadlines/deadlines.go")
	copyFile(filepath.Join("testdata", "runtimedeadlines.go"), "runtimedeadlines/runtimedeadlines.go")
	for _, dir := range []string{".", "github.com"} {
		entries, err := os.ReadDir(filepath.Join(stubs, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if rel := filepath.Join(dir, e.Name()); rel != "github.com" {
				link(rel)
			}
		}
	}
	analysistest.Run(t, filepath.Dir(gopath), missingdeadline.Analyzer, "runtimedeadlines")
}
