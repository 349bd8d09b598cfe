// Package kinds pins down which functions are request scopes, and of which kind.
package kinds

import (
	"context"

	"connectrpc.com/connect"
	"example.com/gen/catalogpb"
	"example.com/gen/greetconnect"
	"example.com/gen/greetv1"
	"example.com/gen/legacypb"
	"google.golang.org/grpc"
)

type Catalog struct {
	catalogpb.UnimplementedCatalogServer
}

func NewCatalog() *Catalog { return &Catalog{} }

func (c *Catalog) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) { // want `unary Catalog.GetItem ctx=ctx recv=c`
	go func() {}() // want `closure Catalog.GetItem`
	return nil, nil
}

func (c *Catalog) ListItems(req *catalogpb.ListItemsRequest, stream grpc.ServerStreamingServer[catalogpb.Item]) error { // want `streaming Catalog.ListItems stream=stream recv=c`
	return nil
}

func (c *Catalog) UploadItems(s grpc.ClientStreamingServer[catalogpb.Item, catalogpb.UploadSummary]) error { // want `streaming Catalog.UploadItems stream=s recv=c`
	return nil
}

func (c *Catalog) Chat(s grpc.BidiStreamingServer[catalogpb.ChatMessage, catalogpb.ChatMessage]) error { // want `streaming Catalog.Chat stream=s recv=c`
	return nil
}

func (c *Catalog) Close() error { return nil }

func (c *Catalog) run(ctx context.Context) {}

type Legacy struct {
	legacypb.UnimplementedLegacyServer
}

func (l *Legacy) Ping(ctx context.Context, req *legacypb.PingRequest) (*legacypb.PingResponse, error) { // want `unary Legacy.Ping ctx=ctx recv=l`
	return nil, nil
}

func (l *Legacy) Upload(s legacypb.Legacy_UploadServer) error { // want `streaming Legacy.Upload stream=s recv=l`
	return nil
}

type Greeter struct {
	greetconnect.UnimplementedGreetServiceHandler
}

func (g *Greeter) Greet(ctx context.Context, req *connect.Request[greetv1.GreetRequest]) (*connect.Response[greetv1.GreetResponse], error) { // want `connect Greeter.Greet ctx=ctx recv=g`
	return nil, nil
}

func logUnary(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) { // want `interceptor logUnary ctx=ctx`
	return h(ctx, req)
}

func logStream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) error { // want `interceptor logStream stream=ss`
	return h(srv, ss)
}

// consume is a marked queue consumer.
//
//deadlinelint:scope
func consume(ctx context.Context, msg []byte) error { // want `marked consume ctx=ctx`
	return nil
}

// lookalike has handler-shaped methods but implements no registered service.
type lookalike struct{}

func (lookalike) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	return nil, nil
}

// newAuth returns an interceptor literal.
func newAuth() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) { // want `interceptor newAuth.func1 ctx=ctx`
		return h(ctx, req)
	}
}

// Authz carries an interceptor method.
type Authz struct{ base context.Context }

func (a *Authz) Unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) { // want `interceptor Authz.Unary ctx=ctx recv=a`
	return h(ctx, req)
}

// Consumer has a marked method.
type Consumer struct{}

// Handle is a marked method.
//
//deadlinelint:scope
func (c *Consumer) Handle(ctx context.Context, id string) error { // want `marked Consumer.Handle ctx=ctx recv=c`
	return nil
}

// Split spreads its handlers over embedded types, as large services do: the methods that
// serve the interface are those the server's method set selects.
type Split struct {
	*reads
	writes
}

type reads struct {
	catalogpb.UnimplementedCatalogServer // one level further down: the methods below win
	base                                 context.Context
}

func (r *reads) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) { // want `unary reads.GetItem ctx=ctx recv=r`
	return r.load(ctx)
}

// load is no part of the service.
func (r *reads) load(ctx context.Context) (*catalogpb.Item, error) { return nil, nil }

type writes struct{}

func (w writes) UploadItems(s grpc.ClientStreamingServer[catalogpb.Item, catalogpb.UploadSummary]) error { // want `streaming writes.UploadItems stream=s recv=w`
	return nil
}

// Close is not a service method, although Split has it through writes.
func (w writes) Close() error { return nil }
