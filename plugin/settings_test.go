package plugin

import (
	"flag"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
)

// fakeRule is an analyzer with one flag of each kind the rules use; its
// flags are fresh per test so settings never leak between cases.
type fakeRule struct {
	analyzer *analysis.Analyzer
	streams  *bool
	depth    *int
	clients  *string
	timeout  *time.Duration
}

func newFakeRule() *fakeRule {
	r := &fakeRule{analyzer: &analysis.Analyzer{Name: "fakerule", Doc: "fake"}}
	fs := &r.analyzer.Flags
	r.streams = fs.Bool("streams", false, "report streaming calls")
	r.depth = fs.Int("depth", 3, "call depth")
	r.clients = fs.String("clients", "", "comma-separated extra client APIs")
	r.timeout = fs.Duration("timeout", 0, "a duration")
	return r
}

func TestApplySettingsSetsFlags(t *testing.T) {
	r := newFakeRule()
	conf := map[string]any{ // as golangci-lint hands it over from YAML
		"streams": true,
		"depth":   7,
		"clients": []any{"example.com/db.Client.Get", "example.com/db.Client.Put"},
		"timeout": "1m30s",
	}
	if err := applySettings(r.analyzer, conf); err != nil {
		t.Fatalf("applySettings: %v", err)
	}
	if !*r.streams {
		t.Errorf("streams = false, want true")
	}
	if *r.depth != 7 {
		t.Errorf("depth = %d, want 7", *r.depth)
	}
	if want := "example.com/db.Client.Get,example.com/db.Client.Put"; *r.clients != want {
		t.Errorf("clients = %q, want %q", *r.clients, want)
	}
	if *r.timeout != 90*time.Second {
		t.Errorf("timeout = %v, want 1m30s", *r.timeout)
	}
}

func TestApplySettingsNoSettings(t *testing.T) {
	for _, conf := range []any{nil, map[string]any{}} {
		r := newFakeRule()
		if err := applySettings(r.analyzer, conf); err != nil {
			t.Errorf("applySettings(%#v): %v", conf, err)
		}
		if *r.streams || *r.depth != 3 || *r.clients != "" {
			t.Errorf("applySettings(%#v) changed a flag", conf)
		}
	}
}

func TestApplySettingsErrors(t *testing.T) {
	tests := []struct {
		name string
		conf any
		want string // substring of the error
	}{
		{"unknown key", map[string]any{"stream": true}, `fakerule: unknown setting "stream" (known settings: clients, depth, streams, timeout)`},
		{"prefixed key", map[string]any{"fakerule.streams": true}, `unknown setting "fakerule.streams"`},
		{"bad bool", map[string]any{"streams": "maybe"}, `fakerule: setting "streams": invalid value "maybe"`},
		{"bad int", map[string]any{"depth": 2.5}, `setting "depth": invalid value "2.5"`},
		{"bad duration", map[string]any{"timeout": 30}, `setting "timeout": invalid value "30"`},
		{"null value", map[string]any{"depth": nil}, `setting "depth": no value`},
		{"map value", map[string]any{"clients": map[string]any{"a": 1}}, `setting "clients": want a string, number, boolean or list`},
		{"nested list", map[string]any{"clients": []any{[]any{"a"}}}, `nested lists are not supported`},
		{"not a map", []any{"streams"}, `fakerule: decoding settings`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newFakeRule()
			err := applySettings(r.analyzer, tt.conf)
			if err == nil {
				t.Fatalf("applySettings(%#v) = nil, want error containing %q", tt.conf, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("applySettings(%#v) = %q, want it to contain %q", tt.conf, err, tt.want)
			}
		})
	}
}

func TestApplySettingsRuleWithoutFlags(t *testing.T) {
	a := &analysis.Analyzer{Name: "bare", Doc: "no flags", Flags: *flag.NewFlagSet("bare", flag.ContinueOnError)}
	err := applySettings(a, map[string]any{"x": 1})
	if err == nil || !strings.Contains(err.Error(), "this rule has no settings") {
		t.Errorf("applySettings = %v, want an error saying the rule has no settings", err)
	}
}
