package server

import (
	"context"
	"net"
	"os"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	loyaltyv1 "example.test/legacy/gen/loyalty/v1"
	"example.test/legacy/internal/db"
)

func TestIsMutation(t *testing.T) {
	cases := map[string]bool{
		"/loyalty.v1.LoyaltyService/GetMember":          false,
		"/loyalty.v1.LoyaltyService/ListTransactions":   false,
		"/loyalty.v1.LoyaltyService/EarnPoints":         true,
		"/loyalty.v1.LoyaltyService/StreamTransactions": false,
		"/rewards.v1.RewardsService/GrantReward":        true,
	}
	for m, want := range cases {
		if got := isMutation(m); got != want {
			t.Errorf("isMutation(%s) = %v, want %v", m, got, want)
		}
	}
}

func TestRank(t *testing.T) {
	if rank("gold") <= rank("silver") || rank("basic") != 0 {
		t.Fatal("tier ranks are out of order")
	}
}

// TestGetMemberIntegration needs a database with the schema loaded.
func TestGetMemberIntegration(t *testing.T) {
	dsn := os.Getenv("LOYALTY_TEST_DSN")
	if dsn == "" {
		t.Skip("LOYALTY_TEST_DSN not set")
	}
	if err := db.Open(dsn); err != nil {
		t.Fatal(err)
	}
	lis := bufconn.Listen(1 << 20)
	g := grpc.NewServer(grpc.UnaryInterceptor(UnaryInterceptor))
	srv := NewServer(db.DB, nil)
	defer srv.Close()
	loyaltyv1.RegisterLoyaltyServiceServer(g, srv)
	go func() { _ = g.Serve(lis) }()
	defer g.Stop()

	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := loyaltyv1.NewLoyaltyServiceClient(conn)

	m, err := client.EnrollMember(context.Background(), &loyaltyv1.EnrollMemberRequest{Email: "test+" + newID() + "@example.com", Name: "Test"}) // OK
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // OK

	got, err := client.GetMember(context.Background(), &loyaltyv1.GetMemberRequest{MemberId: m.GetId()}) // OK
	if err != nil {
		t.Fatal(err)
	}
	if got.GetEmail() != m.GetEmail() {
		t.Fatalf("email = %q, want %q", got.GetEmail(), m.GetEmail())
	}
}
