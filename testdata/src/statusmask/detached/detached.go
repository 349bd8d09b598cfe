// Package detached forwards writes on a budget of its own, detached from the request but for
// its trace: an error of that work is never the request's deadline, and turning it into
// Internal masks nothing. Forwarding on a ctx derived from the request's does.
package detached

import (
	"context"
	"database/sql"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"statusmask/tracectx"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	db *sql.DB
}

// forward writes on a fresh budget; the request's ctx only lends it its trace.
func (s *Server) forward(ctx context.Context, id string) error {
	fctx, cancel := context.WithTimeout(tracectx.CopyTrace(context.Background(), ctx), time.Second)
	defer cancel()
	_, err := s.db.ExecContext(fctx, "INSERT INTO items(id) VALUES ($1)", id)
	return err
}

// forwardAttached writes on the request's ctx, with a trace attached.
func (s *Server) forwardAttached(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(tracectx.Attach(context.Background(), ctx), "INSERT INTO items(id) VALUES ($1)", id)
	return err
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := s.forward(ctx, req.GetId()); err != nil {
		return nil, status.Error(codes.Internal, err.Error()) // its own budget's error: silent
	}
	if err := s.forwardAttached(ctx, req.GetId()); err != nil {
		return nil, status.Error(codes.Internal, err.Error()) // want `status\.Error gives code codes\.Internal to the error of Server\.forwardAttached`
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
