// Package catalog is the job index: an ordered view of the jobs table, read through
// range-over-func iterators.
package catalog

import (
	"context"
	"database/sql"
	"iter"
	"time"
)

// Row is one entry of the index.
type Row struct {
	State   string
	Updated time.Time
}

// Index reads the jobs table in id order.
type Index struct {
	db   *sql.DB
	page int
}

// New returns the index.
func New(db *sql.DB) *Index { return &Index{db: db, page: 500} }

// All yields every job of the index.
func (x *Index) All() iter.Seq2[string, Row] {
	return func(yield func(string, Row) bool) {
		ctx := context.Background()
		_ = x.scan(ctx, time.Time{}, yield)
	}
}

// Scan yields every job of the index, reading with ctx.
func (x *Index) Scan(ctx context.Context) iter.Seq2[string, Row] {
	return func(yield func(string, Row) bool) {
		_ = x.scan(ctx, time.Time{}, yield)
	}
}

// Since yields the jobs updated after t.
func (x *Index) Since(ctx context.Context, t time.Time) iter.Seq2[string, Row] {
	return func(yield func(string, Row) bool) {
		_ = x.scan(context.TODO(), t, yield)
	}
}

// Keys yields the ids of every job, reading with ctx.
func (x *Index) Keys(ctx context.Context) iter.Seq[string] {
	return func(yield func(string) bool) {
		_ = x.scan(ctx, time.Time{}, func(id string, _ Row) bool { return yield(id) })
	}
}

// Rebuild recomputes the index entry of one job.
func (x *Index) Rebuild(ctx context.Context, id string) error {
	_, err := x.db.ExecContext(ctx, `SELECT jobs_index_rebuild($1)`, id)
	return err
}

// Cursor is a scan bound to the ctx of the request that opened it.
type Cursor struct {
	x   *Index
	ctx context.Context
}

// Cursor opens a cursor reading with ctx.
func (x *Index) Cursor(ctx context.Context) *Cursor { return &Cursor{x: x, ctx: ctx} }

// Rows yields the rows of the cursor.
func (c *Cursor) Rows() iter.Seq2[string, Row] {
	return func(yield func(string, Row) bool) {
		_ = c.x.scan(c.ctx, time.Time{}, yield)
	}
}

func (x *Index) scan(ctx context.Context, after time.Time, yield func(string, Row) bool) error {
	last := ""
	for {
		rows, err := x.db.QueryContext(ctx,
			`SELECT id, state, updated FROM jobs WHERE id > $1 AND updated > $2 ORDER BY id LIMIT $3`, last, after, x.page)
		if err != nil {
			return err
		}
		n := 0
		for rows.Next() {
			var id string
			var r Row
			if err := rows.Scan(&id, &r.State, &r.Updated); err != nil {
				rows.Close()
				return err
			}
			n++
			last = id
			if !yield(id, r) {
				rows.Close()
				return nil
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil || n < x.page {
			return err
		}
	}
}
