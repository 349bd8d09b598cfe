// Package evil holds shapes that must not crash statusmask or fool it.
package evil

import (
	"context"
	"errors"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	c    catalogpb.CatalogClient
	code codes.Code
}

// GetItem: a variable code, a code of OK, a phi of errors, a goroutine.
func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	var err error
	if req.GetId() == "" {
		err = errors.New("no id")
	} else {
		_, err = s.c.GetItem(ctx, req)
	}
	if err != nil && s.code != codes.OK {
		return nil, status.Error(s.code, err.Error()) // a code the analysis cannot know: silent
	}
	_ = status.Error(codes.OK, "fine")
	done := make(chan error, 1)
	go func() {
		_, err := s.c.GetItem(ctx, req)
		done <- status.Errorf(codes.Aborted, "%v", err) // want `status\.Errorf gives code codes\.Aborted to the error of CatalogClient\.GetItem`
	}()
	if err != nil {
		return nil, status.Errorf(codes.Unknown, "%s", err) // want `status\.Errorf gives code codes\.Unknown to the error of CatalogClient\.GetItem`
	}
	return nil, <-done
}

// Chat keeps DeadlineExceeded and Canceled as they are.
func (s *Server) Chat(stream catalogpb.Catalog_ChatServer) error {
	_, err := s.c.GetItem(stream.Context(), &catalogpb.GetItemRequest{})
	if err != nil {
		return status.Errorf(codes.DeadlineExceeded, "upstream: %v", err)
	}
	return nil
}
