// Command deadlinelint finds where a gRPC request's deadline and
// cancellation get lost.
//
// Run by go vet (go vet -vettool=$(command -v deadlinelint) ./...) it
// speaks the unitchecker protocol; run directly (deadlinelint ./...) it
// is a standalone CI gate with text, JSON, SARIF and GitHub output and
// exit codes 0 (clean), 1 (findings) and 2 (errors). See docs/driver.md.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/deadlinelint/deadlinelint/analyzers"
	"github.com/deadlinelint/deadlinelint/internal/driver"
	"github.com/deadlinelint/deadlinelint/internal/vetmode"
)

func main() {
	analyzers := analyzers.All()
	driver.ContainPanics(analyzers)
	info, _ := debug.ReadBuildInfo()
	v := version(info)
	if nonce := os.Getenv("DEADLINELINT_BENCH_NONCE"); nonce != "" && len(os.Args) == 2 && strings.TrimLeft(os.Args[1], "-") == "V=full" {
		// The benchmark's first-run rows: a tool ID of its own per run makes go vet's result
		// cache miss while compiled export data stays cached.
		fmt.Printf("deadlinelint version bench-%s\n", nonce)
		return
	}
	if fullVersionOfRelease(os.Args[1:], v) {
		// go vet keys its cache on this line: a released version names the build exactly
		// (unitchecker's own answer, for a devel build, is the executable's build ID).
		fmt.Printf("deadlinelint version %s\n", v)
		return
	}
	if vetmode.Invoked(os.Args[1:]) {
		vetmode.Main(analyzers) // does not return
	}
	exe, _ := os.Executable() // "" when unknown: then the command analyses in the process
	cmd := &driver.Command{
		VetTool:   exe,
		Name:      "deadlinelint",
		Version:   describe(info, v),
		Analyzers: analyzers,
		Stdout:    os.Stdout,
		Stderr:    os.Stderr,
	}
	os.Exit(cmd.Run(os.Args[1:]))
}

// fullVersionOfRelease reports whether go vet asks for the tool's version (-V=full) of a
// binary built from an exact module version: a release, or the pseudo-version the go command
// stamps from a clean checkout's commit. A devel or modified (+dirty) build answers with
// unitchecker's build ID instead, so that go vet's cache never mixes two builds.
func fullVersionOfRelease(args []string, v string) bool {
	return len(args) == 1 && (args[0] == "-V=full" || args[0] == "--V=full") && v != "devel" && !strings.HasSuffix(v, "+dirty")
}

// version is the module version the binary was built from (go install …@v0.2.0, go get -tool),
// or "devel" for a build from a checkout.
func version(info *debug.BuildInfo) string {
	// A build through a replace directive (a module pointed at a checkout) has the zero
	// pseudo-version: no version at all.
	if info != nil && info.Main.Version != "" && info.Main.Version != "(devel)" && info.Main.Version != "v0.0.0-00010101000000-000000000000" {
		return info.Main.Version
	}
	return "devel"
}

// describe is what -V and -version print after the name: the version, and what it was built
// with — for a build from a checkout, the commit and whether the tree was modified.
func describe(info *debug.BuildInfo, v string) string {
	if info == nil {
		return v
	}
	var extra []string
	if v == "devel" {
		var rev, modified string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if rev != "" {
			if len(rev) > 12 {
				rev = rev[:12]
			}
			if modified == "true" {
				rev += "+modified"
			}
			extra = append(extra, "commit "+rev)
		}
	}
	extra = append(extra, info.GoVersion)
	for _, d := range info.Deps {
		if d.Path == "golang.org/x/tools" {
			extra = append(extra, "x/tools "+d.Version)
		}
	}
	return v + " (" + strings.Join(extra, ", ") + ")"
}
