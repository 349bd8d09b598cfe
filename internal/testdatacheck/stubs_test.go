package testdatacheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// stubPackages are the import paths the stubs helper provides; each must be
// found under testdata/src and type-check.
var stubPackages = []string{
	"connectrpc.com/connect",
	"example.com/gen/catalogpb",
	"example.com/gen/greetconnect",
	"example.com/gen/greetv1",
	"example.com/gen/legacypb",
	"golang.org/x/sync/errgroup",
	"golang.org/x/net/context",
	"google.golang.org/grpc",
	"google.golang.org/grpc/codes",
	"google.golang.org/grpc/credentials",
	"google.golang.org/grpc/credentials/insecure",
	"google.golang.org/grpc/metadata",
	"google.golang.org/grpc/status",
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/timeout",
	"go.opentelemetry.io/otel/trace",
	"go.opentelemetry.io/otel/metric",
	"go.opentelemetry.io/otel/log",
}

// TestStubsTypeCheck loads every package under testdata/src in GOPATH mode,
// the way analysistest does, and fails on any load, parse or type error.
func TestStubsTypeCheck(t *testing.T) {
	srcRoot, err := filepath.Abs(filepath.Join("..", "..", "testdata", "src"))
	if err != nil {
		t.Fatal(err)
	}
	paths := importPaths(t, srcRoot)
	if len(paths) < len(stubPackages) {
		t.Fatalf("found %d packages under %s, want at least %d", len(paths), srcRoot, len(stubPackages))
	}

	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedTypes |
			packages.NeedSyntax | packages.NeedTypesInfo,
		Dir: srcRoot,
		Env: append(os.Environ(),
			"GO111MODULE=off",
			"GOPATH="+filepath.Dir(srcRoot),
			"GOFLAGS=",
			"GOWORK=off",
		),
		Tests: false,
	}
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		t.Fatalf("loading testdata packages: %v", err)
	}

	loaded := make(map[string]bool)
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
		}
	})
	for _, p := range pkgs {
		loaded[p.PkgPath] = true
		if p.Types == nil || p.TypesInfo == nil || len(p.Syntax) == 0 {
			t.Errorf("%s: no types or syntax loaded", p.PkgPath)
		}
		for _, f := range p.GoFiles {
			if !strings.HasPrefix(f, srcRoot+string(filepath.Separator)) {
				t.Errorf("%s: file %s is not under %s (not a GOPATH-mode load?)", p.PkgPath, f, srcRoot)
			}
		}
	}
	if len(loaded) < len(stubPackages) {
		t.Errorf("loaded %d packages, want at least %d", len(loaded), len(stubPackages))
	}
	for _, want := range stubPackages {
		if !loaded[want] {
			t.Errorf("stub package %s was not loaded from %s", want, srcRoot)
		}
	}
}

// importPaths returns, sorted, the import path of every directory under
// srcRoot that holds at least one non-test .go file.
func importPaths(t *testing.T, srcRoot string) []string {
	t.Helper()
	seen := make(map[string]bool)
	err := filepath.WalkDir(srcRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != srcRoot && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(srcRoot, filepath.Dir(path))
		if err != nil {
			return err
		}
		seen[filepath.ToSlash(rel)] = true
		return nil
	})
	if err != nil {
		t.Fatalf("walking %s: %v", srcRoot, err)
	}
	paths := make([]string, 0, len(seen))
	for p := range seen {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}
