// Command vetnoop is a vet tool that does nothing (go vet -vettool=vetnoop): it answers
// -V=full with a tool ID of $BENCH_VETFLOOR_NONCE, -flags with none, and every package config
// with empty facts and no findings, without reading a source file. Its cost is what go vet's
// protocol costs by itself — the go command's actions and one small process per package — the
// floor of any tool that runs through go vet: the benchmark's row c0. It imports nothing
// beyond what that needs, so that its start-up costs what a process costs.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

func main() {
	if !vetProtocol(os.Args[1:]) {
		fmt.Fprintln(os.Stderr, "usage: go vet -vettool=vetnoop packages")
		os.Exit(2)
	}
}

// vetProtocol answers go vet, and reports whether the arguments were go vet's.
func vetProtocol(args []string) bool {
	switch {
	case len(args) == 1 && strings.TrimLeft(args[0], "-") == "V=full":
		fmt.Printf("vetnoop version devel buildID=vetfloor-%s\n", os.Getenv("BENCH_VETFLOOR_NONCE"))
	case len(args) == 1 && strings.TrimLeft(args[0], "-") == "flags":
		fmt.Println("[]")
	case len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg"):
		data, err := os.ReadFile(args[len(args)-1])
		var cfg struct{ VetxOutput string }
		if err == nil {
			err = json.Unmarshal(data, &cfg)
		}
		if err == nil && cfg.VetxOutput != "" {
			err = os.WriteFile(cfg.VetxOutput, nil, 0o666)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "vetnoop: %v\n", err)
			os.Exit(1)
		}
	default:
		return false
	}
	return true
}
