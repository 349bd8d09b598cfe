package xds

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"

	"example.test/mesh/gen/discoveryv1"
	"example.test/mesh/internal/store"
	"example.test/mesh/internal/telemetry"
)

// Server implements the aggregated discovery service.
type Server struct {
	discoveryv1.UnimplementedAggregatedDiscoveryServiceServer

	ctx    context.Context // server lifetime
	cache  *SnapshotCache
	gen    *Generator
	store  *store.Store
	status *statusTracker
	events *eventBus
	log    *telemetry.Logger
	nacks  *telemetry.Counter

	nextStream atomic.Int64

	mu       sync.Mutex
	rebuilds map[string]context.CancelFunc
}

// NewServer returns an ADS server; ctx is the server's lifetime.
func NewServer(ctx context.Context, cache *SnapshotCache, gen *Generator, st *store.Store, hooks []string) *Server {
	log := telemetry.NewLogger("xds")
	return &Server{
		ctx:      ctx,
		cache:    cache,
		gen:      gen,
		store:    st,
		status:   newStatusTracker(st, log),
		events:   &eventBus{hooks: hooks, client: &http.Client{}},
		log:      log,
		nacks:    telemetry.NewCounter("xds_nacks_total"),
		rebuilds: map[string]context.CancelFunc{},
	}
}

// Register registers the server.
func (s *Server) Register(g *grpc.Server) { discoveryv1.RegisterAggregatedDiscoveryServiceServer(g, s) }

// Start runs the server's background sweep of stale stream leases until its ctx is done.
func (s *Server) Start() {
	go func() {
		t := time.NewTicker(time.Minute)
		defer t.Stop()
		for {
			select {
			case <-s.ctx.Done():
				return
			case <-t.C:
				leases, _, err := s.store.List(s.ctx, "system", "StreamLease") // OK: ctxflow — the sweep is the server's own background work, not a request scope
				if err != nil {
					continue
				}
				for _, l := range leases {
					if l.Version > 1000 {
						_ = s.store.Delete(s.ctx, l.Key, l.Version)
					}
				}
			}
		}
	}()
}

// StopRebuild ends a node's rebuild loop.
func (s *Server) StopRebuild(node string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if stop, ok := s.rebuilds[node]; ok {
		stop()
		delete(s.rebuilds, node)
	}
}

func (s *Server) StreamAggregatedResources(stream discoveryv1.AggregatedDiscoveryService_StreamAggregatedResourcesServer) error {
	ctx := stream.Context()
	if ctx == nil {
		ctx = context.Background() // OK: ctxbackground — a nil-ctx fallback
	}
	for !s.cache.Ready() {
		if err := ctx.Err(); err != nil {
			return status.FromContextError(err).Err()
		}
		time.Sleep(100 * time.Millisecond) // OK: ctxless — every turn of the loop checks ctx.Err()
	}
	clusterID, err := s.store.ClusterID(context.Background()) // OK: ctxbackground — ClusterID queries once and keeps the id in an atomic field: first use of shared state
	if err != nil {
		return err
	}
	id := s.nextStream.Add(1)
	s.log.Info(s.ctx, "stream opened", "stream", id, "cluster", clusterID) // OK: ctxflow — the logger only reads the trace from the ctx

	reqs := make(chan *discoveryv1.DiscoveryRequest)
	errc := make(chan error, 1)
	go func() {
		for {
			req, err := stream.Recv()
			if err != nil {
				errc <- err
				return
			}
			select {
			case reqs <- req:
			case <-ctx.Done():
				return
			}
		}
	}()

	var node *discoveryv1.Node
	var mg *meshGen
	responses := make(chan *discoveryv1.DiscoveryResponse, 8)
	cancels := map[string]context.CancelFunc{}
	defer func() {
		for _, cancel := range cancels {
			cancel()
		}
		if node == nil {
			return
		}
		s.status.Set(ctx, node.GetId(), false)
		dctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // OK: ctxbackground — a bounded fresh ctx in deferred cleanup
		defer cancel()
		_ = s.store.Delete(dctx, store.Key{Mesh: "system", Type: "StreamLease", Name: node.GetId()}, 0)
	}()

	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-errc:
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		case resp := <-responses:
			if err := stream.Send(resp); err != nil {
				return err
			}
		case req := <-reqs:
			if node == nil {
				node = req.GetNode()
				s.status.Set(ctx, node.GetId(), true)           // OK: ctxbackground — the tracker writes on a goroutine it starts itself, shared by all streams
				mg, err = s.gen.ForMesh(ctx, node.GetCluster()) // OK: ctxbackground — the mesh's policies are loaded once, under the lock, into a map the generator keeps
				if err != nil {
					return err
				}
				s.mu.Lock()
				if stop, ok := s.rebuilds[node.GetId()]; ok {
					stop()
				}
				rctx, stop := context.WithCancel(s.ctx) // OK: ctxflow — a child of the server's ctx whose cancel the server keeps by node
				s.rebuilds[node.GetId()] = stop
				s.mu.Unlock()
				go s.rebuildLoop(rctx, node.GetId(), mg) // OK: ctxflow — the rebuild loop is the server's work, ended by StopRebuild
			}
			if req.GetErrorDetail() != nil {
				s.nacks.Add(ctx, 1, req.GetTypeUrl())
				s.reportNack(ctx, node.GetId(), req) // OK: ctxbackground — reportNack's root only starts a span; the event goes out on the request's detached ctx
				continue
			}
			typeURL := req.GetTypeUrl()
			if cancel, ok := cancels[typeURL]; ok {
				cancel()
			}
			wctx, cancel := context.WithCancel(ctx)
			cancels[typeURL] = cancel
			ch := s.cache.CreateWatch(wctx, node.GetId(), typeURL, req.GetVersionInfo())
			go forward(wctx, ch, responses)
		}
	}
}

