// Package evil holds the shapes most likely to fool ctxless: look-alike APIs without a real
// twin, twins with the wrong signature, method values, closures, goroutines and interfaces.
package evil

import (
	"context"
	"database/sql"
	"log/slog"
	"net"
	"net/http"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

// cache has Query but no QueryContext: nothing to switch to.
type cache struct{}

func (cache) Query(key string) (string, bool) { return key, true }

// search has a QueryContext whose parameters are not Query's.
type search struct{}

func (search) Query(q string) ([]string, error) { return nil, nil }
func (search) QueryContext(ctx context.Context, q string, limit int) ([]string, error) {
	return nil, nil
}

// index has a QueryContext taking the ctx last, and a GetContext returning something else.
type index struct{}

func (index) Query(q string) error                             { return nil }
func (index) QueryContext(q string, ctx context.Context) error { return nil }
func (index) Get(id string) (string, error)                    { return id, nil }
func (index) GetContext(ctx context.Context, id string) error  { return nil }

// hooks has a func-typed field named like a twin: not a method.
type hooks struct {
	RunContext func(ctx context.Context, name string) error
}

func (hooks) Run(name string) error { return nil }

// ticketStore is the module's own API with a proper twin pair, used through an interface.
type ticketStore interface {
	Reserve(id string, n int) error
	ReserveContext(ctx context.Context, id string, n int) error
}

// repo embeds *sql.DB: its promoted Query has the promoted QueryContext as twin.
type repo struct {
	*sql.DB
	tickets ticketStore
}

// pager is generic; its Next has a NextContext twin.
type pager[T any] struct{ items []T }

func (p *pager[T]) Next() (T, bool) {
	var zero T
	return zero, false
}

func (p *pager[T]) NextContext(ctx context.Context) (T, bool) { return p.Next() }

// warmer's WarmContext dials with its ctx but returns nothing: a cut-short warm-up cannot be
// told from a finished one, so the ctx-less Warm is left alone (a twin with no results is
// taken to carry values, as glog's InfoContext does). Its Refresh twin returns the error.
type warmer struct{ addr string }

func (w warmer) Warm() { w.WarmContext(context.Background()) }
func (w warmer) WarmContext(ctx context.Context) {
	var d net.Dialer
	if c, err := d.DialContext(ctx, "tcp", w.addr); err == nil {
		c.Close()
	}
}
func (w warmer) Refresh() error { return w.RefreshContext(context.Background()) }
func (w warmer) RefreshContext(ctx context.Context) error {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", w.addr)
	if err != nil {
		return err
	}
	return c.Close()
}

// Catalog implements catalogpb.CatalogServer.
type Catalog struct {
	warm warmer
	catalogpb.UnimplementedCatalogServer
	db      *sql.DB
	repo    repo
	cache   cache
	search  search
	index   index
	hooks   hooks
	pages   *pager[string]
	log     *slog.Logger
	timeout time.Duration
}

func (c *Catalog) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	// Look-alikes without a usable twin are not reported.
	name, _ := c.cache.Query(req.GetId())
	_, _ = c.search.Query(name)
	_ = c.index.Query(name)
	_, _ = c.index.Get(name)
	_ = c.hooks.Run(name)
	// Logger.Warn has a WarnContext twin, but that one only reads values out of its ctx: a
	// log line has no deadline to lose.
	c.log.Warn("cache miss", "id", name)
	slog.Default().Info("served", "id", name)
	c.warm.Warm()
	if err := c.warm.Refresh(); err != nil { // want `warmer.Refresh in handler Catalog.GetItem .*use RefreshContext\(ctx\)$`
		return nil, err
	}

	// A method value is the same call: reported where it is made.
	q := c.db.Query
	if rows, err := q("SELECT 1"); err == nil { // want `DB.Query in handler Catalog.GetItem cannot be cancelled with the request; use QueryContext\(ctx, \.\.\.\)`
		rows.Close()
	}
	// So is a method expression.
	if _, err := (*sql.DB).Exec(c.db, "SELECT 1"); err != nil { // want `DB.Exec in handler Catalog.GetItem`
		return nil, err
	}
	// Promoted through an embedded *sql.DB.
	if err := c.repo.Ping(); err != nil { // want `DB.Ping in handler Catalog.GetItem`
		return nil, err
	}
	// The module's own API, called through an interface.
	if err := c.repo.tickets.Reserve(req.GetId(), 1); err != nil { // want `ticketStore.Reserve in handler Catalog.GetItem .*use ReserveContext\(ctx, \.\.\.\)`
		return nil, err
	}
	// A generic type's method and its twin.
	if _, ok := c.pages.Next(); !ok { // want `pager.Next in handler Catalog.GetItem .*use NextContext\(ctx\)$`
		return nil, nil
	}
	// The pre-Go 1.13 idiom: the request gets the ctx before it is sent.
	hreq, err := http.NewRequest(http.MethodGet, "http://backend/", nil)
	if err != nil {
		return nil, err
	}
	hreq = hreq.WithContext(ctx)
	if resp, err := http.DefaultClient.Do(hreq); err == nil {
		resp.Body.Close()
	}
	if creq, err := http.NewRequest(http.MethodHead, "http://backend/", nil); err == nil {
		if resp, err := http.DefaultClient.Do(creq.Clone(ctx)); err == nil {
			resp.Body.Close()
		}
	}
	// Deliberate, and said so.
	//deadlinelint:ignore ctxless the audit row must be written even when the caller gives up
	_, _ = c.db.Exec("INSERT INTO audit VALUES ($1)", req.GetId())
	return &catalogpb.Item{Id: req.GetId(), Name: name}, nil
}

