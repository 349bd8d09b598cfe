// Package compactor merges small blocks into larger ones and applies
// retention.
package compactor

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"

	"connectrpc.com/connect"

	"example.test/telemetry/gen/adminpb"
	"example.test/telemetry/gen/adminpb/adminpbconnect"
	"example.test/telemetry/gen/pushpb"
	"example.test/telemetry/gen/storegatewaypb"
	"example.test/telemetry/pkg/clientpool"
	"example.test/telemetry/pkg/storage/blockstore"
	"example.test/telemetry/pkg/storage/index"
	"example.test/telemetry/pkg/util/log"
	"example.test/telemetry/pkg/util/metrics"
)

var (
	compactions = metrics.NewCounter("compactor_runs_total")
	rewritten   = metrics.NewCounter("compactor_blocks_rewritten_total")
)

// Config configures the compactor.
type Config struct {
	Interval          time.Duration
	CompactionTimeout time.Duration
	StoreGatewayAddr  string
	AdminURL          string
	MaxBlocksPerRun   int
}

// Compactor merges blocks per tenant.
type Compactor struct {
	cfg   Config
	store *blockstore.Store
	gw    storegatewaypb.StoreGatewayClient
	admin adminpbconnect.AdminServiceClient

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// New returns a compactor. Its store-gateway connection bounds every call
// that has no deadline of its own.
func New(cfg Config, store *blockstore.Store) (*Compactor, error) {
	cc, err := clientpool.Dial(cfg.StoreGatewayAddr, 30*time.Second)
	if err != nil {
		return nil, err
	}
	return &Compactor{
		cfg:   cfg,
		store: store,
		gw:    storegatewaypb.NewStoreGatewayClient(cc),
		admin: adminpbconnect.NewAdminServiceClient(http.DefaultClient, cfg.AdminURL),
	}, nil
}

// Name implements services.Service.
func (c *Compactor) Name() string { return "compactor" }

// Start starts the compaction loop.
func (c *Compactor) Start(ctx context.Context) error {
	c.ctx, c.cancel = context.WithCancel(ctx)
	c.wg.Add(1)
	go c.loop()
	return nil
}

// Stop stops the loop and waits for the running compaction.
func (c *Compactor) Stop() error {
	if c.cancel != nil {
		c.cancel()
	}
	c.wg.Wait()
	if c.ctx != nil {
		ctx := context.WithoutCancel(c.ctx) // OK: detach — the component's own lifetime ctx, not a request's
		log.Info(ctx, "compactor stopped")
	}
	return nil
}

func (c *Compactor) loop() {
	defer c.wg.Done()
	t := time.NewTicker(c.cfg.Interval)
	defer t.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-t.C:
			c.runOnce()
		}
	}
}

func (c *Compactor) runOnce() {
	compactions.Add(c.ctx, 1)
	tenants, err := c.syncTenants()
	if err != nil {
		log.Warn(c.ctx, "listing tenants", "err", err)
		return
	}
	for _, org := range tenants {
		ctx, cancel := context.WithTimeout(c.ctx, c.cfg.CompactionTimeout)
		if err := c.CompactTenant(ctx, org); err != nil {
			log.Warn(ctx, "compaction failed", "org", org, "err", err)
		}
		cancel()
	}
}

// syncTenants returns the tenants that have blocks, busiest first.
func (c *Compactor) syncTenants() ([]string, error) {
	resp, err := c.admin.ListTenants(context.Background(), connect.NewRequest(&adminpb.ListTenantsRequest{})) // BUG: missingdeadline — connect unary call on a bare root from the compaction loop
	if err != nil {
		return nil, err
	}
	counts := map[string]int{}
	var out []string
	for _, t := range resp.Msg.GetTenants() {
		blocks, err := c.gw.ListBlocks(context.Background(), &storegatewaypb.ListBlocksRequest{Tenant: t.GetId()}) // OK: missingdeadline — the conn from clientpool.Dial sets a default deadline
		if err != nil {
			return nil, err
		}
		counts[t.GetId()] = len(blocks.GetBlocks())
		out = append(out, t.GetId())
	}
	sort.Slice(out, func(i, j int) bool { return counts[out[i]] > counts[out[j]] })
	return out, nil
}

// CompactTenant merges the tenant's smallest blocks into one.
func (c *Compactor) CompactTenant(ctx context.Context, org string) error {
	resp, err := c.gw.ListBlocks(ctx, &storegatewaypb.ListBlocksRequest{Tenant: org})
	if err != nil {
		return err
	}
	blocks := resp.GetBlocks()
	if len(blocks) < 2 {
		return nil
	}
	sort.Slice(blocks, func(i, j int) bool { return blocks[i].GetSizeBytes() < blocks[j].GetSizeBytes() })
	if n := c.cfg.MaxBlocksPerRun; n > 0 && len(blocks) > n {
		blocks = blocks[:n]
	}
	return c.merge(ctx, org, blocks, 2)
}

// RewriteTenant rewrites every block of the tenant from one format version to
// another.
func (c *Compactor) RewriteTenant(ctx context.Context, org string, from, to uint32) (uint32, error) {
	resp, err := c.gw.ListBlocks(ctx, &storegatewaypb.ListBlocksRequest{Tenant: org})
	if err != nil {
		return 0, err
	}
	var n uint32
	for _, b := range resp.GetBlocks() {
		if err := c.merge(ctx, org, []*storegatewaypb.Block{b}, int(to)); err != nil {
			return n, fmt.Errorf("rewriting %s (v%d→v%d): %w", b.GetId(), from, to, err)
		}
		n++
	}
	return n, nil
}

// DeleteTenantBlocks deletes every block of the tenant.
func (c *Compactor) DeleteTenantBlocks(ctx context.Context, org string) (uint32, error) {
	resp, err := c.gw.ListBlocks(ctx, &storegatewaypb.ListBlocksRequest{Tenant: org})
	if err != nil {
		return 0, err
	}
	ids := make([]string, 0, len(resp.GetBlocks()))
	for _, b := range resp.GetBlocks() {
		ids = append(ids, b.GetId())
	}
	del, err := c.gw.DeleteBlocks(ctx, &storegatewaypb.DeleteBlocksRequest{Tenant: org, BlockIds: ids})
	if err != nil {
		return 0, err
	}
	return del.GetDeleted(), nil
}

func (c *Compactor) merge(ctx context.Context, org string, blocks []*storegatewaypb.Block, version int) error {
	ids := make([]string, 0, len(blocks))
	merged := &blockstore.Block{Traces: map[string][]*pushpb.Span{}}
	meta := &index.Meta{BlockID: fmt.Sprintf("c-%d", time.Now().UnixNano()), Tenant: org, Version: version, Compaction: 1}
	for _, b := range blocks {
		ids = append(ids, b.GetId())
		blk, err := c.store.ReadBlock(ctx, org, b.GetId())
		if err != nil {
			return err
		}
		for k, spans := range blk.Traces {
			merged.Traces[k] = append(merged.Traces[k], spans...)
		}
		if meta.MinTime == 0 || b.GetMinTime() < meta.MinTime {
			meta.MinTime = b.GetMinTime()
		}
		meta.MaxTime = max(meta.MaxTime, b.GetMaxTime())
		meta.SizeBytes += b.GetSizeBytes()
	}
	if err := c.store.WriteBlock(ctx, meta, merged); err != nil {
		return err
	}
	if _, err := c.gw.DeleteBlocks(ctx, &storegatewaypb.DeleteBlocksRequest{Tenant: org, BlockIds: ids}); err != nil {
		return err
	}
	rewritten.Add(ctx, float64(len(ids)), org)
	return nil
}
