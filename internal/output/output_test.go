package output

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .golden files")

// sampleReport has findings on a line with multi-byte characters
// (testdata/src/svc/unicode.go line 3: `bad()` is at byte column 28 and
// UTF-16 column 21), a related position, a fix, a file outside the
// root, and a tool error.
func sampleReport(t *testing.T) *Report {
	t.Helper()
	root, err := filepath.Abs("testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	return &Report{
		ToolName:    "deadlinelint",
		ToolVersion: "v0.0.0-test",
		Rules: []Rule{
			{Name: "ctxbackground", Doc: "report context.Background in request scope\n\nThe ctxbackground analyzer reports..."},
			{Name: "ctxflow", Doc: "report request-scoped calls using an unrelated context", URL: "https://example.com/ctxflow"},
		},
		Findings: []Finding{
			{
				Rule:    "ctxbackground",
				Pos:     Position{File: "svc/unicode.go", Line: 3, Column: 28},
				End:     Position{File: "svc/unicode.go", Line: 3, Column: 33},
				Message: `call to bad drops 100% of the "deadline"`,
				Related: []Related{{Pos: Position{File: "svc/unicode.go", Line: 5, Column: 6}, Message: "bad is declared here"}},
				Fixes: []Fix{{Message: "call good", Edits: []Edit{{
					Pos:    Position{File: "svc/unicode.go", Line: 3, Column: 28},
					End:    Position{File: "svc/unicode.go", Line: 3, Column: 31},
					Offset: 40, EndOffset: 43, NewText: "good",
				}}}},
			},
			{
				Rule:    "ctxflow",
				Pos:     Position{File: "/elsewhere/x.go", Line: 7, Column: 2},
				End:     Position{File: "/elsewhere/x.go", Line: 7, Column: 2},
				Message: "line one\nline two: a, b",
			},
		},
		Errors: []string{"deadlinelint: package example.com/bad: type error: bad.go:3:7: undefined: x"},
		Root:   root,
	}
}

func render(t *testing.T, format string, r *Report) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, format, r); err != nil {
		t.Fatalf("Write(%s): %v", format, err)
	}
	// The root is an absolute path of this checkout: keep goldens portable.
	if r.Root == "" {
		return buf.String()
	}
	return strings.ReplaceAll(buf.String(), filepath.ToSlash(r.Root), "$ROOT")
}

func TestGolden(t *testing.T) {
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			got := render(t, format, sampleReport(t))
			golden := filepath.Join("testdata", "report."+format+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o666); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("%s output differs from %s:\n--- got\n%s\n--- want\n%s", format, golden, got, want)
			}
		})
	}
}

func TestUnknownFormat(t *testing.T) {
	err := Write(new(bytes.Buffer), "xml", sampleReport(t))
	if err == nil || !strings.Contains(err.Error(), `unknown format "xml"`) {
		t.Errorf("Write(xml) = %v, want an unknown format error", err)
	}
}

func TestEmptyJSONIsArray(t *testing.T) {
	got := render(t, "json", &Report{})
	if strings.TrimSpace(got) != "[]" {
		t.Errorf("json of no findings = %q, want []", got)
	}
}

func TestSARIFColumnsAreUTF16(t *testing.T) {
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation sarifPhysicalLocation
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(render(t, "sarif", sampleReport(t))), &log); err != nil {
		t.Fatal(err)
	}
	got := log.Runs[0].Results[0].Locations[0].PhysicalLocation
	want := sarifPhysicalLocation{
		ArtifactLocation: sarifArtifactLocation{URI: "svc/unicode.go", URIBaseID: "%SRCROOT%"},
		Region:           sarifRegion{StartLine: 3, StartColumn: 21, EndLine: 3, EndColumn: 26},
	}
	if got != want {
		t.Errorf("location = %+v, want %+v", got, want)
	}
}

func TestUTF16Len(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want int
	}{
		{"abc", 2, 2},
		{"é", 2, 1},
		{"日本x", 6, 2},
		{"🙂x", 4, 2},    // astral: a surrogate pair
		{"ab", 4, 4},    // past the end of the line
		{"\xffa", 2, 2}, // invalid byte
	} {
		if got := utf16Len([]byte(tc.s), tc.n); got != tc.want {
			t.Errorf("utf16Len(%q, %d) = %d, want %d", tc.s, tc.n, got, tc.want)
		}
	}
}

func TestGitHubEscaping(t *testing.T) {
	r := &Report{ToolName: "deadlinelint", Findings: []Finding{{
		Rule:    "ctxflow",
		Pos:     Position{File: "dir,a:b/x%y.go", Line: 1, Column: 1},
		End:     Position{File: "dir,a:b/x%y.go", Line: 1, Column: 1},
		Message: "100%\r\nsure: a, b",
	}}}
	got := render(t, "github", r)
	want := "::error file=dir%2Ca%3Ab/x%25y.go,line=1,col=1,endLine=1,endColumn=1,title=deadlinelint ctxflow::100%25%0D%0Asure: a, b\n"
	if got != want {
		t.Errorf("github output\n got %q\nwant %q", got, want)
	}
}

func TestSort(t *testing.T) {
	fs := []Finding{
		{Rule: "b", Pos: Position{File: "a.go", Line: 2, Column: 1}},
		{Rule: "b", Pos: Position{File: "a.go", Line: 1, Column: 5}},
		{Rule: "a", Pos: Position{File: "a.go", Line: 1, Column: 5}},
		{Rule: "a", Pos: Position{File: "B.go", Line: 9, Column: 9}},
	}
	Sort(fs)
	var got []string
	for _, f := range fs {
		got = append(got, f.Pos.String()+" "+f.Rule)
	}
	want := "B.go:9:9 a|a.go:1:5 a|a.go:1:5 b|a.go:2:1 b"
	if strings.Join(got, "|") != want {
		t.Errorf("sorted = %s, want %s", strings.Join(got, "|"), want)
	}
}
