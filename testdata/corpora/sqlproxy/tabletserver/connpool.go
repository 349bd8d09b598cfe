package tabletserver

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"example.test/sqlproxy/gen/querypb"
)

// ErrPoolClosed is returned by a closed pool.
var ErrPoolClosed = errors.New("connection pool is closed")

// PooledConn is one MySQL connection of a pool.
type PooledConn struct {
	ID     int64
	conn   *sql.Conn
	pool   *ConnPool
	broken bool
}

func bindArgs(bindVars map[string]string) []any {
	args := make([]any, 0, len(bindVars))
	for k, v := range bindVars {
		args = append(args, sql.Named(k, v))
	}
	return args
}

// Exec runs sql and reads at most maxRows rows of its result.
func (c *PooledConn) Exec(ctx context.Context, query string, bindVars map[string]string, maxRows int) (*querypb.QueryResult, error) {
	qr := &querypb.QueryResult{}
	err := c.stream(ctx, query, bindArgs(bindVars), func(part *querypb.QueryResult) error {
		qr.Fields = append(qr.Fields, part.Fields...)
		qr.Rows = append(qr.Rows, part.Rows...)
		if maxRows > 0 && len(qr.Rows) > maxRows {
			return fmt.Errorf("row count exceeded %d", maxRows)
		}
		return nil
	}, 1<<30)
	return qr, err
}

// Stream runs sql and hands its rows to send, batch rows at a time.
func (c *PooledConn) Stream(ctx context.Context, query string, batch int, send func(*querypb.QueryResult) error) error {
	return c.stream(ctx, query, nil, send, batch)
}

func (c *PooledConn) stream(ctx context.Context, query string, args []any, send func(*querypb.QueryResult) error, batch int) error {
	rows, err := c.conn.QueryContext(ctx, query, args...)
	if err != nil {
		c.markBroken(err)
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	if err := send(&querypb.QueryResult{Fields: cols}); err != nil {
		return err
	}
	qr := &querypb.QueryResult{}
	for rows.Next() {
		row, err := scanRow(rows, len(cols))
		if err != nil {
			return err
		}
		qr.Rows = append(qr.Rows, row)
		if len(qr.Rows) >= batch {
			if err := send(qr); err != nil {
				return err
			}
			qr = &querypb.QueryResult{}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(qr.Rows) > 0 {
		return send(qr)
	}
	return nil
}

// ExecNoResult runs a statement that returns no rows.
func (c *PooledConn) ExecNoResult(ctx context.Context, query string) error {
	_, err := c.conn.ExecContext(ctx, query)
	c.markBroken(err)
	return err
}

func (c *PooledConn) markBroken(err error) {
	c.broken = c.broken || errors.Is(err, sql.ErrConnDone)
}

// Recycle gives the connection back to its pool.
func (c *PooledConn) Recycle() { c.pool.put(c) }

func scanRow(rows *sql.Rows, n int) (*querypb.Row, error) {
	vals := make([]sql.NullString, n)
	ptrs := make([]any, n)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return nil, err
	}
	row := &querypb.Row{Values: make([]string, n)}
	for i, v := range vals {
		row.Values[i] = v.String
	}
	return row, nil
}

// ConnPool is a fixed-capacity pool of MySQL connections.
type ConnPool struct {
	db           *sql.DB
	capacity     int
	closeTimeout time.Duration
	available    chan struct{}

	mu     sync.Mutex
	idle   []*PooledConn
	open   int
	closed bool
}

// NewConnPool returns a pool of at most capacity connections to db.
func NewConnPool(db *sql.DB, capacity int, closeTimeout time.Duration) *ConnPool {
	return &ConnPool{db: db, capacity: capacity, closeTimeout: closeTimeout, available: make(chan struct{}, capacity)}
}

// GetContext returns an idle connection, opens a new one, or waits for one
// to come back, until ctx is done.
func (p *ConnPool) GetContext(ctx context.Context) (*PooledConn, error) {
	for {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return nil, ErrPoolClosed
		}
		if n := len(p.idle); n > 0 {
			c := p.idle[n-1]
			p.idle = p.idle[:n-1]
			p.mu.Unlock()
			return c, nil
		}
		if p.open < p.capacity {
			p.open++
			p.mu.Unlock()
			return p.connect(ctx)
		}
		p.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for a connection: %w", ctx.Err())
		case <-p.available:
		}
	}
}

func (p *ConnPool) connect(ctx context.Context) (*PooledConn, error) {
	conn, err := p.db.Conn(ctx)
	if err == nil {
		var id int64
		if err = conn.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err == nil {
			return &PooledConn{ID: id, conn: conn, pool: p}, nil
		}
		_ = conn.Close()
	}
	p.mu.Lock()
	p.open--
	p.mu.Unlock()
	return nil, err
}

func (p *ConnPool) put(c *PooledConn) {
	p.mu.Lock()
	if c.broken || p.closed {
		p.open--
		_ = c.conn.Close()
	} else {
		p.idle = append(p.idle, c)
	}
	p.mu.Unlock()
	select {
	case p.available <- struct{}{}:
	default:
	}
}

// Close closes the idle connections and waits, up to the pool's close
// timeout, for the ones in use to come back.
func (p *ConnPool) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), p.closeTimeout) // OK: ctxbackground — Close is not a request scope: the pool's own close timeout
	defer cancel()
	p.mu.Lock()
	p.closed = true
	idle := p.idle
	p.idle = nil
	p.open -= len(idle)
	p.mu.Unlock()
	for _, c := range idle {
		_ = c.conn.Close()
	}
	for {
		p.mu.Lock()
		n := p.open
		p.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-p.available:
		}
	}
}
