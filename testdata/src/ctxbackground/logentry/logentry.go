// Package logentry holds a handler that logs through loggers keeping a root ctx in the entry
// they return — a dependency's, and one of the user's own — whose packages only read the
// entry's trace and fields from it: nothing a deadline bounds runs with the root, nothing is
// reported. A root kept by an object that later runs a query or waits with it is reported.
package logentry

import (
	"context"
	"database/sql"
	"time"

	"ctxbackground/logentry/logx"
	"example.com/gen/catalogpb"
	"example.com/zlog"
)

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	db *sql.DB
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	zlog.Errorf(context.Background(), "get %s", req.GetId())               // only read by the entry: silent
	zlog.WithContext(context.TODO()).Errorf("get %s", req.GetId())         // silent
	logx.With(context.Background()).Tag("get").Info(req.GetId())           // the user's own: silent
	run := zlog.Later(context.Background(), s.db)                          // want `context.Background\(\) in handler Server.GetItem drops the caller's deadline`
	if err := logx.NewTask(context.TODO()).Wait(time.Second); err != nil { // want `context.TODO\(\) in handler Server.GetItem drops the caller's deadline`
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, run()
}