func forward(ctx context.Context, in <-chan *discoveryv1.DiscoveryResponse, out chan<- *discoveryv1.DiscoveryResponse) {
	select {
	case resp := <-in:
		select {
		case out <- resp:
		case <-ctx.Done():
		}
	case <-ctx.Done():
	}
}

func (s *Server) reportNack(ctx context.Context, node string, req *discoveryv1.DiscoveryRequest) {
	_, span := telemetry.StartSpan(context.Background(), "xds.nack")
	span.SetAttr("node", node)
	span.SetAttr("type_url", req.GetTypeUrl())
	span.End()
	ev := event{Kind: "nack", Node: node, TypeURL: req.GetTypeUrl(), Detail: req.GetErrorDetail().GetMessage()}
	go s.events.Publish(context.WithoutCancel(ctx), ev)
	// ^BUG: detach — a helper the handler hands its request ctx to detaches it with neither a bound nor a reason
}

func (s *Server) rebuildLoop(ctx context.Context, node string, mg *meshGen) {
	t := time.NewTicker(30 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			policies, rev, err := s.store.List(ctx, mg.mesh, "TrafficPolicy")
			if err != nil {
				s.log.Warn(ctx, "rebuild", "node", node, "err", err)
				continue
			}
			s.gen.Update(mg.mesh, policies)
			snap := &Snapshot{Version: strings.TrimSpace(string(rune('0' + rev%10))), Resources: map[string][]*discoveryv1.Resource{}}
			snap.Resources[TypeTrafficPolicy] = mg.resources(TypeTrafficPolicy)
			s.cache.SetSnapshot(node, snap)
		}
	}
}

// TypeTrafficPolicy is the type URL of traffic policies.
const TypeTrafficPolicy = "type.mesh/TrafficPolicy"

func (s *Server) FetchResources(ctx context.Context, req *discoveryv1.DiscoveryRequest) (*discoveryv1.DiscoveryResponse, error) {
	ctx, span := telemetry.StartLinked(ctx, "xds.fetch") // BUG: ctxbackground — StartLinked (no doc comment) returns a span ctx rooted at Background; the handler then lists the store with it
	defer span.End()
	for !s.cache.Ready() {
		time.Sleep(50 * time.Millisecond) // BUG: ctxless — polls readiness and never checks the ctx
	}
	if resp, ok := s.cache.Fetch(req.GetNode().GetId(), req.GetTypeUrl()); ok {
		return resp, nil
	}
	items, _, err := s.store.List(ctx, req.GetNode().GetCluster(), strings.TrimPrefix(req.GetTypeUrl(), "type.mesh/"))
	if err != nil {
		return nil, err
	}
	resp := &discoveryv1.DiscoveryResponse{TypeUrl: req.GetTypeUrl()}
	for _, it := range items {
		resp.Resources = append(resp.Resources, &discoveryv1.Resource{Name: it.Name, TypeUrl: req.GetTypeUrl(), Body: it.Spec})
	}
	return resp, nil
}

type event struct {
	Kind    string `json:"kind"`
	Node    string `json:"node"`
	TypeURL string `json:"type_url"`
	Detail  string `json:"detail"`
}

// eventBus posts control-plane events to the configured webhooks.
type eventBus struct {
	hooks  []string
	client *http.Client
}

func (b *eventBus) Publish(ctx context.Context, ev event) {
	body, _ := json.Marshal(ev)
	for _, h := range b.hooks {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, h, bytes.NewReader(body))
		if err != nil {
			continue
		}
		if resp, err := b.client.Do(req); err == nil {
			resp.Body.Close()
		}
	}
}
