package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The standalone command runs through go vet, whose cache keys each package's findings on its
// content and its dependencies' facts. These tests change a dependency's body in a way that
// changes its fact, and check that the dependent's findings follow — and that an unchanged
// module gives the same findings from the cache.

// cacheModule writes a module whose handler calls a helper in another package: with the
// helper's body given, it works with a root context (a dropsCtx fact) or with its ctx.
func cacheModule(t *testing.T, helperBody string) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, content string) { writeFile(t, dir, name, content) }
	write("go.mod", "module example.com/cache\n\ngo 1.24\n")
	write("store/store.go", `package store

import "context"

// Load reads a record.
func Load(ctx context.Context, id string) error {
	`+helperBody+`
}

func fetch(ctx context.Context, id string) error { return ctx.Err() }

// Ping checks the store is there.
func Ping(ctx context.Context) error { return fetch(ctx, "") }
`)
	write("api/api.go", `package api

import (
	"context"

	"example.com/cache/store"
)

// Get handles one request.
//
//deadlinelint:scope
func Get(ctx context.Context, id string) error {
	return store.Load(ctx, id)
}
`)
	return dir
}

func setHelper(t *testing.T, dir, body string) {
	t.Helper()
	path := filepath.Join(dir, "store", "store.go")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "\treturn fetch(") {
			lines[i] = "\t" + body
		}
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

const (
	dropping = "return fetch(context.Background(), id)"
	passing  = "return fetch(ctx, id)"
)

// cachingRoutes are the routes that cache each package's findings, by the environment variable
// that chooses each even with a cold build cache, and what -debug says when it is taken.
var cachingRoutes = []struct{ env, says string }{
	{"DEADLINELINT_VET", "running go vet"},
	{"DEADLINELINT_PACKAGES", "package route: listed"},
}

func TestCacheFollowsDependencyFacts(t *testing.T) {
	for _, route := range cachingRoutes {
		t.Run(route.env, func(t *testing.T) {
			t.Setenv(route.env, "1") // even if the build cache is cold
			// The route's cache, not the run cache or the memo, is what is asked here: go vet's
			// lives in the build cache, the package route's in pkgs, which each run keeps.
			cache := t.TempDir()
			t.Setenv("DEADLINELINT_CACHE", cache)
			dir := cacheModule(t, dropping)
			run := func(t *testing.T, says string) result {
				t.Helper()
				entries, err := os.ReadDir(cache)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range entries {
					if e.Name() != "pkgs" {
						if err := os.RemoveAll(filepath.Join(cache, e.Name())); err != nil {
							t.Fatal(err)
						}
					}
				}
				res := deadlinelint(t, dir, "-debug", "./...")
				if !strings.Contains(res.stderr, route.says) {
					t.Fatalf("the standalone command did not take the route:\n%s", res.stderr)
				}
				if route.env == "DEADLINELINT_PACKAGES" && !strings.Contains(res.stderr, says) {
					t.Fatalf("want %q in\n%s", says, res.stderr)
				}
				return res
			}
			want := "api/api.go:13:9: store.Load, called in request scope Get, works with context.Background(); pass ctx down (ctxbackground)"

			first := run(t, "2 packages analysed, 0 from the package cache")
			first.wantCode(t, 1)
			if !strings.Contains(first.stdout, want) {
				t.Fatalf("first run: want %q in\n%s", want, first.stdout)
			}
			again := run(t, "0 packages analysed, 2 from the package cache")
			if again.stdout != first.stdout || again.code != first.code {
				t.Fatalf("an unchanged module gave other findings from the cache:\n%s\nthen\n%s", first.stdout, again.stdout)
			}

			// The helper now passes its ctx on: its fact changes, and so must the handler's findings,
			// although api/api.go did not change.
			setHelper(t, dir, passing)
			fixed := run(t, "2 packages analysed, 0 from the package cache")
			fixed.wantCode(t, 0)
			if strings.Contains(fixed.stdout, "ctxbackground") {
				t.Fatalf("after the helper stopped dropping the ctx, the cache still reports:\n%s", fixed.stdout)
			}

			// And back: the cached findings of the first state are right again.
			setHelper(t, dir, dropping)
			back := run(t, "0 packages analysed, 2 from the package cache")
			back.wantCode(t, 1)
			if back.stdout != first.stdout {
				t.Fatalf("back to the first body: got\n%s\nwant\n%s", back.stdout, first.stdout)
			}
		})
	}
}

