package matching

import (
	"context"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	matchingv1 "example.test/workflow/gen/matching/v1"
)

// forwarder sends tasks and polls to the parent partition.
type forwarder struct {
	mu    sync.Mutex
	conns map[string]*grpc.ClientConn
}

// conn dials addr on first use and keeps the connection for later requests.
func (f *forwarder) conn(ctx context.Context, addr string) (*grpc.ClientConn, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if cc, ok := f.conns[addr]; ok {
		return cc, nil
	}
	cc, err := grpc.DialContext(ctx, addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	f.conns[addr] = cc
	return cc, nil
}

func (f *forwarder) client(ctx context.Context, addr string) (matchingv1.MatchingServiceClient, error) {
	cc, err := f.conn(ctx, addr)
	if err != nil {
		return nil, err
	}
	return matchingv1.NewMatchingServiceClient(cc), nil
}

func parentOf(p int32) int32 { return (p - 1) / 2 }
