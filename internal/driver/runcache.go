package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/deadlinelint/deadlinelint/internal/output"
	"github.com/deadlinelint/deadlinelint/internal/vetmode"
)

// The run cache: each run's findings, kept under a key of everything they depend on.
//
// go vet's cache answers a re-run package by package, but only after go vet has planned the
// whole build and looked each package up, which is most of what an unchanged re-run costs;
// and the in-process route (a cold build cache, a module that fits in memory) caches nothing.
// The command already lists every package it will analyse, with its dependencies, to choose its
// route; from that listing it keys the run on
//   - the tool: its executable's content, its version line, and the benchmark's nonce;
//   - the run: directory and repository root, patterns, tags, tests or not, the rules and their flags, every GO*
//     and CGO_* variable of the environment, and what go env -w set;
//   - every file analysed or loaded: the Go files (and C headers) of every package and its
//     dependencies — with tests, as `go list -test` lists them, test-only dependencies
//     included — by content, except in the standard library and the module cache, which the go
//     command never changes in place, by name, size and modification time; and each main
//     module's go.mod and go.sum.
//
// A run whose key is in the cache prints the findings kept there without analysing anything;
// any change to any of it is a miss, and the run analyses as it would have (go vet's cache
// then answers the unchanged packages), and keeps its findings if the key is the same after
// it (nothing changed while it ran). Runs with errors are not kept, nor runs with an overlay
// (GOFLAGS=-overlay: files the listing does not show). The cache lives in the
// user's cache directory (deadlinelint/runs), or DEADLINELINT_CACHE; DEADLINELINT_CACHE=off
// turns it off. Entries unused for a week are removed.

// toolID returns the hash of what identifies the tool to every cache: its version line, the
// benchmark's nonce and its executable's content, made once per run.
func (c *Command) toolID() (string, error) {
	c.toolOnce.Do(func() {
		h := sha256.New()
		fmt.Fprintf(h, "%s\n%s\n", c.Version, os.Getenv("DEADLINELINT_BENCH_NONCE"))
		if c.VetTool != "" {
			c.toolErr = vetmode.HashFile(h, c.VetTool)
		}
		c.toolSum = hex.EncodeToString(h.Sum(nil))
	})
	return c.toolSum, c.toolErr
}

// runCacheDir returns the directory of the run cache, or "" when it is off.
func runCacheDir() string {
	switch v := os.Getenv("DEADLINELINT_CACHE"); v {
	case "off":
		return ""
	case "":
		base, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		return filepath.Join(base, "deadlinelint", "runs")
	default:
		return v
	}
}

// runKey returns the key of this run, or "" and why when the run cannot be keyed (a package
// with errors, a file that cannot be read, an overlay). listed is go list's listing of the
// packages and their dependencies, without tests; nil to list them here.
func (c *Command) runKey(dir string, cfg *config, listed []listedPackage) (key, why string) {
	if c.VetTool == "" {
		return "", "the command's executable is not known"
	}
	if overlaid() {
		// The overlay's files replace the listed ones: an editor linting unsaved buffers.
		return "", "GOFLAGS has -overlay"
	}
	if cfg.tests || listed == nil {
		// Test files import packages the plain listing leaves out.
		var err error
		// The packages a run loads: those named, with tests their tests, and every
		// dependency of either.
		if listed, err = goList[listedPackage](dir, cfg, listFields, cfg.tests); err != nil {
			return "", err.Error()
		}
	}
	return c.runKeyOf(dir, cfg, listed)
}

// runKeyOf returns the key of this run with the packages listed (with their tests when the
// run analyses tests).
func (c *Command) runKeyOf(dir string, cfg *config, listed []listedPackage) (key, why string) {
	if c.VetTool == "" || overlaid() {
		return "", "the command's executable is not known, or GOFLAGS has -overlay"
	}
	envFile := goEnvFile()
	tool, err := c.toolID()
	if err != nil {
		return "", err.Error()
	}
	h := sha256.New()
	fmt.Fprintf(h, "deadlinelint run cache 1\n%s\n", tool)
	// Findings are kept with paths relative to the repository root (findRoot), which a new
	// .git or go.work above can move.
	fmt.Fprintf(h, "root %q\n", findRoot(dir))
	fmt.Fprintf(h, "dir %q\npatterns %q\ntags %q\ntests %v\nrules %q\n", dir, cfg.patterns, cfg.tags, cfg.tests, cfg.ruleFlags)
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GO") || strings.HasPrefix(kv, "CGO_") {
			env = append(env, kv)
		}
	}
	slices.Sort(env)
	fmt.Fprintf(h, "env %q\n", env)
	// What go env -w set (GOFLAGS, GOEXPERIMENT, …) is in the go command's own file.
	fmt.Fprintf(h, "goenv %q\n", envFile)
	mods := make(map[string]bool)
	for i := range listed {
		p := &listed[i]
		if p.Error != nil {
			return "", "package " + p.ImportPath + ": " + p.Error.Err
		}
		fmt.Fprintf(h, "pkg %q %q %q %v\n", p.ImportPath, p.Name, p.Dir, p.DepOnly)
		immutable := p.immutable()
		if m := p.Module; m != nil {
			fmt.Fprintf(h, "module %q %q %q %q\n", m.Path, m.Version, m.Dir, m.GoVersion)
			if r := m.Replace; r != nil {
				fmt.Fprintf(h, "replace %q %q %q\n", r.Path, r.Version, r.Dir)
			}
			if m.Main && m.GoMod != "" {
				mods[m.GoMod] = true
			}
		}
		for _, group := range [][]string{p.GoFiles, p.CgoFiles, p.HFiles, p.TestGoFiles, p.XTestGoFiles} {
			for _, name := range group {
				path := p.path(name)
				fmt.Fprintf(h, "file %q\n", path)
				if immutable {
					fi, err := os.Stat(path)
					if err != nil {
						return "", err.Error()
					}
					fmt.Fprintf(h, "%d %d\n", fi.Size(), fi.ModTime().UnixNano())
				} else if err := vetmode.HashFile(h, path); err != nil {
					return "", err.Error()
				}
			}
		}
	}
	for _, gomod := range slices.Sorted(maps.Keys(mods)) {
		fmt.Fprintf(h, "gomod %q\n", gomod)
		if err := vetmode.HashFile(h, gomod); err != nil {
			return "", err.Error()
		}
		sum := strings.TrimSuffix(gomod, ".mod") + ".sum"
		if err := vetmode.HashFile(h, sum); err != nil && !os.IsNotExist(err) {
			return "", err.Error()
		}
	}
	return hex.EncodeToString(h.Sum(nil)), ""
}

