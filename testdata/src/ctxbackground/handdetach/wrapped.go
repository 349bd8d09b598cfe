package handdetach

import (
	"context"

	"google.golang.org/grpc/metadata"

	"ctxbackground/handdetach/tracectx"
	"example.com/gen/catalogpb"
)

// forAudit returns a fresh ctx carrying the request's trace and none of its cancellation: the
// audit row a request starts is written even after its client has gone.
func forAudit(ctx context.Context) context.Context {
	return tracectx.WithTrace(context.Background(), tracectx.TraceID(ctx))
}

// forAuditRecorded does the same, recording the trace with the root as it goes.
func forAuditRecorded(ctx context.Context, record func(context.Context, string)) context.Context {
	return tracectx.Register(context.Background(), tracectx.TraceID(ctx), record)
}

func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	ctx := stream.Context()
	if _, err := s.store.Get(tracectx.Detach(ctx), req.GetCategory()); err != nil {
		return err
	}
	if _, err := s.store.Get(forAudit(ctx), req.GetCategory()); err != nil {
		return err
	}
	_, _ = s.store.Get(tracectx.Recorded(ctx, s.record), "r")   // want `tracectx\.Recorded, called in handler Server\.ListItems, returns a ctx from context\.Background\(\), not the caller's; derive it from stream\.Context\(\)`
	_, err := s.store.Get(forAuditRecorded(ctx, s.record), "f") // want `handdetach\.forAuditRecorded, called in handler Server\.ListItems, returns a ctx from context\.Background\(\), not the caller's; derive it from stream\.Context\(\)`
	return err
}

func (s *Server) record(ctx context.Context, id string) { _, _ = s.store.Get(ctx, id) }

// forwarded forwards the caller's headers to the backend.
func forwarded(ctx context.Context) context.Context {
	md, _ := metadata.FromIncomingContext(ctx)
	return metadata.NewOutgoingContext(context.Background(), md)
}

func (s *Server) UploadItems(stream catalogpb.Catalog_UploadItemsServer) error {
	_, err := s.store.Get(forwarded(stream.Context()), "u") // want `handdetach\.forwarded, called in handler Server\.UploadItems, returns a ctx from context\.Background\(\), not the caller's; derive it from stream\.Context\(\)`
	return err
}
