package rpcx

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	inventoryv1 "example.test/mature/gen/inventory/v1"
	"example.test/mature/internal/platform/authn"
)

type fakeVerifier struct{}

func (fakeVerifier) Verify(_ context.Context, tok string) (authn.Claims, error) {
	if tok != "good" {
		return authn.Claims{}, errors.New("bad token")
	}
	return authn.Claims{Subject: "tester", Expires: time.Now().Add(time.Hour)}, nil
}

type echoInventory struct {
	inventoryv1.UnimplementedInventoryServiceServer
}

func (echoInventory) GetItem(ctx context.Context, req *inventoryv1.GetItemRequest) (*inventoryv1.GetItemResponse, error) {
	c, _ := ClaimsFrom(ctx)
	return &inventoryv1.GetItemResponse{Item: &inventoryv1.Item{Sku: req.GetSku(), Name: c.Subject}}, nil
}

func startServer(t *testing.T) inventoryv1.InventoryServiceClient {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	gs := grpc.NewServer(grpc.ChainUnaryInterceptor(
		UnaryRecover(slog.New(slog.NewTextHandler(io.Discard, nil))),
		UnaryDeadlineCap(time.Second),
		UnaryAuth(fakeVerifier{}),
	))
	inventoryv1.RegisterInventoryServiceServer(gs, echoInventory{})
	go func() { _ = gs.Serve(lis) }()
	t.Cleanup(gs.Stop)
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
	)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return inventoryv1.NewInventoryServiceClient(conn)
}

func TestUnaryAuth(t *testing.T) {
	client := startServer(t)

	_, err := client.GetItem(context.Background(), &inventoryv1.GetItemRequest{Sku: "a"}) // OK
	if status.Code(err) != codes.Unauthenticated {
		t.Fatalf("without token: got %v, want Unauthenticated", err)
	}

	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer good") // OK
	resp, err := client.GetItem(ctx, &inventoryv1.GetItemRequest{Sku: "a"})                       // OK
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.GetItem().GetName(); got != "tester" {
		t.Fatalf("claims not propagated: name = %q", got)
	}
}

func TestProbe(t *testing.T) {
	slow := func(ctx context.Context, _ any) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	start := time.Now()
	if err := Probe(slow, nil, 20*time.Millisecond); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Probe = %v, want DeadlineExceeded", err)
	}
	time.Sleep(5 * time.Millisecond) // OK
	if time.Since(start) > time.Second {
		t.Fatal("Probe did not honour its budget")
	}
}
