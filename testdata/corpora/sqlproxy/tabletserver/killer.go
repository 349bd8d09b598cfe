package tabletserver

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"example.test/sqlproxy/internal/servenv"
)

// QueryKiller kills the MySQL queries of requests that were cancelled.
type QueryKiller struct {
	db      *sql.DB
	timeout time.Duration
}

// Watch arranges for the query running on MySQL connection connID to be
// killed once ctx is done. The returned function cancels the arrangement.
func (k *QueryKiller) Watch(ctx context.Context, connID int64) (stop func() bool) {
	return context.AfterFunc(ctx, func() {
		kctx, cancel := context.WithTimeout(context.Background(), k.timeout)
		defer cancel()
		k.kill(kctx, connID)
	})
}

func (k *QueryKiller) kill(ctx context.Context, connID int64) {
	if _, err := k.db.ExecContext(ctx, fmt.Sprintf("KILL QUERY %d", connID)); err != nil {
		servenv.Warningf(ctx, "killing query on connection %d: %v", connID, err)
	}
}