// The in-process driver, the go vet route and the package route give the same findings,
// relative paths and end positions included, with tests and without.
func TestInProcessAndVetRouteAgree(t *testing.T) {
	dir := fixture(t)
	t.Setenv("DEADLINELINT_CACHE", "off") // every route analyses
	for _, tests := range []string{"-test=true", "-test=false"} {
		t.Setenv("DEADLINELINT_INPROCESS", "1")
		inProcess := deadlinelint(t, dir, tests, "-format=json", "./consumer")
		t.Setenv("DEADLINELINT_INPROCESS", "")
		for _, route := range cachingRoutes {
			t.Setenv(route.env, "1")
			res := deadlinelint(t, dir, tests, "-debug", "-format=json", "./consumer")
			t.Setenv(route.env, "")
			if !strings.Contains(res.stderr, route.says) {
				t.Fatalf("%s=1 did not take its route:\n%s", route.env, res.stderr)
			}
			if res.stdout != inProcess.stdout {
				t.Fatalf("%s %s:\n%s\nin process:\n%s", route.env, tests, res.stdout, inProcess.stdout)
			}
		}
	}
}

// go vet caches a package it analysed only for its facts, as a dependency of the package named,
// under the same key as a full analysis, and replays that output to a later run that names it. A run on the whole module after a run on one of its
// commands must still report the dependency's findings, not replay that empty result.
func TestDependencyFirstThenAll(t *testing.T) {
	for _, route := range cachingRoutes {
		t.Run(route.env, func(t *testing.T) {
			t.Setenv(route.env, "1")
			t.Setenv("DEADLINELINT_CACHE", t.TempDir())
			dependencyFirstThenAll(t)
		})
	}
}

