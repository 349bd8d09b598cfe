// Package changelog reads the tables' change log (the outbox the writers append to) and turns it
// into channels of changes for the export and tail streams.
package changelog

import (
	"context"
	"database/sql"
	"log"
	"time"
)

// Change is one row of the change log.
type Change struct {
	Table     string
	Position  int64
	Columns   map[string]string
	Deleted   bool
	Committed time.Time
}

// Log polls the change-log table.
type Log struct {
	db   *sql.DB
	poll time.Duration
}

// New returns a Log polling db every poll.
func New(db *sql.DB, poll time.Duration) *Log {
	return &Log{db: db, poll: poll}
}

const changesQuery = `SELECT position, columns, deleted, committed_at FROM change_log
WHERE table_name = $1 AND position > $2 ORDER BY position LIMIT 500`

// Follow streams the changes of table after position from. The channel is never closed: the
// poller runs for the life of the process, like the replication slot it reads.
func (l *Log) Follow(table string, from int64) <-chan Change {
	out := make(chan Change, 256)
	go func() {
		pos := from
		for {
			batch, err := l.read(context.Background(), table, pos)
			if err != nil {
				log.Printf("changelog: follow %s: %v", table, err)
			}
			for _, c := range batch {
				out <- c
				pos = c.Position
			}
			time.Sleep(l.poll)
		}
	}()
	return out
}

// FollowContext is Follow that stops, and closes the channel, when ctx is done.
func (l *Log) FollowContext(ctx context.Context, table string, from int64) <-chan Change {
	out := make(chan Change, 256)
	go func() {
		defer close(out)
		pos := from
		t := time.NewTicker(l.poll)
		defer t.Stop()
		for {
			batch, err := l.read(ctx, table, pos)
			if err != nil {
				return
			}
			for _, c := range batch {
				select {
				case out <- c:
					pos = c.Position
				case <-ctx.Done():
					return
				}
			}
			select {
			case <-t.C:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// Read returns the next batch of changes of table after position from.
func (l *Log) Read(ctx context.Context, table string, from int64) ([]Change, error) {
	return l.read(ctx, table, from)
}

func (l *Log) read(ctx context.Context, table string, from int64) ([]Change, error) {
	rows, err := l.db.QueryContext(ctx, changesQuery, table, from)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Change
	for rows.Next() {
		c := Change{Table: table, Columns: map[string]string{}}
		var cols string
		if err := rows.Scan(&c.Position, &cols, &c.Deleted, &c.Committed); err != nil {
			return nil, err
		}
		c.Columns["_raw"] = cols
		out = append(out, c)
	}
	return out, rows.Err()
}

// Snapshot opens a cursor over a table as of a snapshot and delivers it in batches of up to
// size rows. The cursor holds its transaction until the last batch has been taken.
func (l *Log) Snapshot(table, snapshot string, size int) <-chan []Change {
	out := make(chan []Change, 2)
	go func() {
		defer close(out)
		tx, err := l.db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
		if err != nil {
			log.Printf("changelog: snapshot %s: %v", table, err)
			return
		}
		defer tx.Rollback()
		if _, err := tx.Exec(`SET TRANSACTION SNAPSHOT '` + snapshot + `'`); err != nil {
			log.Printf("changelog: snapshot %s: %v", table, err)
			return
		}
		rows, err := tx.Query(`SELECT position, columns FROM snapshot_rows WHERE table_name = $1`, table)
		if err != nil {
			log.Printf("changelog: snapshot %s: %v", table, err)
			return
		}
		defer rows.Close()
		batch := make([]Change, 0, size)
		for rows.Next() {
			c := Change{Table: table, Columns: map[string]string{}}
			var cols string
			if err := rows.Scan(&c.Position, &cols); err != nil {
				log.Printf("changelog: snapshot %s: %v", table, err)
				return
			}
			c.Columns["_raw"] = cols
			batch = append(batch, c)
			if len(batch) == size {
				out <- batch
				batch = make([]Change, 0, size)
			}
		}
		if len(batch) > 0 {
			out <- batch
		}
	}()
	return out
}
