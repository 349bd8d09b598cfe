package fix

import (
	"bytes"
	"fmt"
	"strings"
)

// context is the number of unchanged lines shown around each change.
const context = 3

// maxLCSCells bounds the line-matching table; past it the changed middle
// of a file is shown as one replacement (still a correct diff).
const maxLCSCells = 4 << 20

type opKind int

const (
	opEqual opKind = iota
	opDelete
	opInsert
)

// An op is one line of a line-by-line diff.
type op struct {
	kind opKind
	line string // with its newline, if it had one
}

// Unified returns the unified diff from old to new of the file name
// ("--- a/name", "+++ b/name"), or "" if they are equal.
func Unified(name string, old, new []byte) string {
	if bytes.Equal(old, new) {
		return ""
	}
	ops := diffLines(splitLines(old), splitLines(new))
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", name, name)
	for _, h := range hunks(ops) {
		writeHunk(&b, ops, h)
	}
	return b.String()
}

// splitLines splits s after each newline; the last line may lack one.
func splitLines(s []byte) []string {
	var lines []string
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, string(s))
			break
		}
		lines = append(lines, string(s[:i+1]))
		s = s[i+1:]
	}
	return lines
}

// diffLines matches the common prefix and suffix, then the middle by
// longest common subsequence.
func diffLines(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for _, l := range a[:pre] {
		ops = append(ops, op{opEqual, l})
	}
	ops = append(ops, diffMiddle(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, op{opEqual, l})
	}
	return ops
}

func diffMiddle(a, b []string) []op {
	var ops []op
	if len(a)*len(b) > maxLCSCells {
		for _, l := range a {
			ops = append(ops, op{opDelete, l})
		}
		for _, l := range b {
			ops = append(ops, op{opInsert, l})
		}
		return ops
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, op{opEqual, a[i]})
			i++
			j++
		case j == len(b) || (i < len(a) && lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{opDelete, a[i]})
			i++
		default:
			ops = append(ops, op{opInsert, b[j]})
			j++
		}
	}
	return ops
}

// A hunk is the half-open range [start, end) of ops it shows.
type hunk struct{ start, end int }

// hunks groups changed ops with their context, merging hunks whose
// contexts touch.
func hunks(ops []op) []hunk {
	var hs []hunk
	for i, o := range ops {
		if o.kind == opEqual {
			continue
		}
		start, end := max(i-context, 0), min(i+1+context, len(ops))
		if n := len(hs); n > 0 && start <= hs[n-1].end {
			hs[n-1].end = end
		} else {
			hs = append(hs, hunk{start, end})
		}
	}
	return hs
}

func writeHunk(b *strings.Builder, ops []op, h hunk) {
	// Line numbers (1-based) of the hunk's first line in old and new.
	oldLine, newLine := 1, 1
	for _, o := range ops[:h.start] {
		if o.kind != opInsert {
			oldLine++
		}
		if o.kind != opDelete {
			newLine++
		}
	}
	var oldLen, newLen int
	for _, o := range ops[h.start:h.end] {
		if o.kind != opInsert {
			oldLen++
		}
		if o.kind != opDelete {
			newLen++
		}
	}
	fmt.Fprintf(b, "@@ -%s +%s @@\n", hunkRange(oldLine, oldLen), hunkRange(newLine, newLen))
	for _, o := range ops[h.start:h.end] {
		prefix := map[opKind]string{opEqual: " ", opDelete: "-", opInsert: "+"}[o.kind]
		b.WriteString(prefix + o.line)
		if !strings.HasSuffix(o.line, "\n") {
			b.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// hunkRange formats a hunk's line range; an empty range names the line
// before it, as diff(1) does.
func hunkRange(start, n int) string {
	if n == 0 {
		start--
	}
	return fmt.Sprintf("%d,%d", start, n)
}
