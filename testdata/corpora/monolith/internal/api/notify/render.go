package notify

import (
	"sort"
	"strings"
)

// render substitutes {{name}} placeholders.
func render(tpl string, vars map[string]string) string {
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	pairs := make([]string, 0, 2*len(keys))
	for _, k := range keys {
		pairs = append(pairs, "{{"+k+"}}", vars[k])
	}
	return strings.NewReplacer(pairs...).Replace(tpl)
}
