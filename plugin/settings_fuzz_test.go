package plugin

import (
	"encoding/json"
	"testing"
)

// FuzzApplySettings feeds arbitrary settings documents to applySettings: it
// must never panic, and when it accepts a document every key must be one of
// the rule's flags.
func FuzzApplySettings(f *testing.F) {
	for _, seed := range []string{
		`null`,
		`{}`,
		`{"streams": true, "depth": 7, "clients": ["a.B.C", "d.E"], "timeout": "1m"}`,
		`{"stream": true}`,
		`{"depth": 2.5}`,
		`{"depth": 1e400}`,
		`{"clients": [["nested"]]}`,
		`{"clients": {"a": 1}}`,
		`{"timeout": null}`,
		`["streams"]`,
		`"streams"`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		var conf any
		if json.Unmarshal([]byte(doc), &conf) != nil {
			return // golangci-lint hands over decoded YAML, never invalid text
		}
		r := newFakeRule()
		if err := applySettings(r.analyzer, conf); err != nil {
			return
		}
		settings, _ := conf.(map[string]any)
		for key := range settings {
			if r.analyzer.Flags.Lookup(key) == nil {
				t.Errorf("applySettings accepted unknown key %q in %s", key, doc)
			}
		}
	})
}
