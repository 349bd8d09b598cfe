package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// corpusModules are the third-party modules the corpus module requires; their
// versions are those the deadlinelint module, or its examples module, pins.
var corpusModules = []string{
	"google.golang.org/grpc",
	"golang.org/x/tools",
	"google.golang.org/protobuf",
}

// A corpus is a named set of packages every tool analyses.
type corpus struct {
	name     string
	dir      string   // where the tools run
	patterns []string // what every tool is given on its command line
	count    int      // number of packages the patterns match
	deps     int      // number of packages in their import closure
	owned    bool     // analysed as the user's own code (copied out of the module cache)
	leafFile string   // owned: a file of a package no other package of the corpus imports
}

// setupCorpusModule writes a module in dir that requires corpusModules at
// the versions of the module rooted at root, and resolves its go.sum from
// the module cache (or the module proxy) so that every tool can load the
// packages read-only.
func setupCorpusModule(ctx context.Context, root, dir string) error {
	var req strings.Builder
	for _, mod := range corpusModules {
		// x/tools is the linter's own dependency; gRPC and protobuf are the examples'.
		v, err := goOutput(ctx, root, nil, "list", "-m", "-f", "{{.Version}}", mod)
		if err != nil {
			v, err = goOutput(ctx, filepath.Join(root, "examples"), nil, "list", "-m", "-f", "{{.Version}}", mod)
		}
		if err != nil {
			return fmt.Errorf("version of %s in %s or its examples: %v", mod, root, err)
		}
		fmt.Fprintf(&req, "\t%s %s\n", mod, strings.TrimSpace(v))
	}
	gomod := fmt.Sprintf("module deadlinelint.bench/corpus\n\ngo 1.26.0\n\nrequire (\n%s)\n", req.String())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	patterns := []string{"std"}
	for _, mod := range corpusModules {
		patterns = append(patterns, mod+"/...")
	}
	args := append([]string{"list", "-mod=mod", "-e", "-deps"}, patterns...)
	if _, err := goOutput(ctx, dir, nil, args...); err != nil {
		return fmt.Errorf("resolving the corpus module: %v", err)
	}
	return nil
}

// resolveCorpus counts the packages of patterns in dir and their import
// closure. Packages that do not load cleanly are dropped: if any is, the
// corpus lists the clean packages explicitly instead of the patterns.
func resolveCorpus(ctx context.Context, dir, name string, patterns []string) (corpus, error) {
	format := `{{if or .Error .DepsErrors}}BAD {{end}}{{.ImportPath}}`
	out, err := goOutput(ctx, dir, nil, append([]string{"list", "-e", "-f", format}, patterns...)...)
	if err != nil {
		return corpus{}, err
	}
	var clean []string
	bad := 0
	for _, line := range strings.Fields(strings.ReplaceAll(out, "BAD ", "BAD:")) {
		if strings.HasPrefix(line, "BAD:") {
			bad++
			continue
		}
		clean = append(clean, line)
	}
	c := corpus{name: name, dir: dir, patterns: patterns, count: len(clean)}
	if bad > 0 {
		fmt.Fprintf(os.Stderr, "bench: %s: %d packages do not load cleanly; using the %d that do\n", name, bad, len(clean))
		c.patterns = clean
	}
	deps, err := goOutput(ctx, dir, nil, append([]string{"list", "-deps"}, c.patterns...)...)
	if err != nil {
		return corpus{}, err
	}
	c.deps = len(strings.Fields(deps))
	return c, nil
}

// leafFile returns a file of a package of the corpus that no other package of it imports — the
// edit of row (c2) then re-analyses that package alone — choosing, of those, the one importing
// the most packages of the corpus.
func leafFile(ctx context.Context, c corpus) (string, error) {
	out, err := goOutput(ctx, c.dir, nil, append([]string{"list", "-f", `{{.ImportPath}}|{{.Dir}}|{{join .GoFiles ","}}|{{join .Imports ","}}`}, c.patterns...)...)
	if err != nil {
		return "", err
	}
	type pkg struct {
		dir, file string
		imports   []string
	}
	pkgs := map[string]pkg{}
	imported := map[string]bool{}
	var order []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 4 || f[2] == "" {
			continue
		}
		p := pkg{dir: f[1], file: strings.Split(f[2], ",")[0], imports: strings.Split(f[3], ",")}
		pkgs[f[0]] = p
		order = append(order, f[0])
		for _, imp := range p.imports {
			imported[imp] = true
		}
	}
	best, most := "", -1
	for _, path := range order {
		if imported[path] {
			continue
		}
		n := 0
		for _, imp := range pkgs[path].imports {
			if _, ok := pkgs[imp]; ok {
				n++
			}
		}
		if n > most {
			best, most = path, n
		}
	}
	if best == "" {
		return "", fmt.Errorf("%s: no package that the others do not import", c.name)
	}
	return filepath.Join(pkgs[best].dir, pkgs[best].file), nil
}

