package fix

import (
	"context"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

// Chat's file names package context only in its root: replacing the root with
// stream.Context() would leave the import unused, so no fix is offered (this file has no
// golden), while ListItems in fix.go, whose file names the package elsewhere, gets one.
func (s *Server) Chat(stream grpc.BidiStreamingServer[catalogpb.ChatMessage, catalogpb.ChatMessage]) error {
	_, err := load(context.Background(), "chat") // want `context.Background\(\) in handler Server.Chat drops the caller's deadline and cancellation; pass stream.Context\(\)`
	return err
}
