package testdatacheck

import (
	"bytes"
	"go/format"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestdataIsGofmted checks that every Go file under testdata/src is as gofmt writes it, as
// the repository's own code is: a test case is read by people, and a // want comment out of line
// with its neighbours reads as a different case. A file with a golden file beside it is left
// out: the fix tests compare it, fixed, with the golden file byte for byte.
func TestTestdataIsGofmted(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "src")
	var bad []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		if _, err := os.Stat(path + ".golden"); err == nil {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out, err := format.Source(src)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		if !bytes.Equal(src, out) {
			bad = append(bad, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range bad {
		t.Errorf("%s is not gofmt'ed (gofmt -w %s)", p, p)
	}
}
