// Package service is a grpc-go catalog service whose handlers detach work from the request:
// an audit goroutine, a cache warm-up on a stream, a call to an inventory service.
package service

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

type auditor interface {
	Record(ctx context.Context, event string, id string) error
}

// Server implements catalogpb.CatalogServer.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	audit     auditor
	inventory catalogpb.CatalogClient
}

// Register wires the server into gRPC.
func Register(s grpc.ServiceRegistrar, srv *Server) {
	catalogpb.RegisterCatalogServer(s, srv)
}

// GetItem audits the read on a goroutine that outlives the request, bounded and explained.
func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	// the access log must be complete even for reads the client abandoned
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	go func() {
		defer cancel()
		_ = s.audit.Record(actx, "read", req.GetId())
	}()
	return s.inventory.GetItem(ctx, req)
}

// ListItems warms the cache with the stream's ctx detached: no budget, no reason.
func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream grpc.ServerStreamingServer[catalogpb.Item]) error { // want +1 `context.WithoutCancel\(stream.Context\(\)\) runs work with no deadline and no reason`
	go s.warm(context.WithoutCancel(stream.Context()))
	return stream.Send(&catalogpb.Item{})
}

func (s *Server) warm(ctx context.Context) { // want warm:"unbounded work"
	_, _ = s.inventory.GetItem(ctx, &catalogpb.GetItemRequest{})
}

// requestMetadata keeps only what the downstream call needs.
func requestMetadata(ctx context.Context, tenant string, traceparent string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "tenant", tenant, "traceparent", traceparent)
}

// Chat forwards a release notice with metadata, explained but unbounded; the long argument is
// elided in the message.
func (s *Server) Chat(stream grpc.BidiStreamingServer[catalogpb.ChatMessage, catalogpb.ChatMessage]) error { // want +2 `context.WithoutCancel\(\.\.\.\) runs work with no deadline of its own; bound it with context.WithTimeout`
	// the release notice must reach inventory even if the chat ends
	nctx := context.WithoutCancel(requestMetadata(stream.Context(), "tenant-a", "00-trace"))
	_, err := s.inventory.GetItem(nctx, &catalogpb.GetItemRequest{})
	return err
}
