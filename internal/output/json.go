package output

import (
	"encoding/json"
	"io"
)

// The JSON format is an array of findings, sorted like the text format.
// Its shape is stable: fields are only ever added. Lines and columns are
// 1-based, columns and offsets count bytes. related and suggested_fixes
// are always present (possibly empty).
type jsonFinding struct {
	Rule           string        `json:"rule"`
	File           string        `json:"file"`
	Line           int           `json:"line"`
	Column         int           `json:"column"`
	EndLine        int           `json:"end_line"`
	EndColumn      int           `json:"end_column"`
	Message        string        `json:"message"`
	Related        []jsonRelated `json:"related"`
	SuggestedFixes []jsonFix     `json:"suggested_fixes"`
}

type jsonRelated struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

type jsonFix struct {
	Message string     `json:"message"`
	Edits   []jsonEdit `json:"edits"`
}

type jsonEdit struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Offset    int    `json:"offset"`
	EndOffset int    `json:"end_offset"`
	NewText   string `json:"new_text"`
}

func writeJSON(w io.Writer, r *Report) error {
	out := make([]jsonFinding, 0, len(r.Findings))
	for _, f := range r.Findings {
		out = append(out, toJSON(f))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func toJSON(f Finding) jsonFinding {
	jf := jsonFinding{
		Rule:           f.Rule,
		File:           f.Pos.File,
		Line:           f.Pos.Line,
		Column:         f.Pos.Column,
		EndLine:        f.End.Line,
		EndColumn:      f.End.Column,
		Message:        f.Message,
		Related:        []jsonRelated{},
		SuggestedFixes: []jsonFix{},
	}
	for _, rel := range f.Related {
		jf.Related = append(jf.Related, jsonRelated{
			File:    rel.Pos.File,
			Line:    rel.Pos.Line,
			Column:  rel.Pos.Column,
			Message: rel.Message,
		})
	}
	for _, fix := range f.Fixes {
		jfix := jsonFix{Message: fix.Message, Edits: []jsonEdit{}}
		for _, e := range fix.Edits {
			jfix.Edits = append(jfix.Edits, jsonEdit{
				File:      e.Pos.File,
				Line:      e.Pos.Line,
				Column:    e.Pos.Column,
				EndLine:   e.End.Line,
				EndColumn: e.End.Column,
				Offset:    e.Offset,
				EndOffset: e.EndOffset,
				NewText:   e.NewText,
			})
		}
		jf.SuggestedFixes = append(jf.SuggestedFixes, jfix)
	}
	return jf
}
