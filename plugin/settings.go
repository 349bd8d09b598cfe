package plugin

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
)

// applySettings decodes the settings golangci-lint hands a plugin
// (linters.settings.custom.<rule>.settings) and sets each key on the
// analyzer's flag of the same name, exactly as `-<rule>.<key>=<value>` would
// on the command line. Unknown keys and values the flag rejects are errors,
// so a typo in .golangci.yml fails the run instead of being ignored.
func applySettings(a *analysis.Analyzer, conf any) error {
	settings, err := register.DecodeSettings[map[string]any](conf)
	if err != nil {
		return fmt.Errorf("%s: %w", a.Name, err)
	}
	keys := make([]string, 0, len(settings))
	for key := range settings {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	for _, key := range keys {
		f := a.Flags.Lookup(key)
		if f == nil {
			return fmt.Errorf("%s: unknown setting %q (%s)", a.Name, key, knownSettings(&a.Flags))
		}
		value, err := flagValue(settings[key])
		if err != nil {
			return fmt.Errorf("%s: setting %q: %w", a.Name, key, err)
		}
		if err := a.Flags.Set(key, value); err != nil {
			return fmt.Errorf("%s: setting %q: invalid value %q: %v", a.Name, key, value, err)
		}
	}
	return nil
}

// flagValue renders a decoded YAML/JSON value the way it would be written on
// the command line: scalars as text, a list as its elements joined by commas.
func flagValue(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case bool:
		return strconv.FormatBool(v), nil
	case float64: // encoding/json decodes every number as float64
		return strconv.FormatFloat(v, 'f', -1, 64), nil
	case []any:
		parts := make([]string, len(v))
		for i, elem := range v {
			s, err := flagValue(elem)
			if err != nil {
				return "", err
			}
			if _, nested := elem.([]any); nested {
				return "", fmt.Errorf("nested lists are not supported")
			}
			parts[i] = s
		}
		return strings.Join(parts, ","), nil
	case nil:
		return "", fmt.Errorf("no value")
	default:
		return "", fmt.Errorf("want a string, number, boolean or list, got %T", v)
	}
}

// knownSettings describes the keys a rule accepts, for error messages.
func knownSettings(fs *flag.FlagSet) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if len(names) == 0 {
		return "this rule has no settings"
	}
	return "known settings: " + strings.Join(names, ", ")
}
