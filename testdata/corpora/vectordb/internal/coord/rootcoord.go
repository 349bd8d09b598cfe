package coord

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/conc"
	"example.test/vectordb/internal/grpcx"
	"example.test/vectordb/internal/lifecycle"
	"example.test/vectordb/internal/log"
	"example.test/vectordb/internal/storage"
)

// RootCoord owns collections, ids, timestamps and credentials.
type RootCoord struct {
	vdbpb.UnimplementedRootCoordServer
	*lifecycle.Base

	kv     *storage.MetaKV
	meta   *metaTable
	ids    *idAllocator
	tso    *tso
	creds  *sql.DB
	events *eventBus

	ctx    context.Context
	cancel context.CancelFunc
}

// NewRootCoord returns a root coordinator over kv.
func NewRootCoord(kv *storage.MetaKV) *RootCoord {
	return &RootCoord{
		Base:   lifecycle.NewBase("rootcoord"),
		kv:     kv,
		meta:   newMetaTable(kv),
		ids:    &idAllocator{kv: kv, block: 10000},
		tso:    &tso{},
		creds:  kv.DB(),
		events: &eventBus{},
	}
}

// Start checks the meta store is reachable and marks the coordinator ready.
func (s *RootCoord) Start() error {
	s.ctx, s.cancel = context.WithCancel(context.Background()) // OK: ctxbackground — Start: the component's lifetime, not a request scope
	err := conc.Retry(s.ctx, 5, 200*time.Millisecond, func(ctx context.Context) error {
		_, err := s.meta.ClusterID(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.tso.last.Store(uint64(time.Now().UnixMilli()) << 18)
	s.SetState(lifecycle.Healthy)
	return nil
}

// Stop ends the coordinator.
func (s *RootCoord) Stop() error {
	s.SetState(lifecycle.Stopping)
	if s.cancel != nil {
		s.cancel()
	}
	s.SetState(lifecycle.Stopped)
	return nil
}

func (s *RootCoord) CreateCollection(ctx context.Context, req *vdbpb.CreateCollectionRequest) (*vdbpb.Status, error) {
	if req.GetDim() <= 0 {
		return nil, status.Error(codes.InvalidArgument, "dim must be positive")
	}
	id, err := s.ids.Alloc(ctx, 1)
	if err != nil {
		return nil, grpcx.Status(err) // OK: statusmask — the module's mapping helper keeps deadline codes
	}
	info := &vdbpb.CollectionInfo{Id: id, Name: req.GetName(), Db: req.GetDb(), Dim: req.GetDim(), CreatedTs: int64(s.tso.Next(1))}
	for i := int32(0); i < max(req.GetShards(), 1); i++ {
		info.Vchannels = append(info.Vchannels, channelName(id, i))
	}
	if err := s.meta.AddCollection(ctx, info); err != nil {
		if errors.Is(err, errExists) {
			return nil, status.Errorf(codes.AlreadyExists, "create collection: %v", err) // OK: statusmask — inside the branch where the module's sentinel holds: not a deadline
		}
		return nil, grpcx.Status(err)
	}
	if err := s.events.publish(ctx, "create", info); err != nil {
		// Undo the meta write before failing, whether or not the caller is still there.
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK: ctxbackground — bounded cleanup on the way out of a failure the handler returns
		defer cancel()
		_ = s.meta.DropCollection(cctx, info)
		return nil, grpcx.Status(err)
	}
	log.Ctx(ctx).Info("collection created", log.String("name", info.GetName()), log.Int64("id", id)) // OK: ctxless — Logger.InfoContext only reads the trace id from its ctx
	return &vdbpb.Status{}, nil
}

func (s *RootCoord) DescribeCollection(ctx context.Context, req *vdbpb.DescribeCollectionRequest) (*vdbpb.DescribeCollectionResponse, error) {
	info, err := s.meta.GetCollectionByName(ctx, req.GetDb(), req.GetName())
	if err != nil {
		if strings.Contains(err.Error(), "not found") {
			return nil, status.Errorf(codes.NotFound, "describe collection %s: %v", req.GetName(), err) // OK: statusmask — only where the text says "not found", which a deadline's text does not
		}
		return nil, status.Errorf(codes.Internal, "describe collection %s: %v", req.GetName(), err) // BUG: statusmask — a kv deadline of the request becomes Internal
	}
	return &vdbpb.DescribeCollectionResponse{Status: &vdbpb.Status{}, Info: info}, nil
}

func (s *RootCoord) ShowCollections(ctx context.Context, req *vdbpb.ShowCollectionsRequest) (*vdbpb.ShowCollectionsResponse, error) {
	keys, err := s.kv.Keys(collectionPrefix(req.GetDb())) // BUG: ctxbackground — MetaKV.Keys runs the SQL query on context.TODO()
	if err != nil {
		return nil, status.Errorf(codes.Internal, "list collections: %v", err) // OK: statusmask — Keys is not given the request's ctx
	}
	resp := &vdbpb.ShowCollectionsResponse{Status: &vdbpb.Status{}}
	for _, k := range keys {
		name := k[strings.LastIndex(k, "/")+1:]
		info, err := s.meta.GetCollectionByName(ctx, req.GetDb(), name)
		if err != nil {
			return nil, grpcx.Status(err)
		}
		resp.Names = append(resp.Names, name)
		resp.Ids = append(resp.Ids, info.GetId())
	}
	return resp, nil
}

func (s *RootCoord) AllocID(ctx context.Context, req *vdbpb.AllocIDRequest) (*vdbpb.AllocIDResponse, error) {
	begin, err := s.ids.Alloc(ctx, int64(req.GetCount()))
	if err != nil {
		return nil, grpcx.Status(err)
	}
	return &vdbpb.AllocIDResponse{Status: &vdbpb.Status{}, Begin: begin, Count: req.GetCount()}, nil
}

func (s *RootCoord) AllocTimestamp(ctx context.Context, req *vdbpb.AllocTimestampRequest) (*vdbpb.AllocTimestampResponse, error) {
	log.Ctx(s.ctx).Debug("alloc timestamp", log.Int("count", int(req.GetCount()))) // OK: ctxflow — the server's ctx only carries values to the logger
	return &vdbpb.AllocTimestampResponse{Status: &vdbpb.Status{}, Timestamp: s.tso.Next(max(req.GetCount(), 1))}, nil
}

func (s *RootCoord) GetCredential(ctx context.Context, req *vdbpb.GetCredentialRequest) (*vdbpb.GetCredentialResponse, error) {
	row := s.creds.QueryRow(`SELECT password_hash FROM credentials WHERE username = ?`, req.GetUsername()) // BUG: ctxless — QueryRowContext exists
	var hash string
	if err := row.Scan(&hash); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, status.Errorf(codes.NotFound, "user %s not found", req.GetUsername())
		}
		return nil, status.Errorf(codes.Internal, "read credential: %v", err) // OK: statusmask — the query was not given the request's ctx (ctxless reports the call)
	}
	return &vdbpb.GetCredentialResponse{Status: &vdbpb.Status{}, Username: req.GetUsername(), PasswordHash: hash}, nil
}

func (s *RootCoord) WatchCollections(req *vdbpb.WatchCollectionsRequest, stream vdbpb.RootCoord_WatchCollectionsServer) error {
	ctx := stream.Context()
	for ev := range s.events.subscribe(ctx) {
		if req.GetDb() != "" && ev.GetInfo().GetDb() != req.GetDb() {
			continue
		}
		if err := stream.Send(ev); err != nil {
			return err
		}
	}
	return ctx.Err()
}

func channelName(collID int64, shard int32) string {
	return fmt.Sprintf("by-dev-rootcoord-dml_%d_%dv", collID, shard)
}

// eventBus fans collection events out to watchers.
type eventBus struct {
	mu   sync.Mutex
	subs []chan *vdbpb.CollectionEvent
}

func (b *eventBus) publish(ctx context.Context, kind string, info *vdbpb.CollectionInfo) error {
	ev := &vdbpb.CollectionEvent{Kind: kind, Info: info}
	b.mu.Lock()
	subs := append([]chan *vdbpb.CollectionEvent(nil), b.subs...)
	b.mu.Unlock()
	for _, ch := range subs {
		select {
		case ch <- ev:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// subscribe returns a channel of events, closed when ctx is done.
func (b *eventBus) subscribe(ctx context.Context) <-chan *vdbpb.CollectionEvent {
	ch := make(chan *vdbpb.CollectionEvent, 16)
	b.mu.Lock()
	b.subs = append(b.subs, ch)
	b.mu.Unlock()
	go func() {
		<-ctx.Done()
		b.mu.Lock()
		defer b.mu.Unlock()
		for i, c := range b.subs {
			if c == ch {
				b.subs = append(b.subs[:i], b.subs[i+1:]...)
				break
			}
		}
		close(ch)
	}()
	return ch
}
