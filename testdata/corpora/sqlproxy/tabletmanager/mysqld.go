package tabletmanager

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"example.test/sqlproxy/gen/tabletmanagerpb"
)

// Mysqld is the tablet's handle on its MySQL instance, as the DBA user.
type Mysqld struct {
	db *sql.DB
}

// NewMysqld returns a Mysqld over db.
func NewMysqld(db *sql.DB) *Mysqld { return &Mysqld{db: db} }

// Version returns the server version.
func (m *Mysqld) Version(ctx context.Context) (string, error) {
	var v string
	err := m.db.QueryRowContext(ctx, "SELECT @@version").Scan(&v)
	return v, err
}

// GetSchema returns the definitions of tables.
func (m *Mysqld) GetSchema(ctx context.Context, tables []string) ([]*tabletmanagerpb.TableDefinition, error) {
	if len(tables) == 0 {
		return nil, fmt.Errorf("no tables named")
	}
	defs := make([]*tabletmanagerpb.TableDefinition, 0, len(tables))
	for _, t := range tables {
		var name, create string
		if err := m.db.QueryRowContext(ctx, "SHOW CREATE TABLE "+quoteIdent(t)).Scan(&name, &create); err != nil {
			return nil, fmt.Errorf("table %s: %w", t, err)
		}
		defs = append(defs, &tabletmanagerpb.TableDefinition{Name: name, Schema: create})
	}
	return defs, nil
}

func quoteIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// FetchSuperQuery runs query and returns at most maxRows rows.
func (m *Mysqld) FetchSuperQuery(ctx context.Context, query string, maxRows int) (*tabletmanagerpb.ExecuteFetchResponse, error) {
	rows, err := m.db.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	resp := &tabletmanagerpb.ExecuteFetchResponse{Fields: cols}
	for rows.Next() {
		if len(resp.Rows) >= maxRows {
			return nil, fmt.Errorf("row count exceeded %d", maxRows)
		}
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := &tabletmanagerpb.FetchedRow{}
		for _, v := range vals {
			row.Values = append(row.Values, v.String)
		}
		resp.Rows = append(resp.Rows, row)
	}
	return resp, rows.Err()
}

// WaitForPosition waits until the replica has applied the GTID set pos.
func (m *Mysqld) WaitForPosition(ctx context.Context, pos string) error {
	for {
		var timedOut int
		if err := m.db.QueryRowContext(ctx, "SELECT WAIT_FOR_EXECUTED_GTID_SET(?, 1)", pos).Scan(&timedOut); err != nil {
			return err
		}
		if timedOut == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// SetSemiSync turns semi-sync replication on or off.
func (m *Mysqld) SetSemiSync(ctx context.Context, enabled bool) error {
	v := 0
	if enabled {
		v = 1
	}
	_, err := m.db.ExecContext(ctx, "SET GLOBAL rpl_semi_sync_source_enabled = ?", v)
	return err
}

// PrimaryPosition returns the executed GTID set.
func (m *Mysqld) PrimaryPosition(ctx context.Context) (string, error) {
	var pos string
	err := m.db.QueryRowContext(ctx, "SELECT @@global.gtid_executed").Scan(&pos)
	return pos, err
}
