// Package sealed is an operator shell whose commands implement an interface that takes no
// ctx: the roots its commands make are the interface's decision, not reported one command at a
// time. Roots where a ctx is in sight, or in code that is not only the commands', still are.
package sealed

import (
	"context"
	"io"
	"net/http"
	"os"

	"example.com/gen/catalogpb"
	"missingdeadline/sealed/lifetime"
)

// command is one verb of the shell; Do takes no ctx.
type command interface {
	Name() string
	Do(args []string, env *Env, w io.Writer) error
}

// Env is what every command is given. The pool's lifetime ctx is unexported in its package:
// no ctx in sight.
type Env struct {
	Client catalogpb.CatalogClient
	Pool   *lifetime.Pool
}

// run is the shell's loop: it has no ctx to give a command.
func run(cmds []command, env *Env, line []string) error {
	for _, c := range cmds {
		if c.Name() == line[0] {
			return c.Do(line[1:], env, os.Stdout)
		}
	}
	return nil
}

type getCmd struct{}

func (getCmd) Name() string { return "get" }

func (getCmd) Do(args []string, env *Env, w io.Writer) error {
	_, err := env.Client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: args[0]}) // the interface's decision: not reported
	if err != nil {
		return err
	}
	return lookupAll(env, args[1:])
}

type scanCmd struct{}

func (*scanCmd) Name() string { return "scan" }

func (*scanCmd) Do(args []string, env *Env, w io.Writer) error {
	for _, id := range args {
		func() {
			_, _ = env.Client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // in a literal of a command: not reported
		}()
	}
	return lookupAll(env, args)
}

// lookupAll is only called by commands: its roots are theirs.
func lookupAll(env *Env, ids []string) error {
	for _, id := range ids {
		if _, err := env.Client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}); err != nil { // only commands call it: not reported
			return err
		}
	}
	return nil
}

// shared is called by a command and by Refresh, which is no command: reported.
func shared(env *Env) error {
	_, err := env.Client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "s"}) // want `RPC CatalogClient\.GetItem has no deadline`
	return err
}

type refreshCmd struct{}

func (refreshCmd) Name() string { return "refresh" }

func (refreshCmd) Do(args []string, env *Env, w io.Writer) error { return shared(env) }

// Refresh is no command.
func Refresh(env *Env) error { return shared(env) }

// LookupOne is exported: callers out of sight may call it, so its root is its own decision.
func LookupOne(env *Env, id string) error {
	if _, err := env.Client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}); err != nil { // want `RPC CatalogClient\.GetItem has no deadline`
		return err
	}
	_, err := env.Client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id + "/parent"}) // want `RPC CatalogClient\.GetItem has no deadline`
	return err
}

// valued is used as a value: who calls it is out of sight.
func valued(env *Env) error {
	_, err := env.Client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "v"}) // want `RPC CatalogClient\.GetItem has no deadline`
	return err
}

type valueCmd struct{}

func (valueCmd) Name() string { return "value" }

func (valueCmd) Do(args []string, env *Env, w io.Writer) error {
	return apply(valued, env)
}

// apply is only called by a command; the function it is given is not.
func apply(f func(*Env) error, env *Env) error { return f(env) }

// ctxEnv carries a ctx: a command given one could use it.
type ctxEnv struct {
	Ctx    context.Context
	Client catalogpb.CatalogClient
}

type withCtx interface {
	Do(args []string, env *ctxEnv) error
}

type ctxCmd struct{}

func (ctxCmd) Do(args []string, env *ctxEnv) error {
	_, err := env.Client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "c"}) // want `RPC CatalogClient\.GetItem has no deadline`
	return err
}

// halfCmd has Do but no Name: it implements no interface.
type halfCmd struct{}

func (halfCmd) Do(args []string, env *Env, w io.Writer) error {
	_, err := env.Client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "h"}) // want `RPC CatalogClient\.GetItem has no deadline`
	return err
}

// remoteReader implements io.Reader, whose Read takes no ctx: an interface of another
// package, whose calls are out of sight: reported.
type remoteReader struct {
	client catalogpb.CatalogClient
}

func (r *remoteReader) Read(p []byte) (int, error) {
	item, err := r.client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "r"}) // want `RPC CatalogClient\.GetItem has no deadline`
	if err != nil {
		return 0, err
	}
	return copy(p, item.GetName()), io.EOF
}

// policyStore's Put takes no ctx, and a handler calls it: the request's deadline is lost in
// the interface, and its implementations' roots are reported.
type policyStore interface {
	Put(name string) error
}

type filerStore struct {
	client catalogpb.CatalogClient
}

func (f *filerStore) Put(name string) error {
	_, err := f.client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: name}) // want `RPC CatalogClient\.GetItem has no deadline`
	return err
}

func putHandler(store policyStore) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := store.Put(r.URL.Path); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	}
}

// fileSystem's Read is given a cancel channel, a cancellation in sight.
type fileSystem interface {
	Read(cancel <-chan struct{}, name string) ([]byte, error)
}

type remoteFS struct {
	client catalogpb.CatalogClient
}

func (fs *remoteFS) Read(cancel <-chan struct{}, name string) ([]byte, error) {
	item, err := fs.client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: name}) // want `RPC CatalogClient\.GetItem has no deadline`
	return []byte(item.GetName()), err
}

func serve(fs fileSystem, cancel <-chan struct{}) {
	_, _ = fs.Read(cancel, "x")
}

var (
	_ command   = getCmd{}
	_ command   = (*scanCmd)(nil)
	_ command   = refreshCmd{}
	_ command   = valueCmd{}
	_ withCtx   = ctxCmd{}
	_ io.Reader = (*remoteReader)(nil)
	_           = run
	_           = putHandler
	_           = serve
)
