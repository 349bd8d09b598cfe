package vtgate

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/sqlproxy/gen/querypb"
	"example.test/sqlproxy/internal/servenv"
	"example.test/sqlproxy/topo"
)

// TabletGateway sends queries to healthy tablets, over connections it
// caches per tablet.
type TabletGateway struct {
	hc *HealthCheck
	ts *topo.Server

	mu        sync.Mutex
	conns     map[string]querypb.QueryClient
	rollbacks int
}

// dialTablet dials the tablet at addr. The connection is kept by the
// gateway and shared by every later request.
func dialTablet(ctx context.Context, addr string) (*grpc.ClientConn, error) {
	return grpc.DialContext(ctx, addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
}

func (gw *TabletGateway) client(addr string) (querypb.QueryClient, error) {
	gw.mu.Lock()
	defer gw.mu.Unlock()
	if c, ok := gw.conns[addr]; ok {
		return c, nil
	}
	cc, err := dialTablet(context.Background(), addr)
	if err != nil {
		return nil, err
	}
	c := querypb.NewQueryClient(cc)
	gw.conns[addr] = c
	return c, nil
}

func (gw *TabletGateway) clientFor(target *querypb.Target) (querypb.QueryClient, error) {
	th, err := gw.hc.healthyTablet(target)
	if err != nil {
		return nil, err
	}
	return gw.client(th.tablet.Addr)
}

// Execute runs sql on a healthy tablet of target.
func (gw *TabletGateway) Execute(ctx context.Context, target *querypb.Target, sql string, bindVars map[string]string, txID int64) (*querypb.QueryResult, error) {
	c, err := gw.clientFor(target)
	if err != nil {
		return nil, err
	}
	resp, err := c.Execute(ctx, &querypb.ExecuteRequest{
		Target:        target,
		Query:         &querypb.BoundQuery{Sql: sql, BindVars: bindVars},
		TransactionId: txID,
	})
	if err != nil {
		return nil, err
	}
	return resp.GetResult(), nil
}

// StreamExecute streams the result of sql from a healthy tablet of target.
func (gw *TabletGateway) StreamExecute(ctx context.Context, target *querypb.Target, sql string, send func(*querypb.QueryResult) error) error {
	c, err := gw.clientFor(target)
	if err != nil {
		return err
	}
	stream, err := c.StreamExecute(ctx, &querypb.StreamExecuteRequest{Target: target, Query: &querypb.BoundQuery{Sql: sql}})
	if err != nil {
		return err
	}
	for {
		r, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := send(r.GetResult()); err != nil {
			return err
		}
	}
}

// Begin starts a transaction on the primary of target.
func (gw *TabletGateway) Begin(ctx context.Context, target *querypb.Target) (int64, error) {
	c, err := gw.clientFor(target)
	if err != nil {
		return 0, err
	}
	resp, err := c.Begin(ctx, &querypb.BeginRequest{Target: target})
	return resp.GetTransactionId(), err
}

// Rollback rolls transaction txID back on target.
func (gw *TabletGateway) Rollback(ctx context.Context, target *querypb.Target, txID int64) error {
	c, err := gw.clientFor(target)
	if err != nil {
		return err
	}
	_, err = c.Rollback(ctx, &querypb.RollbackRequest{Target: target, TransactionId: txID})
	return err
}

type statsPurpose int

const (
	purposeCount statsPurpose = iota
	purposeFlush
)

// updateStats counts n rollbacks; with purposeFlush it also writes the
// counters to the topo, on a budget of its own.
func (gw *TabletGateway) updateStats(ctx context.Context, purpose statsPurpose, n int) {
	gw.mu.Lock()
	gw.rollbacks += n
	total := gw.rollbacks
	gw.mu.Unlock()
	if purpose != purposeFlush {
		return
	}
	servenv.Infof(ctx, "flushing gateway stats: %d rollbacks", total)
	fctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = gw.ts.RecordEvent(fctx, "", "gateway_stats", fmt.Sprintf("rollbacks=%d", total))
}

// Close flushes the gateway's stats.
func (gw *TabletGateway) Close() {
	gw.updateStats(context.Background(), purposeFlush, 0) // OK: ctxbackground — Close is not a request scope
}