// copyModule copies the source of mod, at the version the examples module of the checkout at
// root requires (gRPC and protobuf are the examples' dependencies, not the linter's), out of
// the module cache into dst and completes its go.sum. Copied out of the cache, the
// module is the main module of every tool run in dst: deadlinelint analyses it as the user's
// own code, as it does not analyse dependency modules, and a benchmark of those would measure
// nothing but loading.
func copyModule(ctx context.Context, root, dst, mod string) error {
	examples := filepath.Join(root, "examples")
	v, err := goOutput(ctx, examples, nil, "list", "-m", "-f", "{{.Version}}", mod)
	if err != nil {
		return fmt.Errorf("version of %s in %s: %v", mod, examples, err)
	}
	out, err := goOutput(ctx, examples, nil, "mod", "download", "-json", mod+"@"+strings.TrimSpace(v))
	if err != nil {
		return err
	}
	var dl struct{ Dir string }
	if err := json.Unmarshal([]byte(out), &dl); err != nil || dl.Dir == "" {
		return fmt.Errorf("go mod download %s: no directory (%v)", mod, err)
	}
	if err := os.CopyFS(dst, os.DirFS(dl.Dir)); err != nil {
		return err
	}
	_, err = goOutput(ctx, dst, []string{"GOWORK=off"}, "list", "-mod=mod", "-e", "-deps", "./...")
	return err
}

// workspaceModules are copied into one go.work workspace for the scaling run.
var workspaceModules = []string{"google.golang.org/grpc", "golang.org/x/tools", "google.golang.org/protobuf"}

// setupWorkspace copies workspaceModules into dir, each in a directory of its own, and makes
// dir a go.work workspace of them.
func setupWorkspace(ctx context.Context, root, dir string) error {
	use := []string{"work", "init"}
	for _, mod := range workspaceModules {
		sub := filepath.Join(dir, filepath.Base(mod))
		if err := copyModule(ctx, root, sub, mod); err != nil {
			return err
		}
		use = append(use, "./"+filepath.Base(mod))
	}
	_, err := goOutput(ctx, dir, nil, use...)
	return err
}

// scalingCorpora returns package sets of the given sizes: prefixes of the dependency order
// (every package after its imports) of the packages of the workspace modules, which are all
// the user's own code there. A prefix's closure adds the standard library and the other
// modules' packages it imports; deps counts everything a tool loads.
func scalingCorpora(ctx context.Context, dir string, sizes []int) ([]corpus, error) {
	patterns := []string{}
	own := make(map[string]bool)
	for _, mod := range workspaceModules {
		patterns = append(patterns, "./"+filepath.Base(mod)+"/...")
		own[mod] = true
	}
	format := `{{.ImportPath}} {{with .Module}}{{.Path}}{{else}}std{{end}}`
	out, err := goOutput(ctx, dir, nil, append([]string{"list", "-deps", "-f", format}, patterns...)...)
	if err != nil {
		return nil, err
	}
	var order []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		path, mod, _ := strings.Cut(line, " ")
		if own[mod] {
			order = append(order, path)
		}
	}
	var cs []corpus
	for _, n := range sizes {
		n = min(n, len(order))
		deps, err := goOutput(ctx, dir, nil, append([]string{"list", "-deps"}, order[:n]...)...)
		if err != nil {
			return nil, err
		}
		cs = append(cs, corpus{
			name:     fmt.Sprintf("first %d", n),
			dir:      dir,
			patterns: order[:n],
			count:    n,
			deps:     len(strings.Fields(deps)),
			owned:    true,
		})
	}
	return cs, nil
}

// goOutput runs the go command in dir and returns its standard output.
func goOutput(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, lastLines(stderr.String(), 10))
	}
	return string(out), nil
}

// lastLines returns at most n trailing lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
