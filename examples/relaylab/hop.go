// Package relaylab is a chain of gRPC services, A → B → C, each of which does
// some work and forwards the request to the next. It shows how a deadline set
// by the client travels down the chain, and what happens when one hop calls
// the next with a fresh context instead of the one it was given.
//
// The tests run the chain in-process with the runtime companion's lab
// (github.com/deadlinelint/deadlinelint/runtime/lab); deadlinelint reports the
// one hop that drops the deadline.
package relaylab

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"

	"github.com/deadlinelint/deadlinelint/examples/relaylab/relayv1"
)

// hop is one service of the chain. It spends work doing its own job, then
// forwards to next, if any.
type hop struct {
	relayv1.UnimplementedRelayServiceServer

	name string
	work time.Duration
	next relayv1.RelayServiceClient

	// dropDeadline is the bug: forward with a fresh context, so the next
	// hop neither sees the caller's deadline nor learns that it gave up.
	dropDeadline bool
}

// register registers h on s, wired to call the next hop through next, as a
// server's main would: the lab's Hop.Register.
func (h *hop) register(s *grpc.Server, next grpc.ClientConnInterface) {
	if next != nil {
		h.next = relayv1.NewRelayServiceClient(next)
	}
	relayv1.RegisterRelayServiceServer(s, h)
}

// Forward implements relayv1.RelayServiceServer.
func (h *hop) Forward(ctx context.Context, req *relayv1.ForwardRequest) (*relayv1.ForwardResponse, error) {
	if err := h.doWork(ctx); err != nil {
		return nil, err
	}
	route := req.GetRoute() + h.name
	if h.next == nil {
		return &relayv1.ForwardResponse{Route: route}, nil
	}

	downstream := ctx
	if h.dropDeadline {
		downstream = context.Background() // planted: ctxbackground
	}
	resp, err := h.next.Forward(downstream, &relayv1.ForwardRequest{Route: route + ">"})
	if err != nil {
		return nil, err
	}
	return &relayv1.ForwardResponse{Route: resp.GetRoute()}, nil
}

// doWork stands for the hop's own job: it takes h.work, and fails as soon
// as ctx ends, even if the work is done at the same moment.
func (h *hop) doWork(ctx context.Context) error {
	timer := time.NewTimer(h.work)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
	}
	if err := ctx.Err(); err != nil {
		return status.FromContextError(err).Err()
	}
	return nil
}
