package tabletserver

import (
	"context"
	"database/sql"
	"sync"
	"time"

	"example.test/sqlproxy/internal/servenv"
)

// Table is the schema of one table.
type Table struct {
	Name    string
	Columns []string
}

// SchemaEngine keeps the schema of the tablet's database. It is opened on
// first use, reloaded periodically and on demand.
type SchemaEngine struct {
	db            *sql.DB
	reloadTimeout time.Duration

	mu         sync.Mutex
	isOpen     bool
	tables     map[string]*Table
	lastReload time.Time
}

// NewSchemaEngine returns a closed schema engine over db.
func NewSchemaEngine(db *sql.DB, reloadTimeout time.Duration) *SchemaEngine {
	return &SchemaEngine{db: db, reloadTimeout: reloadTimeout, tables: map[string]*Table{}}
}

// EnsureOpen loads the schema the first time it is called.
func (se *SchemaEngine) EnsureOpen(ctx context.Context) error {
	se.mu.Lock()
	defer se.mu.Unlock()
	if se.isOpen {
		return nil
	}
	if err := se.reloadLocked(ctx); err != nil {
		return err
	}
	se.isOpen = true
	return nil
}

// Reload reads the schema from mysqld again.
func (se *SchemaEngine) Reload(ctx context.Context) error {
	se.mu.Lock()
	defer se.mu.Unlock()
	return se.reloadLocked(ctx)
}

func (se *SchemaEngine) reloadLocked(ctx context.Context) error {
	rows, err := se.db.QueryContext(ctx, `SELECT table_name, column_name FROM information_schema.columns
		WHERE table_schema = database() ORDER BY table_name, ordinal_position`)
	if err != nil {
		return err
	}
	defer rows.Close()
	tables := map[string]*Table{}
	for rows.Next() {
		var tname, cname string
		if err := rows.Scan(&tname, &cname); err != nil {
			return err
		}
		t, ok := tables[tname]
		if !ok {
			t = &Table{Name: tname}
			tables[tname] = t
		}
		t.Columns = append(t.Columns, cname)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	se.tables = tables
	se.lastReload = time.Now()
	return nil
}

// reloadLoop reloads the schema every interval until ctx is done.
func (se *SchemaEngine) reloadLoop(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		rctx, cancel := context.WithTimeout(ctx, se.reloadTimeout)
		if err := se.Reload(rctx); err != nil {
			servenv.Warningf(rctx, "periodic schema reload: %v", err)
		}
		cancel()
	}
}

// Close forgets the schema.
func (se *SchemaEngine) Close() {
	se.mu.Lock()
	defer se.mu.Unlock()
	se.isOpen = false
	se.tables = map[string]*Table{}
}
