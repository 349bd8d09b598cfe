// Package vetproto answers go vet's side of the vet-tool protocol for tools that analyse
// nothing — the benchmark's protocol floor and tests that capture the configs go vet writes:
// -V=full prints a tool ID, -flags prints no flags, and each package config (the last
// argument, *.cfg) is answered with empty facts and no findings. It imports nothing beyond
// what that needs, so that such a tool starts as fast as a process can.
package vetproto

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Answer answers go vet for a tool named name whose -V=full line carries buildID, calling
// onConfig (when not nil) with the path and contents of each package config before writing its
// empty facts. It reports whether args were go vet's.
func Answer(args []string, name, buildID string, onConfig func(path string, data []byte) error) (bool, error) {
	switch {
	case len(args) == 1 && strings.TrimLeft(args[0], "-") == "V=full":
		fmt.Printf("%s version devel buildID=%s\n", name, buildID)
	case len(args) == 1 && strings.TrimLeft(args[0], "-") == "flags":
		fmt.Println("[]")
	case len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg"):
		path := args[len(args)-1]
		data, err := os.ReadFile(path)
		if err != nil {
			return true, err
		}
		if onConfig != nil {
			if err := onConfig(path, data); err != nil {
				return true, err
			}
		}
		var cfg struct{ VetxOutput string }
		if err := json.Unmarshal(data, &cfg); err != nil {
			return true, fmt.Errorf("%s: %v", path, err)
		}
		if cfg.VetxOutput != "" {
			return true, os.WriteFile(cfg.VetxOutput, nil, 0o666)
		}
	default:
		return false, nil
	}
	return true, nil
}
