package vetmode

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// ShareEnv names the directory, made by the standalone command for one go vet run, through
// which the tool's processes share the outputs of identical analyses.
//
// go vet analyses a package more than once when it vets tests, which it always does: p with
// its test files ("p [p.test]"), the plain p its importers need, and every package q that
// imports p recompiled against p's test build for p's external tests ("q [p.test]"). With
// -test=false the tool leaves the test files out, and these become the same files analysed
// with the same facts of the same dependencies, again: about a quarter of the CPU time of a first run on grpc. go
// vet's own cache cannot tell, as it keys a package on its compiled dependencies, which
// differ.
//
// Each process of the run keys its package on everything the analysis reads that can differ
// between twins — the flags, the package's identity, its Go files' content and its
// dependencies' facts — but not on the dependencies' export data: a twin's differs only by
// declarations in _test.go files, which no code outside them can refer to (a method declared
// there can add to a type's method set, and a production chain ignores types and methods of
// test files anyway). The first process with a key analyses the package; the others wait for
// it to exit and copy its facts and its output. Sharing is only for the JSON output (-json),
// where a successful run always exits 0, and on systems with flock(2).
const ShareEnv = "DEADLINELINT_VETSHARE"

// SharedSuffix ends the name of a file left in the share directory for each analysis copied
// from a twin, for the standalone command to count (-debug).
const SharedSuffix = ".shared"

// shareConfig is what sharing reads of a package's vet config.
type shareConfig struct {
	ID, ImportPath, Dir, GoVersion string
	ModulePath, ModuleVersion      string
	GoFiles, NonGoFiles            []string
	IgnoredFiles                   []string
	ImportMap, PackageVetx         map[string]string
	VetxOnly                       bool
	VetxOutput, Stdout, FixArchive string
}

// share copies the outputs of an identical analysis another process of the run made, and
// reports whether it did. If none was made, it leaves a note that this process makes it (and
// holds the key's lock until it exits).
func share(args []string) bool {
	dir := os.Getenv(ShareEnv)
	if dir == "" || len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return false
	}
	if v, _ := flagValue(args, "json"); v != "true" {
		return false
	}
	data, err := os.ReadFile(args[len(args)-1])
	if err != nil {
		return false
	}
	var cfg shareConfig
	if json.Unmarshal(data, &cfg) != nil || cfg.VetxOutput == "" || cfg.Stdout == "" || cfg.FixArchive != "" {
		return false
	}
	key, err := shareKey(args[:len(args)-1], &cfg)
	if err != nil {
		return false
	}
	base := filepath.Join(dir, key)
	if !lockKey(base + ".lock") {
		return false
	}
	// The lock is held: any process that analysed this key before has exited.
	if src, err := os.ReadFile(base + ".src"); err == nil {
		var prev shareConfig
		if json.Unmarshal(src, &prev) == nil && copyOutputs(&prev, &cfg) {
			_ = os.WriteFile(fmt.Sprintf("%s.%d%s", base, os.Getpid(), SharedSuffix), []byte(cfg.ID), 0o666)
			return true
		}
	}
	// This process analyses the package; the lock is released when it exits.
	src, _ := json.Marshal(shareConfig{VetxOutput: cfg.VetxOutput, Stdout: cfg.Stdout})
	_ = os.WriteFile(base+".src", src, 0o666)
	return false
}

// shareKey hashes the flags and what the analysis of the package reads.
func shareKey(flags []string, cfg *shareConfig) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "flags %q\n", flags)
	fmt.Fprintf(h, "pkg %q %q %q %q %q %q %v\n", cfg.ID, cfg.ImportPath, cfg.Dir, cfg.GoVersion, cfg.ModulePath, cfg.ModuleVersion, cfg.VetxOnly)
	for _, group := range [][]string{cfg.GoFiles, cfg.NonGoFiles, cfg.IgnoredFiles} {
		fmt.Fprintf(h, "files %d\n", len(group))
		for _, name := range group {
			fmt.Fprintf(h, "%q\n", name)
			if err := HashFile(h, name); err != nil {
				return "", err
			}
		}
	}
	// The imports of its files, resolved, and their facts by content: the facts files of
	// twins differ, their content does not. (A test file's imports are in the config even
	// when -test=false left the file out; facts of indirect dependencies reach the analysis
	// only through its direct imports' facts.)
	imports, err := importsOf(cfg.GoFiles)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "imports %d\n", len(imports))
	for _, path := range imports {
		resolved := cfg.ImportMap[path]
		fmt.Fprintf(h, "%q %q\n", path, resolved)
		if vetx, ok := cfg.PackageVetx[resolved]; ok {
			if err := HashFile(h, vetx); err != nil {
				return "", err
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// importsOf returns the paths the files import, sorted, each once.
func importsOf(files []string) ([]string, error) {
	fset := token.NewFileSet()
	var paths []string
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			return nil, err
		}
		for _, spec := range f.Imports {
			path, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return nil, err
			}
			paths = append(paths, path)
		}
	}
	slices.Sort(paths)
	return slices.Compact(paths), nil
}

// HashFile writes the content and size of the file name to h (keys of shared analyses, and of
// the standalone command's run cache).
func HashFile(h io.Writer, name string) error {
	f, err := os.Open(name)
	if err != nil {
		fmt.Fprintf(h, "missing %q\n", name)
		return err
	}
	defer f.Close()
	n, err := io.Copy(h, f)
	fmt.Fprintf(h, "\n%d\n", n)
	return err
}

// copyOutputs copies the facts and output files of an earlier analysis to this one's, and
// reports whether both were there: a process that failed (it could not type-check the
// package, say) left no facts.
func copyOutputs(from, to *shareConfig) bool {
	vetx, err := os.ReadFile(from.VetxOutput)
	if err != nil {
		return false
	}
	stdout, err := os.ReadFile(from.Stdout)
	if err != nil || !to.VetxOnly && !json.Valid(stdout) {
		return false // a full analysis prints its JSON ({} for none) after its facts: cut short
	}
	return os.WriteFile(to.VetxOutput, vetx, 0o666) == nil && os.WriteFile(to.Stdout, stdout, 0o666) == nil
}
