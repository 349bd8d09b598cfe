// Package sqlsvc holds a catalog service backed by database/sql: every ctx-less call of DB, Tx
// and Stmt in a handler, and the same calls where they are fine.
package sqlsvc

import (
	"context"
	"database/sql"
	"errors"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

const byID = "SELECT name FROM items WHERE id = $1"

// Catalog implements catalogpb.CatalogServer over a SQL database.
type Catalog struct {
	catalogpb.UnimplementedCatalogServer
	db *sql.DB
}

// NewCatalog is a constructor, not a request scope: ctx-less calls are fine here.
func NewCatalog(db *sql.DB) (*Catalog, error) {
	if err := db.Ping(); err != nil {
		return nil, err
	}
	if _, err := db.Exec("CREATE TABLE IF NOT EXISTS items (id text, name text)"); err != nil {
		return nil, err
	}
	return &Catalog{db: db}, nil
}

func (c *Catalog) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := c.db.Ping(); err != nil { // want `DB.Ping in handler Catalog.GetItem cannot be cancelled with the request; use PingContext\(ctx\)$`
		return nil, err
	}
	var name string
	if err := c.db.QueryRow(byID, req.GetId()).Scan(&name); err != nil { // want `DB.QueryRow in handler Catalog.GetItem cannot be cancelled with the request; use QueryRowContext\(ctx, \.\.\.\)$`
		return nil, err
	}
	rows, err := c.db.Query("SELECT id FROM related WHERE item = $1", req.GetId()) // want `DB.Query in handler Catalog.GetItem cannot be cancelled with the request; use QueryContext\(ctx, \.\.\.\)`
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if _, err := c.db.Exec("UPDATE items SET hits = hits + 1 WHERE id = $1", req.GetId()); err != nil { // want `DB.Exec in handler Catalog.GetItem .*use ExecContext\(ctx, \.\.\.\)`
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId(), Name: name}, nil
}

// UploadItems writes in a transaction: Begin, Tx and Stmt methods are all ctx-less.
func (c *Catalog) UploadItems(stream grpc.ClientStreamingServer[catalogpb.Item, catalogpb.UploadSummary]) error {
	tx, err := c.db.Begin() // want `DB.Begin in handler Catalog.UploadItems cannot be cancelled with the request; use BeginTx\(stream.Context\(\), nil\)$`
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ins, err := tx.Prepare("INSERT INTO items (id, name) VALUES ($1, $2)") // want `Tx.Prepare in handler Catalog.UploadItems .*use PrepareContext\(stream.Context\(\), \.\.\.\)`
	if err != nil {
		return err
	}
	upd, err := c.db.Prepare("UPDATE totals SET n = n + 1") // want `DB.Prepare in handler Catalog.UploadItems`
	if err != nil {
		return err
	}
	var n int32
	for {
		item, err := stream.Recv()
		if err != nil {
			break
		}
		if _, err := ins.Exec(item.GetId(), item.GetName()); err != nil { // want `Stmt.Exec in handler Catalog.UploadItems .*use ExecContext\(stream.Context\(\), \.\.\.\)`
			return err
		}
		if _, err := tx.Stmt(upd).Exec(); err != nil { // want `Tx.Stmt in handler Catalog.UploadItems .*use StmtContext\(stream.Context\(\), \.\.\.\)` `Stmt.Exec in handler`
			return err
		}
		var name string
		if err := ins.QueryRow(item.GetId()).Scan(&name); err != nil { // want `Stmt.QueryRow in handler`
			return err
		}
		if rows, err := ins.Query(); err == nil { // want `Stmt.Query in handler`
			rows.Close()
		}
		if _, err := tx.Exec("DELETE FROM staging WHERE id = $1", item.GetId()); err != nil { // want `Tx.Exec in handler`
			return err
		}
		if rows, err := tx.Query("SELECT 1"); err == nil { // want `Tx.Query in handler`
			rows.Close()
		}
		_ = tx.QueryRow("SELECT 1") // want `Tx.QueryRow in handler`
		n++
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return stream.SendAndClose(&catalogpb.UploadSummary{Count: n})
}

// goodCatalog passes the request ctx everywhere: nothing to report.
type goodCatalog struct {
	catalogpb.UnimplementedCatalogServer
	db *sql.DB
}

func (c *goodCatalog) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := c.db.PingContext(ctx); err != nil {
		return nil, err
	}
	conn, err := c.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var name string
	if err := conn.QueryRowContext(ctx, byID, req.GetId()).Scan(&name); err != nil {
		return nil, err
	}
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE items SET hits = hits + 1 WHERE id = $1", req.GetId()); err != nil {
		return nil, err
	}
	if name == "" {
		return nil, errors.New("not found")
	}
	return &catalogpb.Item{Id: req.GetId(), Name: name}, tx.Commit()
}

// Close and the background refresher are not request scopes.
func (c *Catalog) Close() error {
	_, err := c.db.Exec("DELETE FROM sessions")
	return errors.Join(err, c.db.Close())
}

func (c *Catalog) refresh() {
	rows, err := c.db.Query("SELECT id FROM items")
	if err == nil {
		rows.Close()
	}
}
