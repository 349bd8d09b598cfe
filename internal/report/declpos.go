package report

import (
	"bytes"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sync"
)

// Positions of other packages. A package analysed from source has every position of its files;
// one read from export data (go vet analyses one package per process, its imports from export
// data) has only the lines of its declarations, and a fact names a file and a line. These
// helpers find such positions in the file as it is on disk, added to the file set once.

var diskFiles = struct {
	sync.Mutex
	byFset map[*token.FileSet]map[string]diskFile
}{byFset: make(map[*token.FileSet]map[string]diskFile)}

type diskFile struct {
	file    *token.File
	content []byte
}

// FileFromDisk returns the file set's file for name read from disk, and its content, reading
// and adding it on first use; nil when name is not an absolute path to a readable file.
func FileFromDisk(fset *token.FileSet, name string) (*token.File, []byte) {
	if !filepath.IsAbs(name) {
		return nil, nil
	}
	diskFiles.Lock()
	defer diskFiles.Unlock()
	files := diskFiles.byFset[fset]
	if files == nil {
		files = make(map[string]diskFile)
		diskFiles.byFset[fset] = files
	}
	if df, ok := files[name]; ok {
		return df.file, df.content
	}
	content, err := os.ReadFile(name)
	if err != nil {
		files[name] = diskFile{}
		return nil, nil
	}
	f := fset.AddFile(name, -1, len(content))
	f.SetLinesForContent(content)
	files[name] = diskFile{f, content}
	return f, content
}

// LineOffsets returns the offsets in f of the start of line (1-based, at most f.LineCount())
// and of the start of the next line, or the end of the file.
func LineOffsets(f *token.File, line int) (start, end int) {
	start, end = f.Offset(f.LineStart(line)), f.Size()
	if line < f.LineCount() {
		end = f.Offset(f.LineStart(line + 1))
	}
	return start, end
}

// DeclPos returns the position of obj's name in its declaration: obj.Pos(), or, for an object
// of a package read from export data (its position has a line but no column), the name found
// on that line of the file on disk.
func DeclPos(fset *token.FileSet, obj types.Object) token.Pos {
	p := fset.Position(obj.Pos())
	if !p.IsValid() || p.Column > 1 {
		return obj.Pos()
	}
	f, content := FileFromDisk(fset, p.Filename)
	if f == nil || p.Line > f.LineCount() {
		return obj.Pos()
	}
	start, end := LineOffsets(f, p.Line)
	line := content[start:end]
	name := []byte(obj.Name())
	for i := 0; i+len(name) <= len(line); i++ {
		j := bytes.Index(line[i:], name)
		if j < 0 {
			break
		}
		at := i + j
		before := at == 0 || !isIdentByte(line[at-1])
		after := at+len(name) == len(line) || !isIdentByte(line[at+len(name)])
		if before && after {
			return f.Pos(start + at)
		}
		i = at
	}
	return obj.Pos()
}

func isIdentByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || b >= 0x80
}
