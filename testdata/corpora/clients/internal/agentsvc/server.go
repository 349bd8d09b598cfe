// Package agentsvc implements the AgentService that runs on every
// warehouse host.
package agentsvc

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	agentv1 "example.test/clients/gen/agent/v1"
	inventoryv1 "example.test/clients/gen/inventory/v1"
	"example.test/clients/pkg/sdk"
)

// Config describes the host the agent runs on.
type Config struct {
	Hostname     string
	Version      string
	UpstreamHost string
	LogDir       string
}

// Server implements agentv1.AgentServiceServer.
type Server struct {
	agentv1.UnimplementedAgentServiceServer

	sdk     *sdk.Client
	inv     inventoryv1.InventoryServiceClient
	baseCtx context.Context
	cfg     Config
	log     *slog.Logger
}

// New returns a Server. ctx is the lifetime of the process.
func New(ctx context.Context, c *sdk.Client, inv inventoryv1.InventoryServiceClient, cfg Config, log *slog.Logger) *Server {
	return &Server{sdk: c, inv: inv, baseCtx: ctx, cfg: cfg, log: log}
}

func (s *Server) Ping(ctx context.Context, _ *agentv1.PingRequest) (*agentv1.PingResponse, error) {
	addrs, err := net.LookupHost(s.cfg.UpstreamHost) // BUG: ctxless
	return &agentv1.PingResponse{
		Hostname:           s.cfg.Hostname,
		Version:            s.cfg.Version,
		UpstreamResolvable: err == nil && len(addrs) > 0,
	}, nil
}

func (s *Server) RunTask(ctx context.Context, req *agentv1.RunTaskRequest) (*agentv1.RunTaskResponse, error) {
	args := req.GetArgs()
	switch req.GetKind() {
	case "disk-usage":
		path := args["path"]
		if path == "" {
			path = "/var/lib/wms"
		}
		out, err := exec.Command("df", "-P", path).CombinedOutput() // BUG: ctxless
		return taskResult(out, err)

	case "service-status":
		out, err := exec.CommandContext(ctx, "systemctl", "is-active", args["unit"]).CombinedOutput() // OK
		return taskResult(out, err)

	case "item":
		item, err := s.inv.GetItem(ctx, &inventoryv1.GetItemRequest{Sku: args["sku"]}) // OK
		if err != nil {
			return nil, err
		}
		return &agentv1.RunTaskResponse{Output: fmt.Sprintf("%s %q on hand %d reserved %d\n", item.GetSku(), item.GetName(), item.GetOnHand(), item.GetReserved())}, nil

	case "invoice":
		inv, err := s.sdk.GetInvoice(context.Background(), args["invoice_id"]) // BUG: ctxbackground
		if err != nil {
			return nil, err
		}
		return &agentv1.RunTaskResponse{Output: fmt.Sprintf("%s %s %d\n", inv.GetInvoiceId(), inv.GetStatus(), inv.GetAmountDueCents())}, nil

	case "reserve":
		qty, err := strconv.ParseInt(args["qty"], 10, 64)
		if err != nil || qty <= 0 {
			return nil, status.Errorf(codes.InvalidArgument, "bad qty %q", args["qty"])
		}
		r, err := s.sdk.ReserveStock(ctx, args["sku"], qty, args["order"]) // OK
		if err != nil {
			return nil, err
		}
		payload, _ := json.Marshal(map[string]string{"order_id": args["order"], "reservation_id": r.GetReservationId(), "host": s.cfg.Hostname})
		dctx := context.WithoutCancel(ctx)
		// ^BUG: detach
		go func() {
			if _, err := s.sdk.EnqueueJob(dctx, "fulfil", payload); err != nil { // OK
				s.log.Warn("fulfil job not enqueued", "order", args["order"], "err", err)
			}
		}()
		return &agentv1.RunTaskResponse{Output: r.GetReservationId() + "\n"}, nil

	case "release":
		// A release that reached the agent has to complete: the picker has
		// already put the goods back on the shelf.
		dctx := context.WithoutCancel(ctx) // OK
		rctx, cancel := context.WithTimeout(dctx, 5*time.Second)
		defer cancel()
		r, err := s.sdk.ReleaseStock(rctx, args["reservation_id"]) // OK
		if err != nil {
			return nil, err
		}
		return &agentv1.RunTaskResponse{Output: r.GetState() + "\n"}, nil
	}
	return nil, status.Errorf(codes.InvalidArgument, "unknown task kind %q", req.GetKind())
}

func (s *Server) CollectInventory(ctx context.Context, req *agentv1.CollectInventoryRequest) (*agentv1.CollectInventoryResponse, error) {
	g, gctx := errgroup.WithContext(context.Background()) // BUG: ctxbackground
	g.SetLimit(8)
	var mu sync.Mutex
	onHand := make(map[string]int64, len(req.GetSkus()))
	for _, sku := range req.GetSkus() {
		g.Go(func() error {
			item, err := s.inv.GetItem(gctx, &inventoryv1.GetItemRequest{Sku: sku}) // OK
			if err != nil {
				return fmt.Errorf("%s: %w", sku, err)
			}
			mu.Lock()
			onHand[sku] = item.GetOnHand()
			mu.Unlock()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return &agentv1.CollectInventoryResponse{OnHand: onHand}, nil
}

// ReportLoop announces the agent to the fleet dashboard every interval until
// the process stops. It is started once, from main.
func (s *Server) ReportLoop(interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-s.baseCtx.Done():
			return
		case <-t.C:
		}
		payload, _ := json.Marshal(map[string]string{"host": s.cfg.Hostname, "version": s.cfg.Version})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)     // OK
		if _, err := s.sdk.EnqueueJob(ctx, "agent-heartbeat", payload); err != nil { // OK
			s.log.Warn("heartbeat not sent", "err", err)
		}
		cancel()
	}
}

func taskResult(out []byte, err error) (*agentv1.RunTaskResponse, error) {
	resp := &agentv1.RunTaskResponse{Output: string(out)}
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			resp.ExitCode = int32(ee.ExitCode())
			return resp, nil
		}
		return nil, status.Errorf(codes.Internal, "task: %v", err)
	}
	return resp, nil
}
