// Command vetnoop is a vet tool that does nothing (go vet -vettool=vetnoop): it answers
// -V=full with a tool ID of $BENCH_VETFLOOR_NONCE, -flags with none, and every package config
// with empty facts and no findings, without reading a source file (internal/vetproto). Its
// cost is what go vet's protocol costs by itself — the go command's actions and one small
// process per package — the floor of any tool that runs through go vet: the benchmark's row
// c0.
package main

import (
	"fmt"
	"os"

	"github.com/deadlinelint/deadlinelint/internal/vetproto"
)

func main() {
	ok, err := vetproto.Answer(os.Args[1:], "vetnoop", "vetfloor-"+os.Getenv("BENCH_VETFLOOR_NONCE"), nil)
	switch {
	case err != nil:
		fmt.Fprintf(os.Stderr, "vetnoop: %v\n", err)
		os.Exit(1)
	case !ok:
		fmt.Fprintln(os.Stderr, "usage: go vet -vettool=vetnoop packages")
		os.Exit(2)
	}
}