// ListItems starts work in closures and goroutines: they belong to the request too.
func (c *Catalog) ListItems(req *catalogpb.ListItemsRequest, stream grpc.ServerStreamingServer[catalogpb.Item]) error {
	done := make(chan error, 1)
	go func() {
		_, err := c.db.Exec("UPDATE stats SET n = n + 1") // want `DB.Exec in handler Catalog.ListItems .*use ExecContext.*stream.Context\(\)`
		done <- err
	}()
	load := func(id string) error {
		time.Sleep(c.timeout)                               // one deliberate wait, in no loop: silent
		return c.db.QueryRow("SELECT 1 WHERE $1", id).Err() // want `DB.QueryRow in handler Catalog.ListItems`
	}
	defer c.db.Exec("DELETE FROM cursors") // cleanup as it returns, which must run when the request is cancelled too: silent
	go c.db.Ping()                         // want `DB.Ping in handler Catalog.ListItems`
	if err := load(req.GetCategory()); err != nil {
		return err
	}
	return <-done
}

// Chat has no name for its ctx: reported without a fix, naming the stream's context.
func (c *Catalog) Chat(_ grpc.BidiStreamingServer[catalogpb.ChatMessage, catalogpb.ChatMessage]) error {
	_, err := c.db.Exec("SELECT 1") // want `DB.Exec in handler Catalog.Chat cannot be cancelled with the request; use ExecContext with the stream's Context\(\)$`
	return err
}

// blank names its ctx _: reported, the message says which ctx to pass.
type blank struct {
	catalogpb.UnimplementedCatalogServer
	db *sql.DB
}

func (b *blank) GetItem(_ context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_, err := b.db.Exec("SELECT 1") // want `DB.Exec in handler blank.GetItem cannot be cancelled with the request; use ExecContext with the request ctx$`
	return nil, err
}

// The same calls outside request scopes, even in closures, are not reported.
func migrate(db *sql.DB) error {
	run := func(stmt string) error {
		_, err := db.Exec(stmt)
		return err
	}
	go db.Ping()
	return run("CREATE TABLE t (id int)")
}
