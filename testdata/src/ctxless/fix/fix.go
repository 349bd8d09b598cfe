// Package fix holds the ctx-less calls ctxless can rewrite, the ones it cannot, and the ones
// where the request ctx is not visible at the call.
package fix

import (
	"context"
	"database/sql"
	"net"
	nethttp "net/http"
	"os/exec"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

// quotas is the module's own API with a twin pair; Take has a value receiver, TakeContext a
// pointer one.
type quotas struct{}

func (quotas) Take(user string, n int) error                              { return nil }
func (*quotas) TakeContext(ctx context.Context, user string, n int) error { return nil }

func newQuotas() quotas { return quotas{} }

// backoff's RetryContext passes the ctx on to its callback: a twin, but no mechanical rewrite.
type backoff struct{}

func (backoff) Retry(fn func() error) error { return fn() }
func (backoff) RetryContext(ctx context.Context, fn func(context.Context) error) error {
	return fn(ctx)
}

// Wait's WaitContext returns the ctx's error when it gives up: a twin, no mechanical rewrite.
func (backoff) Wait()                                 {}
func (backoff) WaitContext(ctx context.Context) error { return ctx.Err() }

// Walk's WalkContext takes another kind of callback: no twin.
func (backoff) Walk(fn func(string) error) error                                      { return nil }
func (backoff) WalkContext(ctx context.Context, fn func(context.Context) error) error { return nil }

// Catalog implements catalogpb.CatalogServer.
type Catalog struct {
	catalogpb.UnimplementedCatalogServer
	db     *sql.DB
	quotas quotas
	retry  backoff
}

func (c *Catalog) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := c.retry.Retry(func() error { return nil }); err != nil { // want `backoff.Retry in handler Catalog.GetItem cannot be cancelled with the request; use RetryContext\(ctx, \.\.\.\)`
		return nil, err
	}
	_ = c.retry.Walk(func(string) error { return nil })
	c.retry.Wait() // want `backoff.Wait in handler Catalog.GetItem cannot be cancelled with the request; use WaitContext\(ctx\)`
	args := []any{req.GetId()}
	rows, err := c.db.Query("SELECT name FROM items WHERE id = $1", args...) // want `DB.Query in handler Catalog.GetItem`
	if err != nil {
		return nil, err
	}
	rows.Close()
	if err := c.db.Ping(); err != nil { // want `DB.Ping in handler Catalog.GetItem`
		return nil, err
	}
	tx, err := c.db.Begin() // want `DB.Begin in handler Catalog.GetItem`
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	hreq, err := nethttp.NewRequest(nethttp.MethodGet, "http://backend/", nil) // want `http.NewRequest in handler Catalog.GetItem`
	if err != nil {
		return nil, err
	}
	if resp, err := nethttp.DefaultClient.Do(hreq); err == nil {
		resp.Body.Close()
	}
	if err := exec.Command("true").Run(); err != nil { // want `exec.Command in handler Catalog.GetItem`
		return nil, err
	}
	addrs, err := net.LookupHost(req.GetId()) // want `net.LookupHost in handler Catalog.GetItem`
	if err != nil {
		return nil, err
	}
	ips, _ := net.LookupIP(addrs[0])       // want `net.LookupIP in handler Catalog.GetItem`
	conn, err := net.Dial("tcp", addrs[0]) // want `net.Dial in handler Catalog.GetItem`
	if err != nil {
		return nil, err
	}
	conn.Close()
	if err := c.quotas.Take(req.GetId(), len(ips)); err != nil { // want `quotas.Take in handler Catalog.GetItem`
		return nil, err
	}
	// Not addressable: newQuotas().TakeContext would not compile, so no fix.
	if err := newQuotas().Take(req.GetId(), 1); err != nil { // want `quotas.Take in handler Catalog.GetItem`
		return nil, err
	}
	// Arguments on their own lines keep gofmt's layout.
	if _, err := c.db.Exec( // want `DB.Exec in handler Catalog.GetItem`
		"UPDATE items SET seen = now() WHERE id = $1",
		req.GetId(),
	); err != nil {
		return nil, err
	}
	// Not mechanical: no fix.
	if resp, err := nethttp.Get("http://backend/"); err == nil { // want `http.Get in handler Catalog.GetItem`
		resp.Body.Close()
	}
	time.Sleep(time.Millisecond) // one deliberate wait, in no loop: silent
	q := c.db.QueryRow
	_ = q("SELECT 1") // want `DB.QueryRow in handler Catalog.GetItem`

	// In a closure the captured ctx is still the request's.
	check := func(id string) error {
		return c.db.QueryRow("SELECT 1 WHERE $1", id).Err() // want `DB.QueryRow in handler Catalog.GetItem`
	}
	// Here ctx is shadowed by another context: the message names the request ctx, no fix.
	audit := func(ctx context.Context) error {
		_, err := c.db.Exec("INSERT INTO audit VALUES (1)") // want `DB.Exec in handler Catalog.GetItem cannot be cancelled with the request; use ExecContext with the request ctx$`
		return err
	}
	if err := audit(ctx); err != nil {
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, check(req.GetId())
}

// ListItems passes the stream's context.
func (c *Catalog) ListItems(req *catalogpb.ListItemsRequest, stream grpc.ServerStreamingServer[catalogpb.Item]) error {
	_, err := c.db.Exec("UPDATE stats SET lists = lists + 1") // want `DB.Exec in handler Catalog.ListItems`
	if err != nil {
		return err
	}
	_, err = c.count(stream.Context(), "lists")
	return err
}

// count is handed the request's ctx by ListItems, under a name of its own.
func (c *Catalog) count(reqCtx context.Context, id string) (*sql.Rows, error) {
	n, err := c.db.Query("SELECT n FROM counts WHERE id = $1", id) // want `DB\.Query in Catalog\.count ignores the ctx it is given, the request's from handler Catalog\.ListItems; use QueryContext\(reqCtx, \.\.\.\)`
	return n, err
}
