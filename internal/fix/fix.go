// Package fix applies suggested fixes to source files and renders the
// changes as unified diffs.
//
// Fixes are applied whole or not at all: a fix whose edits overlap an
// edit already accepted from another fix is skipped with a note, so the
// result never interleaves two fixes. Applying the result again is a
// no-op because the findings that asked for the fixes are gone.
package fix

import (
	"bytes"
	"fmt"
	"go/format"
	"sort"
)

// An Edit replaces the bytes [Start, End) of File with NewText.
type Edit struct {
	File    string // as passed to ReadFile
	Start   int
	End     int
	NewText string
}

// A Fix is the edits of one suggested fix, named for notes (usually
// "file:line:col: message").
type Fix struct {
	Name  string
	Edits []Edit
}

// A File is the old and new content of one changed file.
type File struct {
	Name string
	Old  []byte
	New  []byte
}

// A Result is what applying a set of fixes produced.
type Result struct {
	Files   []File   // changed files, sorted by name
	Applied []bool   // per fix: whether it was applied (or duplicates one that was)
	Skipped []string // one note per fix that was not applied
}

// Apply applies fixes in order, skipping any fix that conflicts with one
// applied before it. It reads each file once with readFile. A file that
// was gofmt-formatted before is gofmt-formatted after.
func Apply(fixes []Fix, readFile func(string) ([]byte, error)) (*Result, error) {
	accepted := make(map[string][]ownedEdit) // file → edits of applied fixes
	res := &Result{Applied: make([]bool, len(fixes))}
	for i, f := range fixes {
		if err := validate(f); err != nil {
			res.Skipped = append(res.Skipped, fmt.Sprintf("%s: %v", f.Name, err))
			continue
		}
		if other, ok := conflict(f, accepted); ok {
			res.Skipped = append(res.Skipped, fmt.Sprintf("%s: fix skipped: it overlaps the fix for %s", f.Name, other))
			continue
		}
		for _, e := range f.Edits {
			if !contains(accepted[e.File], e) {
				accepted[e.File] = append(accepted[e.File], ownedEdit{e, f.Name})
			}
		}
		res.Applied[i] = true
	}

	names := make([]string, 0, len(accepted))
	for name := range accepted {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		old, err := readFile(name)
		if err != nil {
			return nil, err
		}
		var edits []Edit
		for _, e := range accepted[name] {
			edits = append(edits, e.Edit)
		}
		updated, err := applyEdits(old, edits)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if isFormatted(old) {
			if formatted, err := format.Source(updated); err == nil {
				updated = formatted
			}
		}
		if !bytes.Equal(old, updated) {
			res.Files = append(res.Files, File{Name: name, Old: old, New: updated})
		}
	}
	return res, nil
}

// validate rejects a fix whose own edits are malformed or overlap.
func validate(f Fix) error {
	for i, e := range f.Edits {
		if e.Start < 0 || e.End < e.Start {
			return fmt.Errorf("invalid edit range [%d, %d)", e.Start, e.End)
		}
		for _, prev := range f.Edits[:i] {
			if overlap(prev, e) && prev != e {
				return fmt.Errorf("fix has overlapping edits")
			}
		}
	}
	return nil
}

// An ownedEdit is an accepted edit and the name of its fix.
type ownedEdit struct {
	Edit
	owner string
}

// conflict returns the name of an applied fix that f overlaps.
func conflict(f Fix, accepted map[string][]ownedEdit) (string, bool) {
	for _, e := range f.Edits {
		for _, a := range accepted[e.File] {
			if a.Edit != e && overlap(a.Edit, e) {
				return a.owner, true
			}
		}
	}
	return "", false
}

// overlap reports whether two edits of the same file cannot both be
// applied unambiguously: their ranges intersect, an insertion falls
// strictly inside the other's range, or both insert at the same offset.
func overlap(a, b Edit) bool {
	if a.File != b.File {
		return false
	}
	if a.Start == a.End && b.Start == b.End {
		return a.Start == b.Start
	}
	if a.Start == a.End {
		return b.Start < a.Start && a.Start < b.End
	}
	if b.Start == b.End {
		return a.Start < b.Start && b.Start < a.End
	}
	return a.Start < b.End && b.Start < a.End
}

func contains(edits []ownedEdit, e Edit) bool {
	for _, x := range edits {
		if x.Edit == e {
			return true
		}
	}
	return false
}

// applyEdits applies non-overlapping edits to src.
func applyEdits(src []byte, edits []Edit) ([]byte, error) {
	edits = append([]Edit(nil), edits...)
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].Start != edits[j].Start {
			return edits[i].Start < edits[j].Start
		}
		return edits[i].End < edits[j].End // an insertion before a replacement
	})
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.End > len(src) {
			return nil, fmt.Errorf("edit [%d, %d) is past the end of the file (%d bytes): was it changed since it was loaded?", e.Start, e.End, len(src))
		}
		if e.Start < last {
			return nil, fmt.Errorf("overlapping edits at offset %d", e.Start)
		}
		out.Write(src[last:e.Start])
		out.WriteString(e.NewText)
		last = e.End
	}
	out.Write(src[last:])
	return out.Bytes(), nil
}

func isFormatted(src []byte) bool {
	formatted, err := format.Source(src)
	return err == nil && bytes.Equal(formatted, src)
}
