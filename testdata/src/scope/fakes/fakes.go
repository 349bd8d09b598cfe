// Package fakes is test support: its non-test files import testing. Its handlers, interceptors
// and test-driven literals run for tests, not for callers with deadlines: none is a request
// scope, but a function marked //deadlinelint:scope still is.
package fakes

import (
	"context"
	"testing"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

// Catalog is a fake catalog server started by tests.
type Catalog struct {
	catalogpb.UnimplementedCatalogServer
}

func (c *Catalog) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// Start registers the fake.
func Start(s grpc.ServiceRegistrar) { catalogpb.RegisterCatalogServer(s, &Catalog{}) }

// Logging is an interceptor the fake server installs.
func Logging(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
	return h(ctx, req)
}

// startFake is test support by its parameter too: the interceptor literal it installs on a
// fake server runs for a test.
func startFake(t testing.TB) grpc.UnaryServerInterceptor {
	t.Helper()
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		return h(ctx, req)
	}
}

// replay is marked: a scope even in test support.
//
//deadlinelint:scope
func replay(ctx context.Context, msg []byte) error { // want `marked replay ctx=ctx`
	return nil
}

var _, _ = startFake, replay
