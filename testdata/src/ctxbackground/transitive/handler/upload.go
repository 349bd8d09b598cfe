package handler

import (
	"ctxbackground/transitive/ctxutil"
	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

// UploadItems uses ctx helpers of another package: those returning a root are reported where
// they are called, once per root, at the first call in source order.
func (s *Server) UploadItems(stream grpc.ClientStreamingServer[catalogpb.Item, catalogpb.UploadSummary]) error {
	ctx := stream.Context()
	item, err := stream.Recv()
	if err != nil {
		return err
	}
	if item.GetId() == "" {
		bctx, cancel := ctxutil.Background() // want `ctxutil\.Background, called in handler Server\.UploadItems, returns a ctx from context\.Background\(\), not the caller's; derive it from stream\.Context\(\)`
		defer cancel()
		_ = s.svc.Safe(bctx)
	}
	bctx, cancel := ctxutil.Background() // the same root, later in the source: reported once
	defer cancel()
	_ = s.svc.Safe(bctx)

	lctx := ctxutil.Linked(ctx, "upload") // want `ctxutil\.Linked, called in handler Server\.UploadItems, returns a ctx from context\.TODO\(\), not the caller's; derive it from stream\.Context\(\)`
	_ = s.svc.Safe(lctx)

	_ = s.svc.Safe(ctxutil.WithTenant(ctx, "t"))
	_ = s.svc.Safe(ctxutil.OrDefault(ctx))
	return nil
}
