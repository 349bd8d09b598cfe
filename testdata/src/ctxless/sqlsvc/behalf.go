package sqlsvc

import (
	"context"
	"database/sql"
	"sync"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

// Locker's ctx-less calls that are not the request's work stay silent: a statement prepared once
// for every request (in the server's sync.Once, or on the first use of its field), a lock
// released as the handler returns (deferred, or in a deferred literal), a row marked failed
// on the way out of a failure, a cursor dropped once the request is done. The request's ctx
// there would let one cancelled request break the statement for all, or leave the lock held.
// The same calls made for the request are reported.
type Locker struct {
	catalogpb.UnimplementedCatalogServer
	db    *sql.DB
	once  sync.Once
	stmt  *sql.Stmt
	err   error
	purge *sql.Stmt
}

func (l *Locker) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	l.once.Do(func() { l.stmt, l.err = l.db.Prepare(byID) })
	if l.err != nil {
		return nil, l.err
	}
	if l.purge == nil {
		l.purge, l.err = l.db.Prepare("DELETE FROM items WHERE id = $1")
	}
	if _, err := l.db.ExecContext(ctx, "INSERT INTO locks(name) VALUES ($1)", req.GetId()); err != nil {
		return nil, err
	}
	defer l.db.Exec("DELETE FROM locks WHERE name = $1", req.GetId())
	defer func() {
		_, _ = l.db.Exec("UPDATE items SET busy = false WHERE id = $1", req.GetId())
	}()
	var name string
	if err := l.stmt.QueryRowContext(ctx, req.GetId()).Scan(&name); err != nil {
		_, _ = l.db.Exec("UPDATE items SET failed = true WHERE id = $1", req.GetId())
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId(), Name: name}, nil
}

func (l *Locker) ListItems(req *catalogpb.ListItemsRequest, stream grpc.ServerStreamingServer[catalogpb.Item]) error {
	once := sync.OnceValue(func() error { return l.db.Ping() }) // want `DB.Ping in handler Locker.ListItems`
	if err := once(); err != nil {
		return err
	}
	if _, err := l.db.Exec("UPDATE items SET listed = true"); err != nil { // want `DB.Exec in handler Locker.ListItems`
		return err
	}
	<-stream.Context().Done()
	_, _ = l.db.Exec("DELETE FROM cursors WHERE owner = $1", req.GetCategory())
	return nil
}
