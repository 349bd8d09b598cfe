// Package storegateway serves long-term blocks from the object store to
// queriers and the compactor.
package storegateway

import (
	"context"
	"errors"
	"path"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/telemetry/gen/storegatewaypb"
	"example.test/telemetry/pkg/objstore"
	"example.test/telemetry/pkg/storage/index"
	"example.test/telemetry/pkg/util/log"
	"example.test/telemetry/pkg/util/metrics"
	"example.test/telemetry/pkg/util/tracing"
)

var (
	fetchedBytes  = metrics.NewCounter("storegateway_fetched_bytes_total")
	deletedBlocks = metrics.NewCounter("storegateway_deleted_blocks_total")
)

// StoreGateway implements storegatewaypb.StoreGatewayServer.
type StoreGateway struct {
	storegatewaypb.UnimplementedStoreGatewayServer

	bucket *objstore.HTTPBucket
	index  *index.Reader
	cache  objstore.Bucket

	throttle time.Duration

	mu            sync.Mutex
	bucketVersion string
}

// New returns a store-gateway over bucket; cache holds fetched chunks.
func New(bucket *objstore.HTTPBucket, cache objstore.Bucket) *StoreGateway {
	return &StoreGateway{bucket: bucket, index: index.NewReader(bucket), cache: cache, throttle: 5 * time.Millisecond}
}

// Register registers the store-gateway service on s.
func (g *StoreGateway) Register(s *grpc.Server) { storegatewaypb.RegisterStoreGatewayServer(s, g) }

func toProto(m *index.Meta) *storegatewaypb.Block {
	return &storegatewaypb.Block{Id: m.BlockID, Tenant: m.Tenant, MinTime: m.MinTime, MaxTime: m.MaxTime, SizeBytes: m.SizeBytes}
}

// ListBlocks implements storegatewaypb.StoreGatewayServer.
func (g *StoreGateway) ListBlocks(ctx context.Context, req *storegatewaypb.ListBlocksRequest) (*storegatewaypb.ListBlocksResponse, error) {
	ids, err := g.index.Blocks(ctx, req.GetTenant()) // BUG: ctxbackground — index.Reader.Blocks iterates the bucket on context.Background()
	if err != nil {
		return nil, status.Errorf(codes.Internal, "list blocks: %v", err) // OK: statusmask — Blocks never refers to the ctx it is given
	}
	resp := &storegatewaypb.ListBlocksResponse{}
	for _, id := range ids {
		m, err := g.index.Meta(ctx, req.GetTenant(), id)
		if err != nil {
			if ctx.Err() != nil {
				return nil, status.FromContextError(ctx.Err()).Err()
			}
			log.Warn(ctx, "skipping block without meta", "block", id, "err", err)
			continue
		}
		resp.Blocks = append(resp.Blocks, toProto(m))
	}
	tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second) // OK: detach — bounded; -detach.strict=false asks for a bound or a reason
	defer cancel()
	_ = g.cache.Upload(tctx, path.Join(req.GetTenant(), "last-listed"), []byte(time.Now().UTC().Format(time.RFC3339)))
	return resp, nil
}

// Fetch implements storegatewaypb.StoreGatewayServer.
func (g *StoreGateway) Fetch(ctx context.Context, req *storegatewaypb.FetchRequest) (*storegatewaypb.FetchResponse, error) {
	if g.bucketVersion == "" {
		g.mu.Lock()
		g.bucketVersion = g.probeVersion(context.Background()) // OK: ctxbackground — first use of server state the handler then sets
		g.mu.Unlock()
	}
	ctx, span := tracing.StartLinked(ctx, "storegateway.Fetch") // BUG: ctxbackground — StartLinked (only a TODO for a doc) returns a fresh root the fetch then runs on
	defer span.End()
	key := path.Join(req.GetTenant(), req.GetBlockId(), "data.json")
	if data, err := g.cache.Get(ctx, key); err == nil {
		return &storegatewaypb.FetchResponse{Data: data}, nil
	}
	data, err := g.bucket.Get(ctx, key)
	if err != nil {
		if errors.Is(err, objstore.ErrObjectNotFound) {
			return nil, status.Errorf(codes.NotFound, "block %s: %v", req.GetBlockId(), err) // OK: statusmask — the errors.Is branch where the sentinel holds
		}
		return nil, status.Errorf(codes.Internal, "fetch %s: %v", req.GetBlockId(), err) // OK: statusmask — ctx is a fresh root here (ctxbackground reports it)
	}
	fetchedBytes.Add(ctx, float64(len(data)), req.GetTenant())
	// Fill the chunk cache for the next reader; it must not hold up this one.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second) // OK: detach — bounded, with a reason above
	go func() {
		defer cancel()
		_ = g.cache.Upload(cctx, key, data)
	}()
	return &storegatewaypb.FetchResponse{Data: data}, nil
}

// probeVersion asks the bucket which layout version it holds.
func (g *StoreGateway) probeVersion(ctx context.Context) string {
	data, err := g.bucket.Get(ctx, "layout_version")
	if err != nil {
		return "v1"
	}
	return string(data)
}

// DeleteBlocks implements storegatewaypb.StoreGatewayServer.
func (g *StoreGateway) DeleteBlocks(ctx context.Context, req *storegatewaypb.DeleteBlocksRequest) (*storegatewaypb.DeleteBlocksResponse, error) {
	var deleted uint32
	for _, id := range req.GetBlockIds() {
		metaPath := path.Join(req.GetTenant(), id, "meta.json")
		exists, err := g.bucket.Head(metaPath) // BUG: ctxless ALSO: ctxbackground — HeadContext exists and does the work; Head runs it on its own root
		if err != nil || !exists {
			continue
		}
		for _, name := range []string{metaPath, path.Join(req.GetTenant(), id, "data.json")} {
			if err := g.bucket.Delete(ctx, name); err != nil {
				if errors.Is(err, objstore.ErrObjectNotFound) {
					continue
				}
				return nil, status.Errorf(codes.Internal, "delete %s: %v", name, err) // BUG: statusmask — past the sentinel check a deadline still becomes Internal
			}
		}
		deleted++
		deletedBlocks.Add(ctx, 1, req.GetTenant())
	}
	g.index.Forget(req.GetTenant())
	//deadlinelint:detach the deletion record must be written once blocks are gone, even if the caller left
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second) // OK: detach — directive with a reason, and bounded
	defer cancel()
	if err := g.cache.Upload(dctx, path.Join(req.GetTenant(), "deleted", time.Now().UTC().Format(time.RFC3339)), nil); err != nil {
		log.Warn(ctx, "recording deletion", "err", err)
	}
	return &storegatewaypb.DeleteBlocksResponse{Deleted: deleted}, nil
}

// StreamBlocks implements storegatewaypb.StoreGatewayServer.
func (g *StoreGateway) StreamBlocks(req *storegatewaypb.ListBlocksRequest, stream grpc.ServerStreamingServer[storegatewaypb.Block]) error {
	ctx := stream.Context()
	ids, err := g.index.Blocks(ctx, req.GetTenant()) // OK: ctxbackground — same root as ListBlocks: one finding per root and package, at the first call
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := g.index.Meta(ctx, req.GetTenant(), id)
		if err != nil {
			continue
		}
		if err := stream.Send(toProto(m)); err != nil {
			return err
		}
		time.Sleep(g.throttle) // OK: ctxless — every turn of the loop checks ctx.Err() first
	}
	return nil
}
