package server

import (
	"context"
	"database/sql"
	"net"
	"net/http"
	"os/exec"
	"time"
)

// repo is the package's own data access, which the handlers hand their ctx. Some of its methods
// lose it one call down; others use it, or are given it for work that must not stop with a
// request (a pause, a dial, a process), or are given a ctx by start-up code only.
type repo struct {
	db   *sql.DB
	hook string
}

func (r *repo) balance(ctx context.Context, id string) (int64, error) {
	var n int64
	err := r.db.QueryRow("SELECT balance FROM accounts WHERE id = $1", id).Scan(&n) // want `DB\.QueryRow in repo\.balance ignores the ctx it is given, the request's from handler Server\.GetItem; use QueryRowContext\(ctx, \.\.\.\)`
	return n, err
}

func (r *repo) transfer(ctx context.Context, from, to string, n int64) error {
	tx, err := r.db.Begin() // want `DB\.Begin in repo\.transfer ignores the ctx it is given, the request's from handler Server\.GetItem; use BeginTx\(ctx, nil\)`
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", n, from); err != nil {
		return err
	}
	return tx.Commit()
}

func (r *repo) notify(ctx context.Context) error {
	req, err := http.NewRequest(http.MethodPost, r.hook, nil) // want `http\.NewRequest in repo\.notify ignores the ctx it is given, .*; use http\.NewRequestWithContext\(ctx, \.\.\.\)`
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// audit hands the ctx on to a helper that drops it.
func (r *repo) audit(ctx context.Context, id string) error {
	return r.record(ctx, id)
}

func (r *repo) record(ctx context.Context, id string) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	_, err := r.db.Exec("INSERT INTO audit (id) VALUES ($1)", id) // want `DB\.Exec in repo\.record ignores the ctx it is given`
	return err
}

// owner uses the ctx it is given.
func (r *repo) owner(ctx context.Context, id string) (string, error) {
	var name string
	err := r.db.QueryRowContext(ctx, "SELECT owner FROM accounts WHERE id = $1", id).Scan(&name)
	return name, err
}

// fresh hands its helper a ctx of its own, not the one it is given: ctxbackground's.
func (r *repo) fresh(ctx context.Context, id string) error {
	return r.stamp(context.Background(), id)
}

// stamp is handed only fresh's root.
func (r *repo) stamp(ctx context.Context, id string) error {
	_, err := r.db.Exec("UPDATE accounts SET seen = now() WHERE id = $1", id)
	return err
}

// settle pauses between attempts whose next turn fails on the ctx, starts a process that
// outlives the call, unlocks as it returns and dials a connection kept for later: none of it is
// the request's I/O.
func (r *repo) settle(ctx context.Context, addr string) (net.Conn, error) {
	for i := 0; i < 3; i++ {
		if _, err := r.db.ExecContext(ctx, "SELECT 1"); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := exec.Command("reindex").Start(); err != nil {
		return nil, err
	}
	defer r.db.Exec("SELECT pg_advisory_unlock(1)")
	return net.Dial("tcp", addr)
}

// rowContext is the ctx-taking variant of row, written with it: no call that loses a ctx.
func (r *repo) rowContext(ctx context.Context) *sql.Row { return r.row() }

func (r *repo) row() *sql.Row { return r.db.QueryRow("SELECT id FROM accounts LIMIT 1") }

// rowCtx is the same, in go-zero's spelling of the variant's name: no call that loses a ctx.
func (r *repo) rowCtx(ctx context.Context) *sql.Row { return r.row() }

// Ctx is no variant of row, only a method of that name: row loses the ctx it is given.
func (r *repo) Ctx(ctx context.Context) *sql.Row {
	return r.row() // want `repo\.row in repo\.Ctx ignores the ctx it is given, the request's from handler Server\.GetItem; use rowContext\(ctx\)`
}

// count declares that it does not use its ctx: its author's decision.
func (r *repo) count(_ context.Context) (int, error) {
	var n int
	err := r.db.QueryRow("SELECT count(*) FROM accounts").Scan(&n)
	return n, err
}

// copyRow is given two ctxs: which one bounds the query is not known.
func (r *repo) copyRow(src, dst context.Context, id string) error {
	_, err := r.db.Exec("INSERT INTO copies SELECT * FROM accounts WHERE id = $1", id)
	return err
}

// refresh queries on a goroutine of its own, which may outlive the ctx it is given.
func (r *repo) refresh(ctx context.Context) {
	go r.db.Exec("REFRESH MATERIALIZED VIEW balances")
}

// warm is given a ctx by start-up code only: not the request's.
func (r *repo) warm(ctx context.Context) error {
	_, err := r.db.Exec("SELECT 1")
	return err
}
