package agent

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/mesh/gen/discoveryv1"
	"example.test/mesh/internal/clientx"
	"example.test/mesh/internal/telemetry"
)

// LocalADS serves the sidecar's discovery streams on the node and proxies them to the
// control plane.
type LocalADS struct {
	discoveryv1.UnimplementedAggregatedDiscoveryServiceServer

	upstream     discoveryv1.AggregatedDiscoveryServiceClient
	upstreamAddr string
	pool         *clientx.Pool
	life         *Lifetime
	log          *telemetry.Logger

	mu   sync.Mutex
	subs map[*upstreamSub]struct{}
}

type upstreamSub struct {
	cancel context.CancelFunc
}

// Close ends the subscription's upstream stream.
func (u *upstreamSub) Close() { u.cancel() }

func (a *Agent) serveLocal(ctx context.Context) error {
	lis, err := net.Listen("tcp", a.cfg.LocalADS)
	if err != nil {
		return err
	}
	g := grpc.NewServer()
	p := &LocalADS{upstream: a.ads, upstreamAddr: a.cfg.ControlPlane, pool: clientx.NewPool(), life: a.life, log: a.log, subs: map[*upstreamSub]struct{}{}}
	discoveryv1.RegisterAggregatedDiscoveryServiceServer(g, p)
	go func() {
		<-ctx.Done()
		g.GracefulStop()
		p.closeAll()
		_ = p.pool.Close()
	}()
	return g.Serve(lis)
}

func (p *LocalADS) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for s := range p.subs {
		s.Close()
	}
}

func (p *LocalADS) StreamAggregatedResources(down discoveryv1.AggregatedDiscoveryService_StreamAggregatedResourcesServer) error {
	ctx := down.Context()
	p.log.Info(p.life.Context(), "sidecar stream opened")             // OK: ctxflow — the logger only reads values from the ctx
	up, err := p.upstream.StreamAggregatedResources(p.life.Context()) // BUG: ctxflow — the upstream stream hangs on the agent's lifetime: it keeps running after the sidecar's stream ended
	if err != nil {
		return err
	}
	errc := make(chan error, 2)
	go func() {
		for {
			req, err := down.Recv()
			if err != nil {
				errc <- err
				return
			}
			if err := up.Send(req); err != nil {
				errc <- err
				return
			}
		}
	}()
	go func() {
		for {
			resp, err := up.Recv()
			if err != nil {
				errc <- err
				return
			}
			if err := down.Send(resp); err != nil {
				errc <- err
				return
			}
		}
	}()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case err := <-errc:
		if errors.Is(err, io.EOF) {
			return nil
		}
		return err
	}
}

func (p *LocalADS) DeltaAggregatedResources(down discoveryv1.AggregatedDiscoveryService_DeltaAggregatedResourcesServer) error {
	ctx := down.Context()
	uctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — the subscription keeps the cancel and its Close ends the upstream stream
	sub := &upstreamSub{cancel: cancel}
	p.mu.Lock()
	p.subs[sub] = struct{}{}
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.subs, sub)
		p.mu.Unlock()
		sub.Close()
	}()
	up, err := p.upstream.DeltaAggregatedResources(uctx)
	if err != nil {
		return err
	}
	errc := make(chan error, 2)
	go func() {
		for {
			req, err := down.Recv()
			if err == nil {
				err = up.Send(req)
			}
			if err != nil {
				errc <- err
				return
			}
		}
	}()
	go func() {
		for {
			resp, err := up.Recv()
			if err == nil {
				err = down.Send(resp)
			}
			if err != nil {
				errc <- err
				return
			}
		}
	}()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case err := <-errc:
		return err
	}
}

func (p *LocalADS) FetchResources(ctx context.Context, req *discoveryv1.DiscoveryRequest) (*discoveryv1.DiscoveryResponse, error) {
	conn, err := p.pool.Get(context.Background(), p.upstreamAddr) // OK: ctxbackground — the pool only dials with the root and keeps the connection; the RPC below uses the request's ctx
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "dial control plane: %v", err) // OK: statusmask — the dial was given a fresh ctx, not the request's
	}
	resp, err := discoveryv1.NewAggregatedDiscoveryServiceClient(conn).FetchResources(ctx, req) // OK: missingdeadline — request scope: the call inherits the sidecar's deadline
	if err != nil {
		if c := status.Code(err); c == codes.DeadlineExceeded || c == codes.Canceled {
			return nil, err
		}
		return nil, status.Errorf(codes.Unavailable, "upstream fetch: %v", err) // OK: statusmask — status.Code of the error was checked first
	}
	return resp, nil
}
