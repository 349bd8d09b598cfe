// Package wrapper is the detach rule (without -detach.strict) on two places a reason hides in
// real code: the comment heading a paragraph, and a wrapper type documented where it is made.
package wrapper

import (
	"context"
	"database/sql"
)

// Store is what the wrappers wrap.
type Store interface {
	Get(ctx context.Context, key string) (string, error)
	Put(ctx context.Context, key, value string) error
}

// NewSeveringStore hands the store contexts that keep their values but never cancel: the
// driver closes its connection when a query is cancelled, and reconnecting costs more than
// finishing the query.
func NewSeveringStore(s Store) Store {
	return &severing{s}
}

type severing struct{ next Store }

// Every method is one statement handing the detached ctx on: the constructor's doc is the
// reason for all of them.
func (s *severing) Get(ctx context.Context, key string) (string, error) {
	return s.next.Get(context.WithoutCancel(ctx), key)
}

func (s *severing) Put(ctx context.Context, key, value string) error {
	return s.next.Put(context.WithoutCancel(ctx), key, value)
}

func (s *severing) Reads() Reader {
	// Undocumented, but a method of a documented wrapper: what it hands out severs for the
	// same reason.
	r := &severingReader{s.next}
	return r
}

// Reader is what Reads hands out.
type Reader interface {
	Get(ctx context.Context, key string) (string, error)
}

type severingReader struct{ next Store }

func (r *severingReader) Get(ctx context.Context, key string) (string, error) {
	return r.next.Get(context.WithoutCancel(ctx), key)
}

// A method that does more than hand the ctx on is not the wrapper's job any more: the
// constructor's doc does not speak for it.
func (s *severing) Copy(ctx context.Context, from, to string) error { // want Copy:"unbounded work with param 1"
	v, err := s.next.Get(ctx, from) // want +4 `context.WithoutCancel\(ctx\) runs work with no deadline and no reason`
	if err != nil {
		return err
	}
	return s.next.Put(context.WithoutCancel(ctx), to, v)
}

// A type's own doc says what the type is, not why it detaches.

// detachedReads is a store.
type detachedReads struct{ next Store }

func (d detachedReads) Get(ctx context.Context, key string) (string, error) { // want +1 `context.WithoutCancel\(ctx\) runs work with no deadline and no reason`
	return d.next.Get(context.WithoutCancel(ctx), key)
}

// newConcrete is documented but hands out the concrete type: a constructor like any other,
// not a wrapper's reason.
func newConcrete(s Store) *concrete { return &concrete{s} }

type concrete struct{ next Store }

func (c *concrete) Get(ctx context.Context, key string) (string, error) { // want +1 `context.WithoutCancel\(ctx\) runs work with no deadline and no reason`
	return c.next.Get(context.WithoutCancel(ctx), key)
}

// silent has neither a documented type nor a documented constructor.
type silent struct{ next Store }

func makeSilent(s Store) *silent { return &silent{s} }

func (q *silent) Get(ctx context.Context, key string) (string, error) { // want +1 `context.WithoutCancel\(ctx\) runs work with no deadline and no reason`
	return q.next.Get(context.WithoutCancel(ctx), key)
}

// Paragraphs.

func refill(ctx context.Context, db *sql.DB, key string) error {
	// The row outlives the request: other requests read it from the cache.
	var err error
	_, err = db.ExecContext(context.WithoutCancel(ctx), "INSERT INTO cache VALUES ($1)", key)
	return err
}

func refillAfterBlank(ctx context.Context, db *sql.DB, key string) error { // want +4 `context.WithoutCancel\(ctx\) runs work with no deadline and no reason`
	// A comment about the declaration below, a blank line away from the call.
	var err error

	_, err = db.ExecContext(context.WithoutCancel(ctx), "INSERT INTO cache VALUES ($1)", key)
	return err
}

func refillAfterWork(ctx context.Context, db *sql.DB, key string) error { // want +4 `context.WithoutCancel\(ctx\) runs work with no deadline and no reason`
	// Build the old key first: the comment is about this statement.
	old := key + "-old"
	_ = old
	_, err := db.ExecContext(context.WithoutCancel(ctx), "INSERT INTO cache VALUES ($1)", key)
	return err
}

func refillAfterTODO(ctx context.Context, db *sql.DB, key string) error { // want +3 `context.WithoutCancel\(ctx\) runs work with no deadline and no reason`
	// TODO: bound this.
	var err error
	_, err = db.ExecContext(context.WithoutCancel(ctx), "INSERT INTO cache VALUES ($1)", key)
	return err
}

var _, _ = makeSilent, newConcrete

// Handle is a request scope that reaches every detach above with its request ctx, so that the
// reasons (not the request's reach) decide what is reported.
//
//deadlinelint:scope
func Handle(ctx context.Context, st Store, db *sql.DB) {
	s := &severing{st}
	_, _ = s.Get(ctx, "k")
	_ = s.Put(ctx, "k", "v")
	_ = s.Copy(ctx, "a", "b")
	_, _ = (&severingReader{st}).Get(ctx, "k")
	_, _ = detachedReads{st}.Get(ctx, "k")
	_, _ = newConcrete(st).Get(ctx, "k")
	_, _ = makeSilent(st).Get(ctx, "k")
	_ = refill(ctx, db, "k")
	_ = refillAfterBlank(ctx, db, "k")
	_ = refillAfterWork(ctx, db, "k")
	_ = refillAfterTODO(ctx, db, "k")
}
