// Package index keeps shards, loading one with a root of its own only when asked to: GetShard
// passes ensureInit=false, so the load is never reached through it; GetOrInit passes true.
package index

import (
	"context"
	"os/exec"
)

type Shard struct{ name string }

type Index struct{ shards map[string]*Shard }

// GetShard returns a loaded shard, or nil: it never loads one.
func (i *Index) GetShard(ctx context.Context, name string) *Shard {
	return i.getOpt(ctx, name, false)
}

// GetOrInit loads the shard when it is not loaded yet.
func (i *Index) GetOrInit(ctx context.Context, name string) *Shard { // want GetOrInit:"drops ctx: index.Index.getOpt → index.Index.load: context.Background\\(\\)"
	return i.getOpt(ctx, name, true)
}

// GetOpt leaves the choice to its caller.
func (i *Index) GetOpt(ctx context.Context, name string, ensureInit bool) *Shard { // want GetOpt:"drops ctx: .*context.Background\\(\\) at .*index.go:\\d+ if param 3 is true"
	return i.getOpt(ctx, name, ensureInit)
}

// Find loads the shard only when ensureInit is false: the test the other way round.
func (i *Index) Find(ctx context.Context, name string, cached bool) *Shard { // want Find:"drops ctx: .* if param 3 is false"
	if cached {
		return i.shards[name]
	}
	return i.load(name)
}

func (i *Index) getOpt(ctx context.Context, name string, ensureInit bool) *Shard { // want getOpt:"drops ctx: .* if param 3 is true"
	if s := i.shards[name]; s != nil {
		return s
	}
	if !ensureInit {
		return nil
	}
	return i.load(name)
}

// load reads the shard from disk with a root: no ctx to pass.
func (i *Index) load(name string) *Shard { // want load:"drops ctx: context.Background"
	_ = exec.CommandContext(context.Background(), "load-shard", name).Run()
	s := &Shard{name: name}
	i.shards[name] = s
	return s
}

// Purpose says why a window is advanced: only a periodic advance saves it.
type Purpose int

const (
	Periodic Purpose = iota
	Overflow
)

// Advance saves the window, with a root, only for a periodic advance.
func (i *Index) Advance(ctx context.Context, purpose Purpose) { // want Advance:"drops ctx: .* if param 2 is 0"
	if purpose != Periodic {
		return
	}
	i.save()
}

// Touch saves unless told the entry is "cached": the test the other way round, on a string.
func (i *Index) Touch(ctx context.Context, mode string) { // want Touch:"drops ctx: .* if param 2 is not \"cached\""
	if mode == "cached" {
		return
	}
	i.mark()
}

// mark records a touch with a root: no ctx to pass.
func (i *Index) mark() { // want mark:"drops ctx: context.Background"
	_ = exec.CommandContext(context.Background(), "mark-entry").Run()
}

// save writes the window with a root: no ctx to pass.
func (i *Index) save() { // want save:"drops ctx: context.Background"
	_ = exec.CommandContext(context.Background(), "save-window").Run()
}

// SetReadOnly redoes the prepared work, with a root, only when turning read-only off, and
// then only on a store that was super read-only: a conjunction on the parameter.
func (i *Index) SetReadOnly(ctx context.Context, rdonly bool) error { // want SetReadOnly:"drops ctx: .* if param 2 is false"
	if !rdonly && len(i.shards) > 0 {
		return i.redo()
	}
	return exec.CommandContext(ctx, "set-read-only").Run()
}

// redo replays the prepared work with a root: no ctx to pass.
func (i *Index) redo() error { // want redo:"drops ctx: context.Background"
	return exec.CommandContext(context.Background(), "redo").Run()
}
