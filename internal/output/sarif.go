package output

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"
)

const (
	sarifSchema  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	sarifVersion = "2.1.0"
	// srcRoot is the uriBaseId of every repository-relative location.
	srcRoot = "%SRCROOT%"
	// InformationURI is the project's home page.
	InformationURI = "https://github.com/deadlinelint/deadlinelint"
	// rulesDocURI is where each rule's documentation lives, by anchor.
	rulesDocURI = InformationURI + "/blob/main/docs/rules.md#"
	// level is the SARIF level of every finding: deadlinelint fails the
	// gate on any of them.
	level = "error"
)

// The types below are the subset of SARIF 2.1.0 deadlinelint emits.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	Invocations        []sarifInvocation                `json:"invocations"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                           `json:"columnKind"`
	Results            []sarifResult                    `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	FullName        string      `json:"fullName,omitempty"`
	Version         string      `json:"version,omitempty"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	Name                 string             `json:"name,omitempty"`
	ShortDescription     sarifMessage       `json:"shortDescription"`
	FullDescription      sarifMessage       `json:"fullDescription"`
	Help                 *sarifHelp         `json:"help,omitempty"`
	HelpURI              string             `json:"helpUri"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
}

// sarifHelp is a rule's help: GitHub code scanning shows the Markdown beside every alert.
type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           *int              `json:"ruleIndex,omitempty"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifMessage         `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           sarifRegion           `json:"region"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// sarifRegion counts columns in UTF-16 code units (the run's columnKind).
type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

func writeSARIF(w io.Writer, r *Report) error {
	version := numericVersion(r.ToolVersion)
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:            r.ToolName,
			FullName:        strings.TrimSpace(r.ToolName + " " + r.ToolVersion),
			Version:         version,
			SemanticVersion: version,
			InformationURI:  InformationURI,
			Rules:           []sarifRule{},
		}},
		Invocations: []sarifInvocation{invocation(r.Errors)},
		ColumnKind:  "utf16CodeUnits",
		Results:     []sarifResult{},
	}
	if r.Root != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLocation{
			srcRoot: {URI: dirURI(r.Root)},
		}
	}
	index := make(map[string]int)
	for i, rule := range r.Rules {
		index[rule.Name] = i
		short, full := splitDoc(rule.Doc)
		help := rule.URL
		if help == "" {
			help = rulesDocURI + rule.Name
		}
		sr := sarifRule{
			ID:                   rule.Name,
			Name:                 rule.Title,
			ShortDescription:     sarifMessage{Text: short},
			FullDescription:      sarifMessage{Text: full},
			HelpURI:              help,
			DefaultConfiguration: sarifConfiguration{Level: level},
		}
		if rule.Help != "" {
			sr.Help = &sarifHelp{Text: rule.Help + "\n\n" + help, Markdown: rule.Help + "\n\n[Documentation](" + help + ")"}
		} else {
			sr.Help = &sarifHelp{Text: full + "\n\n" + help}
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sr)
	}
	cols := newColumnConverter(r.Root)
	prints := newFingerprinter(cols)
	for _, f := range r.Findings {
		res := sarifResult{
			RuleID:              f.Rule,
			Level:               level,
			Message:             sarifMessage{Text: f.Message},
			Locations:           []sarifLocation{{PhysicalLocation: cols.physical(f.Pos, f.End)}},
			PartialFingerprints: map[string]string{fingerprintKey: prints.of(f)},
		}
		if i, ok := index[f.Rule]; ok {
			res.RuleIndex = &i
		}
		for i, rel := range f.Related {
			id := i + 1
			res.RelatedLocations = append(res.RelatedLocations, sarifLocation{
				ID:               &id,
				PhysicalLocation: cols.physical(rel.Pos, rel.Pos),
				Message:          &sarifMessage{Text: rel.Message},
			})
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

func invocation(errs []string) sarifInvocation {
	inv := sarifInvocation{ExecutionSuccessful: len(errs) == 0}
	for _, e := range errs {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{
			Level:   "error",
			Message: sarifMessage{Text: e},
		})
	}
	return inv
}

// physical returns the location of [pos, end) with UTF-16 columns.
func (c *columnConverter) physical(pos, end Position) sarifPhysicalLocation {
	if end.Line < pos.Line || (end.Line == pos.Line && end.Column < pos.Column) {
		end = pos
	}
	return sarifPhysicalLocation{
		ArtifactLocation: artifact(pos.File),
		Region: sarifRegion{
			StartLine:   pos.Line,
			StartColumn: c.utf16Column(pos.File, pos.Line, pos.Column),
			EndLine:     end.Line,
			EndColumn:   c.utf16Column(end.File, end.Line, end.Column),
		},
	}
}

// artifact locates a file: relative to %SRCROOT% when it is under the
// repository root, by absolute file URI otherwise.
func artifact(file string) sarifArtifactLocation {
	if filepath.IsAbs(filepath.FromSlash(file)) {
		return sarifArtifactLocation{URI: fileURI(file)}
	}
	return sarifArtifactLocation{URI: (&url.URL{Path: file}).String(), URIBaseID: srcRoot}
}

func fileURI(path string) string {
	path = filepath.ToSlash(path)
	if !strings.HasPrefix(path, "/") {
		path = "/" + path // Windows: C:/x → /C:/x
	}
	return (&url.URL{Scheme: "file", Path: path}).String()
}

// dirURI is the file URI of a directory; SARIF requires the trailing slash.
func dirURI(dir string) string {
	u := fileURI(dir)
	if !strings.HasSuffix(u, "/") {
		u += "/"
	}
	return u
}

// numericVersion is the tool's version as SARIF wants it, starting with a number:
// "v0.3.1 (go1.26.8, …)" → "0.3.1", "devel (…)" → "0.0.0-devel".
func numericVersion(v string) string {
	v, _, _ = strings.Cut(strings.TrimSpace(v), " ")
	v = strings.TrimPrefix(v, "v")
	if v == "" || v[0] < '0' || v[0] > '9' {
		return "0.0.0-devel"
	}
	return v
}

// splitDoc splits an analyzer Doc into its first line and the whole text.
func splitDoc(doc string) (short, full string) {
	doc = strings.TrimSpace(doc)
	short, _, _ = strings.Cut(doc, "\n")
	return strings.TrimSpace(short), doc
}
