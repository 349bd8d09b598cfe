package output

import (
	"fmt"
	"io"
	"strings"
)

// writeGitHub prints one GitHub Actions workflow command per finding:
//
//	::error file=F,line=L,col=C,endLine=EL,endColumn=EC,title=deadlinelint RULE::MESSAGE
//
// Columns count UTF-16 code units, like SARIF. GitHub shows only the
// first few annotations of a step: upload SARIF too for the full list.
func writeGitHub(w io.Writer, r *Report) error {
	cols := newColumnConverter(r.Root)
	var b strings.Builder
	for _, f := range r.Findings {
		end := f.End
		if end.Line < f.Pos.Line || (end.Line == f.Pos.Line && end.Column < f.Pos.Column) {
			end = f.Pos
		}
		fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			level,
			escapeProperty(f.Pos.File),
			f.Pos.Line,
			cols.utf16Column(f.Pos.File, f.Pos.Line, f.Pos.Column),
			end.Line,
			cols.utf16Column(end.File, end.Line, end.Column),
			escapeProperty(r.ToolName+" "+f.Rule),
			escapeData(f.Message))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// escapeData escapes a workflow command's message.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value, in which
// ':' and ',' are separators.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
