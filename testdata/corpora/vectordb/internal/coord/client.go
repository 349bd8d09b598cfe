package coord

import (
	"context"
	"time"

	"google.golang.org/grpc"

	"example.test/vectordb/gen/vdbpb"
)

// QueryCoordClient is the module's client of the query coordinator: it
// bounds every call with the client's timeout.
type QueryCoordClient struct {
	raw     vdbpb.QueryCoordClient
	timeout time.Duration
}

var _ vdbpb.QueryCoordClient = (*QueryCoordClient)(nil)

// NewQueryCoordClient returns a bounded client over cc.
func NewQueryCoordClient(cc grpc.ClientConnInterface, timeout time.Duration) *QueryCoordClient {
	return &QueryCoordClient{raw: vdbpb.NewQueryCoordClient(cc), timeout: timeout}
}

func (c *QueryCoordClient) LoadCollection(ctx context.Context, in *vdbpb.LoadCollectionRequest, opts ...grpc.CallOption) (*vdbpb.Status, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	return c.raw.LoadCollection(ctx, in, opts...)
}

func (c *QueryCoordClient) ReleaseCollection(ctx context.Context, in *vdbpb.ReleaseCollectionRequest, opts ...grpc.CallOption) (*vdbpb.Status, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	return c.raw.ReleaseCollection(ctx, in, opts...)
}

func (c *QueryCoordClient) GetShardLeaders(ctx context.Context, in *vdbpb.GetShardLeadersRequest, opts ...grpc.CallOption) (*vdbpb.GetShardLeadersResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	return c.raw.GetShardLeaders(ctx, in, opts...)
}