func dependencyFirstThenAll(t *testing.T) {
	dir := cacheModule(t, dropping)
	if err := os.MkdirAll(filepath.Join(dir, "cmd", "app"), 0o755); err != nil {
		t.Fatal(err)
	}
	main := "package main\n\nimport (\n\t\"context\"\n\n\t\"example.com/cache/api\"\n)\n\nfunc main() { _ = api.Get(context.TODO(), \"1\") }\n"
	if err := os.WriteFile(filepath.Join(dir, "cmd", "app", "main.go"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "api/api.go:13:9: store.Load, called in request scope Get"
	cmdOnly := deadlinelint(t, dir, "./cmd/app")
	cmdOnly.wantCode(t, 0)
	all := deadlinelint(t, dir, "./...")
	all.wantCode(t, 1)
	if !strings.Contains(all.stdout, want) {
		t.Fatalf("after a run on ./cmd/app, ./... lost the finding of the package it imports: want %q in\n%s", want, all.stdout)
	}
	// And the other way: go vet replays its cache for the imported packages too, but a run on
	// ./cmd/app reports ./cmd/app only.
	again := deadlinelint(t, dir, "./cmd/app")
	again.wantCode(t, 0)
	if again.stdout != "" {
		t.Fatalf("a run on ./cmd/app reported packages it was not asked for:\n%s", again.stdout)
	}
}

// With a build cache that lacks the compiled packages the cached routes need, the command
// analyses in the process rather than compile everything first, and leaves what it checked in
// the package cache with export data of its own: the next run after an edit of a body takes the
// package route without compiling. When it must list again (a file added), it ran here before:
// runs are being repeated, and it takes the package route, which compiles once.
func TestColdBuildCacheAnalysesInProcess(t *testing.T) {
	dir := cacheModule(t, dropping)
	t.Setenv("GOCACHE", t.TempDir())
	t.Setenv("DEADLINELINT_CACHE", t.TempDir())
	res := deadlinelint(t, dir, "-debug", "./...")
	res.wantCode(t, 1)
	if !strings.Contains(res.stderr, "analysing in the process: the build cache lacks") || !strings.Contains(res.stderr, "the package cache filled") {
		t.Fatalf("with an empty build cache the command did not analyse in the process and fill the package cache:\n%s", res.stderr)
	}
	if !strings.Contains(res.stdout, "api/api.go:13:9: store.Load, called in request scope Get") {
		t.Fatalf("finding missing:\n%s", res.stdout)
	}
	appendTo(t, filepath.Join(dir, "api", "api.go"), "// Edited.\n")
	edited := deadlinelint(t, dir, "-debug", "./...")
	if !strings.Contains(edited.stderr, "its listing still holds") || !strings.Contains(edited.stderr, "1 packages analysed, 1 from the package cache") || edited.stdout != res.stdout {
		t.Fatalf("an edit after a run in the process:\n%s%s", edited.stdout, edited.stderr)
	}
	writeFile(t, dir, "store/more.go", "package store\n")
	again := deadlinelint(t, dir, "-debug", "./...")
	if !strings.Contains(again.stderr, "the command ran here before: on the package route") || again.stdout != res.stdout {
		t.Fatalf("a repeated run on a cold build cache:\n%s%s", again.stdout, again.stderr)
	}
}

// A package whose test file does not parse: go vet fails on it, and the command analyses in
// the process, which names the file and still reports every other package — the same output
// as the in-process route's. (The listing that chooses the route leaves test files out.)
func TestBrokenTestFileOnVetRoute(t *testing.T) {
	dir := fixture(t)
	broken := "package consumer\n\nfunc TestBroken( {\n"
	if err := os.WriteFile(filepath.Join(dir, "consumer", "broken_test.go"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DEADLINELINT_VET", "1")
	vetRoute := deadlinelint(t, dir, "./...")
	vetRoute.wantCode(t, 2)
	if !strings.Contains(vetRoute.stderr, "consumer/broken_test.go:3") || strings.Contains(vetRoute.stderr, "goroutine") {
		t.Fatalf("stderr does not name the broken test file:\n%s", vetRoute.stderr)
	}
	t.Setenv("DEADLINELINT_INPROCESS", "1")
	inProcess := deadlinelint(t, dir, "./...")
	if vetRoute.stdout != inProcess.stdout || vetRoute.stderr != inProcess.stderr {
		t.Fatalf("go vet route:\n%s%s\nin process:\n%s%s", vetRoute.stdout, vetRoute.stderr, inProcess.stdout, inProcess.stderr)
	}
}

// go vet analyses a package again for another package's tests ("api [store.test]") and beside
// its own test build ("store [store.test]"); with -test=false these are the same analysis, and
// the processes of a run copy it rather than make it again — with the findings of the route
// that makes every analysis itself.
func TestTwinsShareOneAnalysis(t *testing.T) {
	dir := cacheModule(t, dropping)
	for name, content := range map[string]string{
		"store/store_internal_test.go": "package store\n\nimport \"testing\"\n\nfunc TestFetch(t *testing.T) { _ = fetch(t.Context(), \"1\") }\n",
		"store/store_test.go":          "package store_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/cache/api\"\n)\n\nfunc TestGet(t *testing.T) { _ = api.Get(t.Context(), \"1\") }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("DEADLINELINT_VET", "1")
	vetRoute := deadlinelint(t, dir, "-debug", "-test=false", "./...")
	vetRoute.wantCode(t, 1)
	if !strings.Contains(vetRoute.stderr, "go vet: 2 analyses copied from an identical one") {
		t.Fatalf("want the two twins (store, api) copied:\n%s", vetRoute.stderr)
	}
	t.Setenv("DEADLINELINT_INPROCESS", "1")
	inProcess := deadlinelint(t, dir, "-test=false", "./...")
	if vetRoute.stdout != inProcess.stdout || !strings.Contains(vetRoute.stdout, "api/api.go:13:9:") {
		t.Fatalf("go vet route:\n%s\nin process:\n%s", vetRoute.stdout, inProcess.stdout)
	}
}

// With a cold build cache the command analyses in the process — unless that would take more
// memory than allowed (DEADLINELINT_MEMORY, in MiB): then on the package route, whose listing
// compiles first, which holds one package at a time per CPU, and caches the findings for the
// next run.
func TestColdBuildCacheOverMemoryBoundGoesByPackage(t *testing.T) {
	dir := cacheModule(t, dropping)
	t.Setenv("GOCACHE", t.TempDir())
	t.Setenv("DEADLINELINT_CACHE", t.TempDir())
	t.Setenv("DEADLINELINT_MEMORY", "1")
	res := deadlinelint(t, dir, "-debug", "./...")
	res.wantCode(t, 1)
	if !strings.Contains(res.stderr, "take about") || !strings.Contains(res.stderr, "package route: listed") {
		t.Fatalf("over the memory bound, the command did not take the package route:\n%s", res.stderr)
	}
	want := "api/api.go:13:9: store.Load, called in request scope Get"
	if !strings.Contains(res.stdout, want) {
		t.Fatalf("want %q in\n%s", want, res.stdout)
	}
	t.Setenv("DEADLINELINT_MEMORY", "")
	appendTo(t, filepath.Join(dir, "api", "api.go"), "// Edited: the run cache misses.\n")
	again := deadlinelint(t, dir, "-debug", "./...")
	if !strings.Contains(again.stderr, "1 packages analysed, 1 from the package cache") || again.stdout != res.stdout {
		t.Fatalf("the second run did not find the build cache warm and the package cache full, or reported otherwise:\n%s%s", again.stdout, again.stderr)
	}
}

// The run cache answers an unchanged run — on either route — with the findings it would have
// printed, and misses on any change to what the run loads: the packages named, a dependency,
// a dependency only their tests import, the flags.
func TestRunCache(t *testing.T) {
	t.Setenv("DEADLINELINT_CACHE", t.TempDir())
	dir := cacheModule(t, dropping)
	write := func(name, content string) { writeFile(t, dir, name, content) }
	// A package only api's tests import: a request scope in the test drops its ctx through it.
	fixture := func(body string) {
		write("fixture/fixture.go", "package fixture\n\nimport \"context\"\n\n// Load loads a fixture.\nfunc Load(ctx context.Context) error {\n\t"+body+"\n}\n\nfunc fetch(ctx context.Context) error { return ctx.Err() }\n")
	}
	fixture("return fetch(context.Background())")
	write("api/api_test.go", "package api\n\nimport (\n\t\"context\"\n\n\t\"example.com/cache/fixture\"\n)\n\n//deadlinelint:scope\nfunc handle(ctx context.Context) error { return fixture.Load(ctx) }\n")
	testFinding := "api/api_test.go:10:49: fixture.Load, called in request scope handle"

	for _, route := range []string{"DEADLINELINT_VET", "DEADLINELINT_PACKAGES", "DEADLINELINT_MEMORY"} {
		t.Run(route, func(t *testing.T) {
			t.Setenv(route, map[string]string{"DEADLINELINT_VET": "1", "DEADLINELINT_PACKAGES": "1", "DEADLINELINT_MEMORY": "0"}[route])
			t.Setenv("GOCACHE", t.TempDir()) // cold: in the process unless a route is chosen
			fixture("return fetch(context.Background())")
			first := deadlinelint(t, dir, "-debug", "./api/...")
			if strings.Contains(first.stderr, "from the run cache") || !strings.Contains(first.stdout, testFinding) {
				t.Fatalf("first run:\n%s%s", first.stdout, first.stderr)
			}
			again := deadlinelint(t, dir, "-debug", "./api/...")
			if !strings.Contains(again.stderr, "from the run cache") || again.stdout != first.stdout || again.code != first.code {
				t.Fatalf("an unchanged run was not answered from the run cache as the first:\n%s%s", again.stdout, again.stderr)
			}
			other := deadlinelint(t, dir, "-debug", "-ctxless=false", "./api/...")
			if strings.Contains(other.stderr, "from the run cache") {
				t.Fatalf("other flags were answered from the run cache:\n%s", other.stderr)
			}
			fixture("return fetch(ctx)")
			fixed := deadlinelint(t, dir, "-debug", "./api/...")
			if strings.Contains(fixed.stderr, "from the run cache") || strings.Contains(fixed.stdout, testFinding) {
				t.Fatalf("after the test-only dependency stopped dropping its ctx:\n%s%s", fixed.stdout, fixed.stderr)
			}
		})
	}
}

// A file that changes while the run analyses (saved, checked out) leaves findings of other
// content than the key's: they are not kept. Here a go command that edits the helper as go
// vet starts stands in for the editor.
func TestRunCacheKeepsNothingChangedDuringTheRun(t *testing.T) {
	// The go command the route runs while it analyses: go vet, or the package route's listing
	// with export data. The files are old: the run's own check of the files, not their recent
	// time stamps, must tell.
	for _, route := range []struct{ env, trigger string }{
		{"DEADLINELINT_VET", `[ "$1" = vet ]`},
		{"DEADLINELINT_PACKAGES", `echo "$*" | grep -q -- -export`},
	} {
		t.Run(route.env, func(t *testing.T) {
			t.Setenv("DEADLINELINT_CACHE", t.TempDir())
			t.Setenv(route.env, "1")
			dir := cacheModule(t, dropping)
			ageFiles(t, dir)
			realGo, err := exec.LookPath("go")
			if err != nil {
				t.Fatal(err)
			}
			bin := t.TempDir()
			store := filepath.Join(dir, "store", "store.go")
			wrapper := "#!/bin/sh\nif " + route.trigger + "; then sed -i 's/fetch(context.Background(), id)/fetch(ctx, id)/' " + store + "; fi\nexec " + realGo + " \"$@\"\n"
			if err := os.WriteFile(filepath.Join(bin, "go"), []byte(wrapper), 0o755); err != nil {
				t.Fatal(err)
			}
			path := os.Getenv("PATH")
			t.Setenv("PATH", bin+string(os.PathListSeparator)+path)
			during := deadlinelint(t, dir, "-debug", "./...")
			if !strings.Contains(during.stderr, "not kept in the run cache") {
				t.Fatalf("a run during which a file changed was kept:\n%s", during.stderr)
			}
			t.Setenv("PATH", path)
			setHelper(t, dir, dropping)
			after := deadlinelint(t, dir, "-debug", "./...")
			after.wantCode(t, 1)
			if strings.Contains(after.stderr, "from the run cache") || !strings.Contains(after.stdout, "api/api.go:13:9:") {
				t.Fatalf("back to the content the key was made of:\n%s%s", after.stdout, after.stderr)
			}
		})
	}
}

// With an overlay (an editor's unsaved buffers), files the listing does not show replace those
// it does: no run cache.
func TestRunCacheOffWithOverlay(t *testing.T) {
	t.Setenv("DEADLINELINT_CACHE", t.TempDir())
	dir := cacheModule(t, dropping)
	overlay := filepath.Join(t.TempDir(), "overlay.json")
	if err := os.WriteFile(overlay, []byte(`{"Replace":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "-debug", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod -overlay="+overlay)
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "no run cache: GOFLAGS has -overlay") {
		t.Fatalf("an overlay did not turn the run cache off:\n%s", out)
	}
}

// ageFiles sets the modification time of every file under dir to an hour ago: the run memo
// trusts only time stamps older than the run (a file saved within the file system's clock
// granularity of the run may change again unseen).
func ageFiles(t *testing.T, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(path, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// appendTo appends text to the file.
func appendTo(t *testing.T, path, text string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, text...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeFile writes content to the file name under dir, making its directory.
func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// editFile writes content to the file under dir, with a time stamp of its own in the past.
func editFile(t *testing.T, dir, name, content string, age time.Duration) {
	t.Helper()
	writeFile(t, dir, name, content)
	when := time.Now().Add(-age)
	if err := os.Chtimes(filepath.Join(dir, name), when, when); err != nil {
		t.Fatal(err)
	}
}

// The run memo answers an unchanged run without listing packages, and after an edit of Go
// bodies only analyses the changed packages against the last listing — but lists again when a
// package that another imports changed (its export data is older), when a file is added, and
// when an import changes; each time with the findings a run without the memo gives.
func TestRunMemo(t *testing.T) {
	t.Setenv("DEADLINELINT_CACHE", t.TempDir())
	t.Setenv("DEADLINELINT_PACKAGES", "1")
	dir := cacheModule(t, dropping)
	ageFiles(t, dir)
	fresh := func(t *testing.T) result {
		t.Helper()
		cache := os.Getenv("DEADLINELINT_CACHE")
		t.Setenv("DEADLINELINT_CACHE", "off")
		defer t.Setenv("DEADLINELINT_CACHE", cache)
		return deadlinelint(t, dir, "./...")
	}
	step := func(t *testing.T, says string) result {
		t.Helper()
		res := deadlinelint(t, dir, "-debug", "./...")
		if !strings.Contains(res.stderr, says) {
			t.Fatalf("want %q in\n%s", says, res.stderr)
		}
		if want := fresh(t); res.stdout != want.stdout || res.code != want.code {
			t.Fatalf("with the memo:\n%s\nwithout:\n%s", res.stdout, want.stdout)
		}
		return res
	}
	step(t, "package route: listed")
	first := step(t, "no file changed since the last run")
	if !strings.Contains(first.stdout, "api/api.go:13:9:") || strings.Contains(first.stderr, "package route: listed") {
		t.Fatalf("unchanged run:\n%s%s", first.stdout, first.stderr)
	}

	// A body of the package no other imports: analysed again alone, against the listing.
	api, err := os.ReadFile(filepath.Join(dir, "api", "api.go"))
	if err != nil {
		t.Fatal(err)
	}
	editFile(t, dir, "api/api.go", strings.Replace(string(api), "return store.Load(ctx, id)", "return store.Ping(context.Background())", 1), 50*time.Minute)
	edited := step(t, "its listing still holds")
	if !strings.Contains(edited.stderr, "1 packages analysed") || !strings.Contains(edited.stdout, "api/api.go:13:20: context.Background()") {
		t.Fatalf("after an edit of api:\n%s%s", edited.stdout, edited.stderr)
	}
	editFile(t, dir, "api/api.go", string(api), 40*time.Minute)
	step(t, "findings from the run cache")

	// A body of the package api imports, which changes its fact: api needs store's export
	// data, which the listing names as it was: written again from store's files, without a
	// listing.
	data, err := os.ReadFile(filepath.Join(dir, "store", "store.go"))
	if err != nil {
		t.Fatal(err)
	}
	editFile(t, dir, "store/store.go", strings.Replace(string(data), dropping, passing, 1), 30*time.Minute)
	fixed := step(t, "its listing still holds")
	if !strings.Contains(fixed.stderr, "2 packages analysed") || strings.Contains(fixed.stdout, "ctxbackground") {
		t.Fatalf("after the helper stopped dropping its ctx:\n%s", fixed.stdout)
	}

	// A new file: listed again.
	editFile(t, dir, "store/extra.go", "package store\n\nimport \"context\"\n\n// Extra drops its ctx.\nfunc Extra(ctx context.Context) error { return fetch(context.TODO(), \"2\") }\n", 20*time.Minute)
	step(t, "package route: listed")

	// An import added to a file: listed again.
	editFile(t, dir, "store/extra.go", "package store\n\nimport (\n\t\"context\"\n\t\"errors\"\n)\n\n// Extra drops its ctx.\nfunc Extra(ctx context.Context) error { return errors.Join(fetch(context.TODO(), \"2\")) }\n", 10*time.Minute)
	step(t, "package route: listed")
}

// A file modified as the run begins may change again within the same time stamp, with the same
// size: the memo compares such a file by content.
func TestRunMemoRacyFiles(t *testing.T) {
	t.Setenv("DEADLINELINT_CACHE", t.TempDir())
	t.Setenv("DEADLINELINT_PACKAGES", "1")
	dir := cacheModule(t, dropping) // written now: every file is racy
	first := deadlinelint(t, dir, "-debug", "./...")
	first.wantCode(t, 1)
	again := deadlinelint(t, dir, "-debug", "./...")
	if !strings.Contains(again.stderr, "no file changed since the last run") || again.stdout != first.stdout {
		t.Fatalf("an unchanged run of fresh files was not answered by the memo:\n%s%s", again.stdout, again.stderr)
	}
	// The same size and time, another content: the helper passes its ctx now.
	store := filepath.Join(dir, "store", "store.go")
	fi, err := os.Stat(store)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(store)
	if err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat(" ", len("context.Background()")-len("ctx/**/"))
	same := strings.Replace(string(data), "fetch(context.Background(), id)", "fetch(ctx/*"+pad+"*/, id)", 1)
	if len(same) != len(data) || same == string(data) {
		t.Fatal("the edit must keep the size")
	}
	if err := os.WriteFile(store, []byte(same), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(store, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	edited := deadlinelint(t, dir, "-debug", "./...")
	edited.wantCode(t, 0)
	if strings.Contains(edited.stdout, "ctxbackground") || strings.Contains(edited.stderr, "no file changed") {
		t.Fatalf("a same-size edit within the same time stamp was not seen:\n%s%s", edited.stdout, edited.stderr)
	}
}

// A package that imports no context package can still reach a root through what it calls (a
// validation helper returning events.Legacy(msg), which writes on context.TODO()): every route
// follows it, as the in-process driver does, and reports the handler's call.
func TestRoutesFollowPackageWithoutContext(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) { writeFile(t, dir, name, content) }
	write("go.mod", "module example.com/plain\n\ngo 1.24\n")
	write("events/events.go", `package events

import "context"

func write(ctx context.Context, msg string) error { return ctx.Err() }

// Legacy writes an event for callers with no ctx at hand.
func Legacy(msg string) error { return write(context.TODO(), msg) }
`)
	write("parse/parse.go", `package parse

import "example.com/plain/events"

// Parse records an empty name.
func Parse(s string) error {
	if s == "" {
		return events.Legacy("empty")
	}
	return nil
}
`)
	write("api/api.go", `package api

import (
	"context"

	"example.com/plain/parse"
)

// Get answers a request.
//
//deadlinelint:scope
func Get(ctx context.Context, id string) error { return parse.Parse(id) }
`)
	t.Setenv("DEADLINELINT_CACHE", "off")
	want := "api/api.go:12:57: parse.Parse, called in request scope Get, works with context.TODO(); pass ctx down"
	t.Setenv("DEADLINELINT_INPROCESS", "1")
	inProcess := deadlinelint(t, dir, "./...")
	t.Setenv("DEADLINELINT_INPROCESS", "")
	if !strings.Contains(inProcess.stdout, want) {
		t.Fatalf("in process: want %q in\n%s%s", want, inProcess.stdout, inProcess.stderr)
	}
	for _, route := range cachingRoutes {
		t.Setenv(route.env, "1")
		res := deadlinelint(t, dir, "-debug", "./...")
		t.Setenv(route.env, "")
		if !strings.Contains(res.stderr, route.says) {
			t.Fatalf("%s=1 did not take its route:\n%s", route.env, res.stderr)
		}
		if res.stdout != inProcess.stdout {
			t.Fatalf("%s:\n%s\nin process:\n%s", route.env, res.stdout, inProcess.stdout)
		}
	}
}
