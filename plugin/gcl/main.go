// Command gcl is golangci-lint v2 with deadlinelint's rules compiled in, built
// offline from the module cache (golangci-lint custom needs to git-clone
// golangci-lint, which a machine without internet cannot do).
//
//	cd plugin/gcl && go build -o /tmp/golangci-lint .
//
// It runs exactly like golangci-lint; enable the rules in .golangci.yml as
// .golangci.example.yml at the repository root shows. scripts/plugin-e2e.sh
// builds it and checks it end to end.
package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/deadlinelint/deadlinelint/plugin" // registers one linter per rule
)

func main() {
	if err := commands.Execute(buildInfo()); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}

// buildInfo always reports version "(devel)", even when the go command stamps
// a VCS pseudo-version: for "(devel)" golangci-lint salts its analysis cache
// with a hash of the executable, so a rebuilt plugin never replays results
// cached by an older build.
func buildInfo() commands.BuildInfo {
	info := commands.BuildInfo{
		Version:   "(devel)",
		Commit:    "deadlinelint custom build",
		Date:      "(unknown)",
		GoVersion: "unknown",
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.GoVersion = bi.GoVersion
	}
	return info
}
