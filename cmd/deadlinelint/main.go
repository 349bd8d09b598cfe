// Command deadlinelint finds where a gRPC request's deadline and
// cancellation get lost.
//
// Run by go vet (go vet -vettool=$(command -v deadlinelint) ./...) it
// speaks the unitchecker protocol; run directly (deadlinelint ./...) it
// is a standalone CI gate with text, JSON, SARIF and GitHub output and
// exit codes 0 (clean), 1 (findings) and 2 (errors). See docs/driver.md.
package main

import (
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/deadlinelint/deadlinelint/analyzers"
	"github.com/deadlinelint/deadlinelint/internal/driver"
)

func main() {
	analyzers := analyzers.All()
	driver.ContainPanics(analyzers)
	if invokedByVet(os.Args[1:]) {
		unitchecker.Main(analyzers...) // does not return
	}
	cmd := &driver.Command{
		Name:      "deadlinelint",
		Version:   version(),
		Analyzers: analyzers,
		Stdout:    os.Stdout,
		Stderr:    os.Stderr,
	}
	os.Exit(cmd.Run(os.Args[1:]))
}

// invokedByVet reports whether go vet is running the tool: it asks for
// the flags (-flags) and the version (-V=full), then passes one *.cfg
// file per package.
func invokedByVet(args []string) bool {
	for _, arg := range args {
		if arg == "-flags" || arg == "--flags" || arg == "-V=full" || arg == "--V=full" {
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

// version is the module version the binary was built from, or "devel".
func version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
}
