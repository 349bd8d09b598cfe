package vetmode

import (
	"os"
	"path/filepath"
	"testing"
)

// Twins — the same package analysed again for another package's test — share a key; a
// package whose analysis can differ does not.
func TestShareKey(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	src := write("q/q.go", "package q\n\nimport \"example.com/p\"\n\nvar V = p.V\n")
	facts := write("b1/vet.out", "facts of p")
	twinFacts := write("b2/vet.out", "facts of p") // p built for p's test: other file, same facts
	otherFacts := write("b3/vet.out", "other facts of p")
	edited := write("q2/q.go", "package q\n\nimport \"example.com/p\"\n\nvar V = p.W\n")

	base := func() *shareConfig {
		return &shareConfig{
			ID: "example.com/q", ImportPath: "example.com/q", Dir: filepath.Dir(src),
			GoFiles:     []string{src},
			ImportMap:   map[string]string{"example.com/p": "example.com/p"},
			PackageVetx: map[string]string{"example.com/p": facts},
			VetxOutput:  filepath.Join(dir, "out", "vet.out"),
			Stdout:      filepath.Join(dir, "out", "vet.stdout"),
		}
	}
	flags := []string{"-json", "-ends", "-test=false"}
	key := func(flags []string, cfg *shareConfig) string {
		t.Helper()
		k, err := shareKey(flags, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	want := key(flags, base())

	for _, tc := range []struct {
		name   string
		change func(*shareConfig)
		flags  []string
		same   bool
	}{
		{"twin: its dependency's facts in another file with the same content", func(c *shareConfig) {
			c.PackageVetx = map[string]string{"example.com/p": twinFacts}
			c.VetxOutput, c.Stdout = filepath.Join(dir, "o2", "vet.out"), filepath.Join(dir, "o2", "vet.stdout")
		}, flags, true},
		{"twin: an import of a test file left out", func(c *shareConfig) {
			c.ImportMap["testing"] = "testing"
			c.PackageVetx["testing"] = otherFacts
		}, flags, true},
		{"a dependency's facts differ", func(c *shareConfig) {
			c.PackageVetx = map[string]string{"example.com/p": otherFacts}
		}, flags, false},
		{"an import resolves elsewhere", func(c *shareConfig) {
			c.ImportMap["example.com/p"] = "example.com/vendor/example.com/p"
			c.PackageVetx = map[string]string{"example.com/vendor/example.com/p": facts}
		}, flags, false},
		{"a file's content differs", func(c *shareConfig) { c.GoFiles = []string{edited} }, flags, false},
		{"another package", func(c *shareConfig) { c.ImportPath = "example.com/r" }, flags, false},
		{"analysed for facts only", func(c *shareConfig) { c.VetxOnly = true }, flags, false},
		{"other flags", func(*shareConfig) {}, []string{"-json", "-ends", "-test=false", "-ctxless=false"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := base()
			tc.change(cfg)
			if got := key(tc.flags, cfg); (got == want) != tc.same {
				t.Errorf("same key = %v, want %v", got == want, tc.same)
			}
		})
	}
}
