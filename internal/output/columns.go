package output

import (
	"bytes"
	"os"
	"path/filepath"
	"unicode/utf8"
)

// A columnConverter turns Go byte columns into UTF-16 code-unit columns,
// the unit SARIF and GitHub count in. It reads each source file once.
type columnConverter struct {
	root  string
	lines map[string][][]byte // file as shown → its lines; nil if unreadable
}

func newColumnConverter(root string) *columnConverter {
	return &columnConverter{root: root, lines: make(map[string][][]byte)}
}

// utf16Column returns the 1-based UTF-16 column of the 1-based byte
// column col on line of file. If the line cannot be read, it returns col
// unchanged: exact for ASCII, the best guess otherwise.
func (c *columnConverter) utf16Column(file string, line, col int) int {
	lines := c.fileLines(file)
	if line < 1 || line > len(lines) || col < 1 {
		return col
	}
	return 1 + utf16Len(lines[line-1], col-1)
}

// utf16Len counts the UTF-16 code units encoding the first n bytes of s.
// Bytes past the end of s (a column just after the line) count one each;
// an invalid byte counts as one unit, like the U+FFFD that replaces it.
func utf16Len(s []byte, n int) int {
	units := 0
	if n > len(s) {
		units += n - len(s)
		n = len(s)
	}
	for i := 0; i < n; {
		r, size := utf8.DecodeRune(s[i:n])
		i += size
		if r >= 0x10000 {
			units += 2 // a surrogate pair
		} else {
			units++
		}
	}
	return units
}

func (c *columnConverter) fileLines(file string) [][]byte {
	if lines, ok := c.lines[file]; ok {
		return lines
	}
	path := filepath.FromSlash(file)
	if !filepath.IsAbs(path) && c.root != "" {
		path = filepath.Join(c.root, path)
	}
	var lines [][]byte
	if data, err := os.ReadFile(path); err == nil {
		lines = bytes.Split(data, []byte("\n"))
		for i, l := range lines {
			lines[i] = bytes.TrimSuffix(l, []byte("\r"))
		}
	}
	c.lines[file] = lines
	return lines
}

// line returns the text of the 1-based line of file, or "" if it cannot be read.
func (c *columnConverter) line(file string, line int) string {
	lines := c.fileLines(file)
	if line < 1 || line > len(lines) {
		return ""
	}
	return string(lines[line-1])
}
