package fix

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

func TestUnifiedFormat(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n"
	new := "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn"
	got := Unified("x/y.go", []byte(old), []byte(new))
	want := `--- a/x/y.go
+++ b/x/y.go
@@ -1,5 +1,5 @@
 a
-b
+B
 c
 d
 e
@@ -11,3 +11,4 @@
 k
 l
 m
+n
\ No newline at end of file
`
	if got != want {
		t.Errorf("Unified:\n%s\nwant:\n%s", got, want)
	}
	if d := Unified("x", []byte(old), []byte(old)); d != "" {
		t.Errorf("Unified of equal files = %q, want empty", d)
	}
}

// TestUnifiedRoundTrip applies generated diffs with a small patcher and
// checks it reproduces the new text, on random edits of random files.
func TestUnifiedRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		old := randomLines(rng, rng.Intn(30))
		new := mutate(rng, old)
		d := Unified("f", []byte(old), []byte(new))
		got, err := patch(old, d)
		if err != nil {
			t.Fatalf("case %d: %v\nold %q\nnew %q\ndiff:\n%s", i, err, old, new, d)
		}
		if got != new {
			t.Fatalf("case %d: patched %q, want %q\ndiff:\n%s", i, got, new, d)
		}
	}
}

func randomLines(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strconv.Itoa(rng.Intn(8)) + "\n")
	}
	return b.String()
}

func mutate(rng *rand.Rand, s string) string {
	lines := splitLines([]byte(s))
	for k := rng.Intn(4); k >= 0; k-- {
		i := rng.Intn(len(lines) + 1)
		switch rng.Intn(3) {
		case 0:
			lines = append(lines[:i], append([]string{fmt.Sprintf("new%d\n", rng.Intn(5))}, lines[i:]...)...)
		case 1:
			if i < len(lines) {
				lines = append(lines[:i], lines[i+1:]...)
			}
		case 2:
			if i < len(lines) {
				lines[i] = "changed\n"
			}
		}
	}
	out := strings.Join(lines, "")
	if rng.Intn(5) == 0 {
		out = strings.TrimSuffix(out, "\n") // no final newline
	}
	return out
}

// patch applies a unified diff produced by Unified to old.
func patch(old, diff string) (string, error) {
	if diff == "" {
		return old, nil
	}
	// Join each "\ No newline" marker to the line before it.
	var lines []string
	for _, l := range strings.SplitAfter(diff, "\n") {
		if l == "\\ No newline at end of file\n" {
			lines[len(lines)-1] = strings.TrimSuffix(lines[len(lines)-1], "\n")
		} else if l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return "", fmt.Errorf("bad header")
	}
	src := splitLines([]byte(old))
	var out []string
	next := 0 // next unconsumed line of src
	for i := 2; i < len(lines); {
		var oldStart, oldLen, newStart, newLen int
		if _, err := fmt.Sscanf(lines[i], "@@ -%d,%d +%d,%d @@\n", &oldStart, &oldLen, &newStart, &newLen); err != nil {
			return "", fmt.Errorf("bad hunk header %q", lines[i])
		}
		if oldLen > 0 {
			oldStart--
		}
		if oldStart < next {
			return "", fmt.Errorf("hunks out of order")
		}
		out = append(out, src[next:oldStart]...)
		next = oldStart
		var gotOld, gotNew int
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "@@"); i++ {
			l := lines[i]
			switch l[0] {
			case ' ', '-':
				if next >= len(src) || src[next] != l[1:] {
					return "", fmt.Errorf("context mismatch at old line %d", next+1)
				}
				next++
				gotOld++
				if l[0] == ' ' {
					out = append(out, l[1:])
					gotNew++
				}
			case '+':
				out = append(out, l[1:])
				gotNew++
			default:
				return "", fmt.Errorf("bad hunk line %q", l)
			}
		}
		if gotOld != oldLen || gotNew != newLen {
			return "", fmt.Errorf("hunk counts -%d +%d, header says -%d +%d", gotOld, gotNew, oldLen, newLen)
		}
	}
	out = append(out, src[next:]...)
	return strings.Join(out, ""), nil
}

// FuzzUnified checks that every diff applies back to the new text.
func FuzzUnified(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n")
	f.Add("", "x")
	f.Add("x\ny", "x\n")
	f.Fuzz(func(t *testing.T, old, new string) {
		d := Unified("f", []byte(old), []byte(new))
		got, err := patch(old, d)
		if err != nil {
			t.Fatalf("%v\ndiff:\n%s", err, d)
		}
		if got != new {
			t.Fatalf("patched %q, want %q\ndiff:\n%s", got, new, d)
		}
	})
}