// goEnvFile returns the content of the go command's own environment file (go env -w).
func goEnvFile() []byte {
	goenv := os.Getenv("GOENV")
	if goenv == "" {
		if cfgDir, err := os.UserConfigDir(); err == nil {
			goenv = filepath.Join(cfgDir, "go", "env")
		}
	}
	data, _ := os.ReadFile(goenv)
	return data
}

// overlaid reports whether GOFLAGS, in the environment or set with go env -w, has -overlay:
// files the go command reads instead of those on disk.
func overlaid() bool {
	return strings.Contains(os.Getenv("GOFLAGS"), "-overlay") || bytes.Contains(goEnvFile(), []byte("-overlay"))
}

// goList runs go list -e -deps -json=fields on cfg's patterns, with its tags, the flags and,
// when tests, -test, in dir, and decodes the packages it prints.
func goList[T any](dir string, cfg *config, fields string, tests bool, flags ...string) ([]T, error) {
	args := append([]string{"list", "-e", "-deps", "-json=" + fields}, flags...)
	if tests {
		args = append(args, "-test")
	}
	if cfg.tags != "" {
		args = append(args, "-tags="+cfg.tags)
	}
	cmd := exec.Command("go", append(args, cfg.patterns...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var listed []T
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p T
		if err := dec.Decode(&p); err == io.EOF {
			return listed, nil
		} else if err != nil {
			return nil, fmt.Errorf("reading go list's output: %v", err)
		}
		listed = append(listed, p)
	}
}

// cachedRun returns the findings the run cache keeps under key.
func cachedRun(key string) ([]output.Finding, bool) {
	dir := runCacheDir()
	if dir == "" || key == "" {
		return nil, false
	}
	name := filepath.Join(dir, key[:2], key+".json")
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, false
	}
	var findings []output.Finding
	if json.Unmarshal(data, &findings) != nil {
		return nil, false
	}
	now := time.Now()
	_ = os.Chtimes(name, now, now) // used: kept another week
	return findings, true
}

// keepRun keeps the findings of a run without errors under key, and removes entries unused
// for a week (at most once a day).
func keepRun(key string, findings []output.Finding) {
	dir := runCacheDir()
	if dir == "" || key == "" {
		return
	}
	if findings == nil {
		findings = []output.Finding{}
	}
	data, err := json.Marshal(findings)
	if err != nil {
		return
	}
	if writeAtomic(filepath.Join(dir, key[:2], key+".json"), data) != nil {
		return
	}
	pruneRuns(dir)
}

// writeAtomic writes data to the file name, making its directory: to a temporary file first,
// renamed, so that a reader never sees it half written.
func writeAtomic(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// pruneRuns removes the entries of the run cache unused for a week, at most once a day.
func pruneRuns(dir string) {
	stamp := filepath.Join(dir, "pruned")
	if fi, err := os.Stat(stamp); err == nil && time.Since(fi.ModTime()) < 24*time.Hour {
		return
	}
	_ = os.WriteFile(stamp, nil, 0o666)
	old := time.Now().Add(-7 * 24 * time.Hour)
	subs, _ := os.ReadDir(dir)
	for _, sub := range subs {
		if !sub.IsDir() {
			continue
		}
		entries, _ := os.ReadDir(filepath.Join(dir, sub.Name()))
		for _, e := range entries {
			if fi, err := e.Info(); err == nil && fi.ModTime().Before(old) {
				os.Remove(filepath.Join(dir, sub.Name(), e.Name()))
			}
		}
	}
}
