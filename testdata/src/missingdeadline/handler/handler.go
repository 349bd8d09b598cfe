// Package handler makes client calls from request scopes — handlers, closures in them, server
// interceptors, marked scopes — which inherit the caller's deadline and are never reported by
// missingdeadline (a context.Background() there is ctxbackground's finding), and from the
// server's background worker, which is not a request scope.
package handler

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
	"example.com/gen/legacypb"
	"google.golang.org/grpc"
)

// Server implements catalogpb.CatalogServer on top of two downstream services.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	legacy    legacypb.LegacyClient
	inventory catalogpb.CatalogClient
}

// Register registers the server.
func Register(s *grpc.Server, srv *Server) { catalogpb.RegisterCatalogServer(s, srv) }

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_, _ = s.legacy.Ping(context.Background(), &legacypb.PingRequest{}) // ctxbackground's finding
	go func() {
		_ = ping(context.Background(), s.legacy) // ctxbackground's finding
	}()
	if err := ping(ctx, s.legacy); err != nil { // the request's deadline
		return nil, err
	}
	return s.inventory.GetItem(ctx, req)
}

func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream grpc.ServerStreamingServer[catalogpb.Item]) error {
	item, err := s.inventory.GetItem(stream.Context(), &catalogpb.GetItemRequest{Id: req.GetCategory()})
	if err != nil {
		return err
	}
	_, _ = s.inventory.GetItem(context.TODO(), &catalogpb.GetItemRequest{}) // ctxbackground's finding
	return stream.Send(item)
}

// ping passes its ctx to a unary RPC: its callers decide.
func ping(ctx context.Context, c legacypb.LegacyClient) error {
	_, err := c.Ping(ctx, &legacypb.PingRequest{Payload: "ping"})
	return err
}

// refresh is the server's background worker, not a request scope.
func (s *Server) refresh() {
	for range time.Tick(time.Minute) {
		_ = ping(context.Background(), s.legacy) // want `handler\.ping calls RPC LegacyClient\.Ping with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
	}
}

// NewServer is a constructor: it warms the cache with a bounded call.
func NewServer(legacy legacypb.LegacyClient, inventory catalogpb.CatalogClient) *Server {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = ping(ctx, legacy)
	return &Server{legacy: legacy, inventory: inventory}
}

var legacyClient legacypb.LegacyClient

// audit is a server interceptor: a request scope.
func audit(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	_ = ping(context.Background(), legacyClient) // ctxbackground's finding
	return handler(ctx, req)
}

// consume handles queue messages on behalf of a request.
//
//deadlinelint:scope
func consume(ctx context.Context, id string) error {
	_ = ping(context.Background(), legacyClient) // ctxbackground's finding
	_, err := legacyClient.Ping(ctx, &legacypb.PingRequest{Payload: id})
	return err
}
