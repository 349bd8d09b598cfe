// Package streams opens long-lived streams with no deadline: not reported by default (a total
// deadline is the wrong tool for a stream), reported with -missingdeadline.streams (see the
// package streamsflag, which holds the same calls).
package streams

import (
	"context"
	"net/http"

	"connectrpc.com/connect"
	"example.com/gen/catalogpb"
	"example.com/gen/greetconnect"
	greetv1 "example.com/gen/greetv1"
	"example.com/gen/legacypb"
	"google.golang.org/grpc"
)

// watch follows the catalog with the generic stream shapes.
func watch(client catalogpb.CatalogClient) {
	ctx := context.Background()
	items, _ := client.ListItems(ctx, &catalogpb.ListItemsRequest{Category: "books"})
	_, _ = items.Recv()
	up, _ := client.UploadItems(ctx)
	_, _ = up.CloseAndRecv()
	chat, _ := client.Chat(ctx)
	_ = chat.Send(&catalogpb.ChatMessage{Text: "hi"})

	_, _ = client.GetItem(ctx, &catalogpb.GetItemRequest{}) // want `RPC CatalogClient.GetItem`
}

// legacy uses the per-method stream interfaces.
func legacy(client legacypb.LegacyClient) {
	ctx := context.Background()
	w, _ := client.Watch(ctx, &legacypb.WatchRequest{Topic: "t"})
	_, _ = w.Recv()
	u, _ := client.Upload(ctx)
	_, _ = u.CloseAndRecv()
	s, _ := client.Sync(ctx)
	_, _ = s.Recv()

	_, _ = client.Ping(ctx, &legacypb.PingRequest{}) // want `RPC LegacyClient.Ping`
}

// raw opens streams on the connection.
func raw(conn *grpc.ClientConn, cc grpc.ClientConnInterface) {
	desc := &grpc.StreamDesc{StreamName: "Watch", ServerStreams: true}
	_, _ = conn.NewStream(context.Background(), desc, "/legacy.v1.Legacy/Watch")
	_, _ = cc.NewStream(context.Background(), desc, "/legacy.v1.Legacy/Watch")
	_, _ = grpc.NewClientStream(context.Background(), desc, conn, "/legacy.v1.Legacy/Watch")
}

// subscribe only streams: it needs no deadline from its callers.
func subscribe(ctx context.Context, client catalogpb.CatalogClient) (grpc.ServerStreamingClient[catalogpb.Item], error) {
	return client.ListItems(ctx, &catalogpb.ListItemsRequest{})
}

func follow(client catalogpb.CatalogClient) {
	_, _ = subscribe(context.Background(), client)
}

// greet uses a connect-go client: the unary call is reported, the stream is not.
func greet() {
	client := greetconnect.NewGreetServiceClient(http.DefaultClient, "http://greet:8080")
	ctx := context.Background()
	_, _ = client.Greet(ctx, connect.NewRequest(&greetv1.GreetRequest{Name: "a"})) // want `RPC GreetServiceClient.Greet`
	stream, _ := client.GreetStream(ctx, connect.NewRequest(&greetv1.GreetRequest{Name: "b"}))
	for stream.Receive() {
	}
}
