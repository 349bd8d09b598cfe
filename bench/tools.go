package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A tool is one row of the benchmark: a command run on every corpus.
type tool struct {
	key    string // short column key: a, b, c, ...
	name   string
	note   string
	argv   []string // command; the corpus patterns are appended
	env    func(run int) []string
	okExit func(code int) bool
	// edit: before each run, change a file of a package of the corpus that no other of its
	// packages imports (an owned corpus only: the standard library is left alone).
	edit bool
	// same names a group of rows that must print the same findings on every run: the routes
	// and caches of one tool.
	same string
	// warm: the row measures a re-run; without the warm-up round, it runs once untimed first.
	warm bool
}

func (t tool) command(c corpus) []string {
	return append(append([]string(nil), t.argv...), c.patterns...)
}

func exitAtMost(max int) func(int) bool {
	return func(code int) bool { return code >= 0 && code <= max }
}

// byPackage makes the standalone command take the package route (its default with a warm
// build cache) even when go list finds most compiled packages stale, as it does for a copy of a
// module in a new directory (a package's directory is part of its compile key): without it, the
// first timed run would measure the in-process route. The untimed warm-up run compiles them;
// timed runs find the build cache warm. viaVet does the same for the go vet route (row cv).
const (
	byPackage = "DEADLINELINT_PACKAGES=1"
	viaVet    = "DEADLINELINT_VET=1"
)

// buildTools builds every tool into bin and returns the rows to measure.
// A tool that cannot be built is left out with a warning, except the floor.
func buildTools(ctx context.Context, root, bin, corpusDir string, floorMode string) ([]tool, map[string]string, error) {
	versions := make(map[string]string)
	floor := filepath.Join(bin, "floor")
	if _, err := goOutput(ctx, root, nil, "build", "-o", floor, "./bench/floor"); err != nil {
		return nil, nil, err
	}
	tools := []tool{
		{key: "a", name: "floor (a): load + type-check, no-op analyzer", argv: []string{floor, "-suite=noop", "-mode=" + floorMode, "-test=false"}, okExit: exitAtMost(0)},
		{key: "b", name: "floor (b): (a) + SSA for every package", argv: []string{floor, "-suite=ssa", "-mode=" + floorMode, "-test=false"}, okExit: exitAtMost(0)},
	}

	if _, err := os.Stat(filepath.Join(root, "cmd", "deadlinelint")); err != nil {
		warn("cmd/deadlinelint does not exist yet; row (c) left out")
	} else {
		dl := filepath.Join(bin, "deadlinelint")
		if _, err := goOutput(ctx, root, nil, "build", "-o", dl, "./cmd/deadlinelint"); err != nil {
			warn("building deadlinelint: %v; row (c) left out", err)
		} else {
			// The command's run cache (runcache.go) of the benchmark's own: (c1) is answered by
			// it and the run memo, (c2) by its package cache.
			runs := "DEADLINELINT_CACHE=" + filepath.Join(bin, "runs")
			// (c3) runs right after (b), the row its target compares it with: measured after
			// the go vet rows, whose hundreds of processes leave a shared machine slower for a
			// while, it cost about a tenth more than next to (b).
			tools = append(tools,
				tool{
					same: "deadlinelint", key: "c3", name: "deadlinelint -test=false, in the process",
					note:   "DEADLINELINT_INPROCESS=1: go/packages and the checker in one process, every dependency type-checked from source (those no rule reads the bodies of without them), nothing cached",
					argv:   []string{dl, "-test=false"},
					env:    func(int) []string { return []string{"DEADLINELINT_INPROCESS=1"} },
					okExit: exitAtMost(1),
				},
				tool{
					same: "deadlinelint", key: "c", name: "deadlinelint -test=false, first run",
					note: "the package route, its package cache missed on every run (a fresh tool key), build cache warm: a first run",
					argv: []string{dl, "-test=false"},
					env: func(run int) []string {
						return []string{byPackage, runs, fmt.Sprintf("DEADLINELINT_BENCH_NONCE=%d-%d", os.Getpid(), run)}
					},
					okExit: exitAtMost(1),
				},
				tool{
					same: "deadlinelint", warm: true, key: "c1", name: "deadlinelint -test=false, unchanged re-run",
					note: "the same run again on the unchanged corpus: the run memo and the run cache answer, without listing packages",
					argv: []string{dl, "-test=false"},
					env: func(int) []string {
						return []string{byPackage, runs, fmt.Sprintf("DEADLINELINT_BENCH_NONCE=%d-warm", os.Getpid())}
					},
					okExit: exitAtMost(1),
				},
				tool{
					same: "deadlinelint", warm: true, key: "c2", name: "deadlinelint -test=false, one file edited",
					note: "a file of a package no other package of the corpus imports is changed before each run (a comment added)",
					argv: []string{dl, "-test=false"},
					env: func(int) []string {
						return []string{byPackage, runs, fmt.Sprintf("DEADLINELINT_BENCH_NONCE=%d-warm", os.Getpid())}
					},
					edit: true, okExit: exitAtMost(1),
				},
				tool{
					same: "deadlinelint", key: "cv", name: "deadlinelint -test=false through go vet, first run",
					note: "DEADLINELINT_VET=1: go vet runs the tool once per package, its result cache missed on every run (a fresh tool ID), build cache warm: the route before the package route",
					argv: []string{dl, "-test=false"},
					env: func(run int) []string {
						return []string{viaVet, runs, fmt.Sprintf("DEADLINELINT_BENCH_NONCE=%d-v%d", os.Getpid(), run)}
					},
					okExit: exitAtMost(1),
				},
			)
		}
	}

	vetnoop := filepath.Join(bin, "vetnoop")
	if _, err := goOutput(ctx, root, nil, "build", "-o", vetnoop, "./bench/vetnoop"); err != nil {
		return nil, nil, err
	}
	tools = append(tools, tool{
		key:  "c0",
		name: "go vet's protocol floor: a vet tool that does nothing",
		note: "go vet -vettool=bench/vetnoop: every package answered with empty facts and no findings, no file read, result cache missed on every run; what the route (c) takes costs before any analysis",
		argv: []string{"go", "vet", "-vettool=" + vetnoop},
		env: func(run int) []string {
			return []string{fmt.Sprintf("BENCH_VETFLOOR_NONCE=%d-%d", os.Getpid(), run)}
		},
		okExit: exitAtMost(0),
	})

	vet, err := vetWrapper(ctx, bin)
	if err != nil {
		return nil, nil, err
	}
	tools = append(tools,
		tool{
			key:  "d",
			name: "go vet (default suite, with tests)",
			note: "go vet has no -test=false: it also vets test files; result cache bypassed, build cache warm",
			argv: []string{"go", "vet", "-vettool=" + vet},
			// A fresh tool ID per run makes go vet's result cache miss
			// while compiled export data stays cached.
			env:    func(run int) []string { return []string{fmt.Sprintf("BENCH_VET_NONCE=%d-%d", os.Getpid(), run)} },
			okExit: exitAtMost(1),
		},
		tool{
			warm: true, key: "d1", name: "go vet (default suite, with tests), unchanged re-run",
			note: "go vet's own re-run on the unchanged corpus: the anchor for (c1)",
			argv: []string{"go", "vet"}, okExit: exitAtMost(1),
		},
		tool{key: "d'", name: "vet suite on floor's driver -test=false", argv: []string{floor, "-suite=vet", "-test=false"}, okExit: exitAtMost(0)},
	)

	ccVersion, cc, err := buildContextcheck(ctx, corpusDir, bin)
	if err != nil {
		warn("building contextcheck: %v; row (e) left out", err)
	} else {
		versions["contextcheck"] = ccVersion
		tools = append(tools, tool{key: "e", name: "contextcheck " + ccVersion + " -test=false", argv: []string{cc, "-test=false"}, okExit: exitAtMost(3)})
	}
	return tools, versions, nil
}

