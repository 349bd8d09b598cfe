package server

import (
	"context"
	"log"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/deadlinelint/deadlinelint/examples/catalog/catalogv1"
	"github.com/deadlinelint/deadlinelint/examples/catalog/internal/audit"
)

// UpdateItem writes an item, if nobody changed it since the caller read it,
// and records the change in the audit log.
func (s *Server) UpdateItem(ctx context.Context, req *catalogv1.UpdateItemRequest) (*catalogv1.Item, error) {
	if req.GetItem().GetId() == "" {
		return nil, status.Error(codes.InvalidArgument, "item.id is required")
	}
	// Give the write its own two seconds, however little the caller has left.
	wctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // planted: ctxbackground
	defer cancel()
	updated, err := s.repo.Update(wctx, req.GetItem())
	if err != nil {
		return nil, toStatus(err)
	}
	entry := audit.Entry{Actor: req.GetActor(), Action: "update", ItemID: updated.GetId()}
	if err := s.audit.Write(context.WithoutCancel(ctx), entry); err != nil { //planted:detach
		log.Printf("catalog: %v", err)
	}
	return updated, nil
}

// DeleteItem removes an item and records it in the audit log.
func (s *Server) DeleteItem(ctx context.Context, req *catalogv1.DeleteItemRequest) (*catalogv1.DeleteItemResponse, error) {
	if err := s.repo.Delete(s.baseCtx, req.GetId()); err != nil { // planted: ctxflow
		return nil, toStatus(err)
	}
	// The item is gone: the audit row must be written even if the client
	// gives up now, but within a bound of its own.
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	entry := audit.Entry{Actor: req.GetActor(), Action: "delete", ItemID: req.GetId()}
	if err := s.audit.Write(actx, entry); err != nil {
		log.Printf("catalog: %v", err)
	}
	return &catalogv1.DeleteItemResponse{}, nil
}
