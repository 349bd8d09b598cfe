package xds

import (
	"context"
	"sync"
	"time"

	"example.test/mesh/gen/discoveryv1"
	"example.test/mesh/internal/store"
)

// subscription tracks what a delta stream's proxy subscribed to, and expires
// resources it has not asked for in a while.
type subscription struct {
	node string

	mu    sync.Mutex
	names map[string]time.Time

	ctx    context.Context
	cancel context.CancelFunc
}

func newSubscription(node string, names []string) *subscription {
	sub := &subscription{node: node, names: map[string]time.Time{}}
	for _, n := range names {
		sub.names[n] = time.Now()
	}
	return sub
}

// Run starts the subscription's expiry; Stop ends it.
func (sub *subscription) Run(ctx context.Context) {
	sub.ctx, sub.cancel = context.WithCancel(ctx)
	go sub.expireLoop()
}

// Stop ends the subscription.
func (sub *subscription) Stop() {
	if sub.cancel != nil {
		sub.cancel()
	}
}

func (sub *subscription) expireLoop() {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-sub.ctx.Done():
			return
		case now := <-t.C:
			sub.mu.Lock()
			for n, at := range sub.names {
				if now.Sub(at) > 10*time.Minute {
					delete(sub.names, n)
				}
			}
			sub.mu.Unlock()
		}
	}
}

func (sub *subscription) apply(req *discoveryv1.DeltaDiscoveryRequest) {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	for _, n := range req.GetResourceNamesSubscribe() {
		sub.names[n] = time.Now()
	}
	for _, n := range req.GetResourceNamesUnsubscribe() {
		delete(sub.names, n)
	}
}

func (sub *subscription) delta(resp *discoveryv1.DiscoveryResponse) *discoveryv1.DeltaDiscoveryResponse {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	out := &discoveryv1.DeltaDiscoveryResponse{SystemVersionInfo: resp.GetVersionInfo(), TypeUrl: resp.GetTypeUrl(), Nonce: resp.GetNonce()}
	for _, r := range resp.GetResources() {
		if len(sub.names) == 0 {
			out.Resources = append(out.Resources, r)
			continue
		}
		if _, ok := sub.names[r.GetName()]; ok {
			out.Resources = append(out.Resources, r)
		}
	}
	return out
}

func (s *Server) DeltaAggregatedResources(stream discoveryv1.AggregatedDiscoveryService_DeltaAggregatedResourcesServer) error {
	ctx := stream.Context()
	first, err := stream.Recv()
	if err != nil {
		return err
	}
	node := first.GetNode().GetId()
	typeURL := first.GetTypeUrl()
	s.log.Debug(context.TODO(), "delta stream opened", "node", node, "type", typeURL) // OK: ctxbackground — a root used only to log with
	sub := newSubscription(node, first.GetResourceNamesSubscribe())
	sub.Run(s.ctx) // OK: ctxflow — Run only makes the subscription's lifetime from it and keeps the cancel for Stop
	defer sub.Stop()

	reqs := make(chan *discoveryv1.DeltaDiscoveryRequest)
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

	version := ""
	for {
		updates := s.cache.CreateWatch(s.ctx, node, typeURL, version) // BUG: ctxflow — the watch lives on the server's ctx: it stays registered long after the proxy left
		select {
		case <-ctx.Done():
			kctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // OK?: ctxbackground — runs only once the stream's ctx is done (its select case), but made in the handler itself, where the catalogue lists only deferred and failure-branch cleanup
			_ = s.store.Delete(kctx, store.Key{Mesh: "system", Type: "DeltaCursor", Name: node}, 0)
			cancel()
			return ctx.Err()
		case err := <-errc:
			return err
		case req := <-reqs:
			if req.GetErrorDetail() != nil {
				s.nacks.Add(ctx, 1, typeURL)
				continue
			}
			sub.apply(req)
		case resp := <-updates:
			version = resp.GetVersionInfo()
			if err := stream.Send(sub.delta(resp)); err != nil {
				return err
			}
		}
	}
}
