// Package runtimedeadlines is a client of the runtime companion's default-deadline interceptor:
// its calls on a connection built with it have a deadline; its calls on one built without it,
// or with the server interceptor by mistake, do not. The package lives here, but it is analysed
// by TestRuntimeDeadlines beside the interceptor's real source.
package runtimedeadlines

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/deadlinelint/deadlinelint/runtime/deadlines"
)

func creds() grpc.DialOption { return grpc.WithTransportCredentials(insecure.NewCredentials()) }

func withDefault() {
	cc, _ := grpc.NewClient("catalog:443", creds(), grpc.WithUnaryInterceptor(deadlines.UnaryClientInterceptor(2*time.Second)))
	_, _ = catalogpb.NewCatalogClient(cc).GetItem(context.Background(), &catalogpb.GetItemRequest{}) // the interceptor sets a deadline
}

func inChain(logging grpc.UnaryClientInterceptor) {
	cc, _ := grpc.NewClient("catalog:443", creds(), grpc.WithChainUnaryInterceptor(logging, deadlines.UnaryClientInterceptor(time.Second)))
	_ = cc.Invoke(context.Background(), "/catalog.v1.Catalog/GetItem", nil, nil) // the interceptor sets a deadline
}

func without() {
	cc, _ := grpc.NewClient("catalog:443", creds())
	_, _ = catalogpb.NewCatalogClient(cc).GetItem(context.Background(), &catalogpb.GetItemRequest{}) // want `RPC CatalogClient.GetItem has no deadline`
}
