// Package streamsflag holds the calls of the package streams, run with -missingdeadline.streams:
// every stream opened with no deadline is reported.
package streamsflag

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
	items, _ := client.ListItems(context.Background(), &catalogpb.ListItemsRequest{Category: "books"}) // want `streaming RPC CatalogClient.ListItems has no deadline \(ctx from context.Background\(\)`
	_, _ = items.Recv()
	up, _ := client.UploadItems(context.Background()) // want `streaming RPC CatalogClient.UploadItems`
	_, _ = up.CloseAndRecv()
	chat, _ := client.Chat(context.Background()) // want `streaming RPC CatalogClient.Chat`
	_ = chat.Send(&catalogpb.ChatMessage{Text: "hi"})

	_, _ = client.GetItem(context.Background(), &catalogpb.GetItemRequest{}) // want `RPC CatalogClient.GetItem`
}

// legacy uses the per-method stream interfaces.
func legacy(client legacypb.LegacyClient) {
	w, _ := client.Watch(context.Background(), &legacypb.WatchRequest{Topic: "t"}) // want `streaming RPC LegacyClient.Watch`
	_, _ = w.Recv()
	u, _ := client.Upload(context.Background()) // want `streaming RPC LegacyClient.Upload`
	_, _ = u.CloseAndRecv()
	s, _ := client.Sync(context.Background()) // want `streaming RPC LegacyClient.Sync`
	_, _ = s.Recv()

	_, _ = client.Ping(context.Background(), &legacypb.PingRequest{}) // want `RPC LegacyClient.Ping`
}

// raw opens streams on the connection.
func raw(conn *grpc.ClientConn, cc grpc.ClientConnInterface) {
	desc := &grpc.StreamDesc{StreamName: "Watch", ServerStreams: true}
	_, _ = conn.NewStream(context.Background(), desc, "/legacy.v1.Legacy/Watch")             // want `streaming RPC ClientConn.NewStream`
	_, _ = cc.NewStream(context.Background(), desc, "/legacy.v1.Legacy/Watch")               // want `streaming RPC ClientConnInterface.NewStream`
	_, _ = grpc.NewClientStream(context.Background(), desc, conn, "/legacy.v1.Legacy/Watch") // want `streaming RPC grpc.NewClientStream`
}

// subscribe passes its ctx to a stream.
func subscribe(ctx context.Context, client catalogpb.CatalogClient) (grpc.ServerStreamingClient[catalogpb.Item], error) {
	return client.ListItems(ctx, &catalogpb.ListItemsRequest{})
}

func follow(client catalogpb.CatalogClient) {
	_, _ = subscribe(context.Background(), client) // want `streamsflag\.subscribe calls RPC CatalogClient\.ListItems with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
}

// greet uses a connect-go client.
func greet() {
	client := greetconnect.NewGreetServiceClient(http.DefaultClient, "http://greet:8080")
	_, _ = client.Greet(context.Background(), connect.NewRequest(&greetv1.GreetRequest{Name: "a"}))             // want `RPC GreetServiceClient.Greet`
	stream, _ := client.GreetStream(context.Background(), connect.NewRequest(&greetv1.GreetRequest{Name: "b"})) // want `streaming RPC GreetServiceClient.GreetStream`
	for stream.Receive() {
	}
}
