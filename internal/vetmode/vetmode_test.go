package vetmode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// A dependency go vet asks for its facts only is answered with empty facts unless it imports
// context: one that does may declare functions that only read values from their ctx, or never
// refer to it, which ctxssa records as facts from its syntax in either route.
func TestSkipDependency(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		imports map[string]string
		module  string // module version, "" for the standard library
		skip    bool
	}{
		{"strings", map[string]string{"errors": "errors"}, "", true},
		{"net/http/httptrace", map[string]string{"context": "context", "net": "net"}, "", false},
		{"github.com/x/legacy", map[string]string{"golang.org/x/net/context": "golang.org/x/net/context"}, "v1.0.0", false},
		{"github.com/x/plain", map[string]string{"fmt": "fmt"}, "v1.0.0", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, filepath.Base(tc.name)+".vetx")
			t.Setenv("GOROOT", "/usr/local/go")
			pkgDir, modPath := "/root/go/pkg/mod/github.com/x/y@v1.0.0", "github.com/x/y"
			if tc.module == "" {
				pkgDir, modPath = "/usr/local/go/src/"+tc.name, ""
			}
			cfg := map[string]any{
				"ImportPath":    tc.name,
				"Dir":           pkgDir,
				"ModulePath":    modPath,
				"ModuleVersion": tc.module,
				"GoFiles":       []string{pkgDir + "/a.go"},
				"ImportMap":     tc.imports,
				"VetxOnly":      true,
				"VetxOutput":    out,
			}
			data, err := json.Marshal(cfg)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(dir, filepath.Base(tc.name)+".cfg")
			if err := os.WriteFile(name, data, 0o644); err != nil {
				t.Fatal(err)
			}
			skipped, err := skipDependency([]string{name})
			if err != nil {
				t.Fatal(err)
			}
			if skipped != tc.skip {
				t.Errorf("skipped = %v, want %v", skipped, tc.skip)
			}
			if _, err := os.Stat(out); (err == nil) != tc.skip {
				t.Errorf("empty facts written: %v, want %v", err == nil, tc.skip)
			}
		})
	}
}
