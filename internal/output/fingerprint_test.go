package output

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFingerprintStable checks that a finding keeps its fingerprint when unrelated lines move
// it, and that two identical lines, or a changed line, get other fingerprints.
func TestFingerprintStable(t *testing.T) {
	dir := t.TempDir()
	write := func(content string) {
		if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	print := func(lines ...int) []string {
		p := newFingerprinter(newColumnConverter(dir))
		var out []string
		for _, l := range lines {
			out = append(out, p.of(Finding{Rule: "ctxbackground", Pos: Position{File: "a.go", Line: l, Column: 2}}))
		}
		return out
	}
	write("package a\n\nfunc f() { load(context.Background()) }\nfunc g() { load(context.Background()) }\n")
	before := print(3, 4)
	if before[0] == before[1] {
		t.Error("two findings on identical lines share a fingerprint")
	}
	write("package a\n\nimport \"context\"\n\n// f loads.\nfunc f() { load(context.Background()) }\nfunc g() { load(context.Background()) }\n")
	if after := print(6, 7); after[0] != before[0] || after[1] != before[1] {
		t.Errorf("fingerprints moved with unrelated lines: %v, then %v", before, after)
	}
	write("package a\n\nfunc f() { load(ctx) }\nfunc g() { load(context.Background()) }\n")
	if changed := print(3); changed[0] == before[0] {
		t.Error("a changed line kept its fingerprint")
	}
}