// vetWrapper writes a vet tool that runs the distribution's vet but reports
// a tool ID that changes with $BENCH_VET_NONCE, so that each run is a cold
// vet-result cache over a warm build cache.
func vetWrapper(ctx context.Context, bin string) (string, error) {
	toolDir, err := goOutput(ctx, bin, nil, "env", "GOTOOLDIR")
	if err != nil {
		return "", err
	}
	version, err := goOutput(ctx, bin, nil, "env", "GOVERSION")
	if err != nil {
		return "", err
	}
	realVet := filepath.Join(strings.TrimSpace(toolDir), "vet")
	script := fmt.Sprintf(`#!/bin/sh
# go vet keys its result cache on the tool's -V=full line: a new line per run
# defeats that cache without touching cached compiler output.
if [ "$1" = "-V=full" ]; then echo "vet version %s bench-$BENCH_VET_NONCE"; exit 0; fi
exec %q "$@"
`, strings.TrimSpace(version), realVet)
	path := filepath.Join(bin, "vet-nocache")
	return path, os.WriteFile(path, []byte(script), 0o755)
}

// buildContextcheck installs the latest served version of contextcheck into
// bin, resolving it from the corpus module so that nothing is added to the
// deadlinelint module.
func buildContextcheck(ctx context.Context, modDir, bin string) (version, path string, err error) {
	const mod = "github.com/kkHAIKE/contextcheck"
	out, err := goOutput(ctx, modDir, nil, "list", "-m", "-versions", mod)
	if err != nil {
		return "", "", err
	}
	fields := strings.Fields(out)
	if len(fields) < 2 {
		return "", "", fmt.Errorf("no versions of %s served", mod)
	}
	version = fields[len(fields)-1]
	if _, err := goOutput(ctx, modDir, []string{"GOBIN=" + bin, "GOFLAGS=" + os.Getenv("GOFLAGS")}, "install", mod+"/cmd/contextcheck@"+version); err != nil {
		return "", "", err
	}
	return version, filepath.Join(bin, "contextcheck"), nil
}

func warn(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: warning: "+format+"\n", args...)
}
