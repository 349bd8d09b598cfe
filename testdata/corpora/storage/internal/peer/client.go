package peer

import (
	"context"
	"time"

	"example.test/storage/gen/storagepb"
)

// MetaClient is the service's client library for the meta service. Every
// call it makes is bounded by its timeout.
type MetaClient struct {
	rpc     storagepb.MetaServiceClient
	timeout time.Duration
}

// NewMetaClient wraps rpc.
func NewMetaClient(rpc storagepb.MetaServiceClient, timeout time.Duration) *MetaClient {
	return &MetaClient{rpc: rpc, timeout: timeout}
}

// NextID allocates one id.
func (c *MetaClient) NextID(ctx context.Context) (uint64, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	resp, err := c.rpc.AllocID(ctx, &storagepb.AllocIDRequest{Count: 1})
	if err != nil {
		return 0, err
	}
	return resp.GetFirst(), nil
}

// SafePoint returns the cluster's GC safe point.
func (c *MetaClient) SafePoint(ctx context.Context) (uint64, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	resp, err := c.rpc.GetGCSafePoint(ctx, &storagepb.GetGCSafePointRequest{})
	return resp.GetSafePoint(), err
}

// StoreClient is a thin client of one storage node.
type StoreClient struct {
	rpc storagepb.StoreServiceClient
}

// NewStoreClient wraps rpc.
func NewStoreClient(rpc storagepb.StoreServiceClient) *StoreClient { return &StoreClient{rpc: rpc} }

// Health checks that the node answers reads.
func (c *StoreClient) Health() error {
	return c.HealthContext(context.Background())
}

// HealthContext checks that the node answers reads.
func (c *StoreClient) HealthContext(ctx context.Context) error {
	_, err := c.rpc.Get(ctx, &storagepb.GetRequest{Key: []byte("\x00health")})
	return err
}

// Raw returns the generated client.
func (c *StoreClient) Raw() storagepb.StoreServiceClient { return c.rpc }
