package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"testing"
)

func TestVersionFromBuildInfo(t *testing.T) {
	released := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/deadlinelint/deadlinelint", Version: "v0.3.1"},
		Deps:      []*debug.Module{{Path: "golang.org/x/tools", Version: "v0.38.0"}},
	}
	checkout := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/deadlinelint/deadlinelint", Version: "(devel)"},
		Settings:  []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}},
	}
	for _, tc := range []struct {
		info          *debug.BuildInfo
		version, full string
	}{
		{released, "v0.3.1", "v0.3.1 (go1.26.8, x/tools v0.38.0)"},
		{checkout, "devel", "devel (commit 0123456789ab+modified, go1.26.8)"},
		{nil, "devel", "devel"},
	} {
		v := version(tc.info)
		if v != tc.version {
			t.Errorf("version = %q, want %q", v, tc.version)
		}
		if got := describe(tc.info, v); got != tc.full {
			t.Errorf("describe = %q, want %q", got, tc.full)
		}
	}
	if !fullVersionOfRelease([]string{"-V=full"}, "v0.3.1") || fullVersionOfRelease([]string{"-V=full"}, "devel") ||
		fullVersionOfRelease([]string{"-V=full"}, "v0.0.0-20261202072949-cef1bfbe1de3+dirty") {
		t.Error("-V=full of a release must print the module version, of a devel or modified build unitchecker's build ID")
	}
}

// TestInstallRoutes installs the command from the checkout with go install and runs it with
// go run, as the README says, and asks each for its version.
func TestInstallRoutes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command twice")
	}
	gobin := t.TempDir()
	install := exec.Command("go", "install", ".")
	install.Env = append(os.Environ(), "GOBIN="+gobin)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install ./cmd/deadlinelint: %v\n%s", err, out)
	}
	for name, cmd := range map[string]*exec.Cmd{
		"go install": exec.Command(filepath.Join(gobin, "deadlinelint"), "-version"),
		"go run":     exec.Command("go", "run", ".", "-version"),
	} {
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// From a checkout the go command stamps the commit's pseudo-version when it can read
		// the repository, and "(devel)" when it cannot (-buildvcs=false, no git).
		if !versionLine.MatchString(string(out)) {
			t.Errorf("%s: -version printed %q", name, out)
		}
	}
}

// versionLine is what -version prints for a build from a checkout.
var versionLine = regexp.MustCompile(`^deadlinelint version (devel|v0\.0\.0-\d{14}-[0-9a-f]{12}(\+dirty)?) \(.*go1\.[^)]*\)\n$`)
