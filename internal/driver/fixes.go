package driver

import (
	"fmt"
	"io"
	"os"

	"github.com/deadlinelint/deadlinelint/internal/fix"
	"github.com/deadlinelint/deadlinelint/internal/output"
)

// applyFixes applies (-fix) or prints as a diff (-diff) the first
// suggested fix of each finding, and returns the findings it did not fix.
func (c *Command) applyFixes(cfg *config, res *result) ([]output.Finding, error) {
	var fixes []fix.Fix
	var owner []int // fixes[i] fixes res.findings[owner[i]]
	for i, f := range res.findings {
		if len(f.Fixes) == 0 {
			continue
		}
		fx := fix.Fix{Name: fmt.Sprintf("%s: %s", f.Pos, f.Message)}
		for _, e := range f.Fixes[0].Edits {
			fx.Edits = append(fx.Edits, fix.Edit{
				File:    absolute(res.root, e.Pos.File),
				Start:   e.Offset,
				End:     e.EndOffset,
				NewText: e.NewText,
			})
		}
		fixes = append(fixes, fx)
		owner = append(owner, i)
	}
	applied, err := fix.Apply(fixes, os.ReadFile)
	if err != nil {
		return nil, err
	}
	for _, note := range applied.Skipped {
		c.errorf("note: %s", note)
	}
	fixed := make(map[int]bool)
	for i, ok := range applied.Applied {
		fixed[owner[i]] = ok
	}
	var remaining []output.Finding
	for i, f := range res.findings {
		if !fixed[i] {
			remaining = append(remaining, f)
		}
	}

	if cfg.diff {
		err := c.writeOutput(cfg, func(w io.Writer) error {
			for _, f := range applied.Files {
				if _, err := io.WriteString(w, fix.Unified(relative(res.root, f.Name), f.Old, f.New)); err != nil {
					return err
				}
			}
			return nil
		})
		// Findings the diff does not show stay visible, and still count: as the text format
		// writes them, relative to the directory the command ran in.
		for _, f := range relativeTo(res.root, res.dir, remaining) {
			fmt.Fprintf(c.Stderr, "%s: %s (%s)\n", f.Pos, f.Message, f.Rule)
		}
		return res.findings, err
	}
	for _, f := range applied.Files {
		if err := writeFile(f.Name, f.New); err != nil {
			return nil, err
		}
	}
	if n := len(res.findings) - len(remaining); n > 0 {
		c.errorf("fixed %d finding(s) in %d file(s)", n, len(applied.Files))
	}
	return remaining, nil
}

// writeFile replaces a file's content, keeping its permissions.
func writeFile(name string, data []byte) error {
	info, err := os.Stat(name)
	if err != nil {
		return err
	}
	return os.WriteFile(name, data, info.Mode().Perm())
}
