package vtgate

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/sqlproxy/gen/querypb"
	"example.test/sqlproxy/gen/vtgatepb"
	"example.test/sqlproxy/internal/servenv"
	"example.test/sqlproxy/topo"
)

func toRows(qr *querypb.QueryResult) []*vtgatepb.Row {
	rows := make([]*vtgatepb.Row, 0, len(qr.GetRows()))
	for _, r := range qr.GetRows() {
		rows = append(rows, &vtgatepb.Row{Values: r.GetValues()})
	}
	return rows
}

func toExecuteResponse(session *vtgatepb.Session, qr *querypb.QueryResult) *vtgatepb.ExecuteResponse {
	return &vtgatepb.ExecuteResponse{Session: session, Fields: qr.GetFields(), Rows: toRows(qr), RowsAffected: qr.GetRowsAffected()}
}

func marshalVSchema(vs *topo.VSchema) (*vtgatepb.GetVSchemaResponse, error) {
	data, err := json.Marshal(vs)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "vschema: %v", err) // OK: statusmask — json.Marshal takes no ctx: its error is no deadline
	}
	return &vtgatepb.GetVSchemaResponse{VschemaJson: string(data)}, nil
}

func sessionKeyspace(s *vtgatepb.Session, p *plan) string {
	if p.keyspace != "" {
		return p.keyspace
	}
	ks, _, _ := strings.Cut(s.GetTargetString(), "@")
	return ks
}

// Execute routes one statement to its shard.
func (vtg *VTGate) Execute(ctx context.Context, req *vtgatepb.ExecuteRequest) (*vtgatepb.ExecuteResponse, error) {
	span := servenv.StartSpan(context.Background(), "VTGate.Execute") // OK: ctxbackground — StartSpan starts a span and drops the ctx the tracer returns: nothing is done with the root
	defer span.End()
	start := time.Now()
	p, err := parse(req.GetSql())
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "syntax error: %v", err) // OK: statusmask — parse takes no ctx: its error is no deadline
	}
	ks := sessionKeyspace(req.GetSession(), p)
	if vtg.throttled(ks) {
		time.Sleep(vtg.cfg.ThrottlePenalty) // OK: ctxless — one deliberate sleep (a throttler's penalty), in no loop
	}
	ex, err := vtg.executorFor(context.Background(), ks) // OK: ctxbackground — first use of shared state: the key is absent from vtg.executors, filled while vtg.mu is held until return
	if err != nil {
		return nil, servenv.ToGRPC(err)
	}
	shard, err := ex.shardFor(p, req.GetBindVars())
	if err != nil {
		return nil, servenv.ToGRPC(err)
	}
	txID := req.GetSession().GetShardTransactions()[ks+"/"+shard]
	target := &querypb.Target{Keyspace: ks, Shard: shard, TabletType: "replica"}
	if !p.readOnly || txID != 0 {
		target.TabletType = "primary"
	}
	qr, err := vtg.gw.Execute(ctx, target, req.GetSql(), req.GetBindVars(), txID) // OK: ctxbackground — the gateway's only root dials a connection it caches (dialTablet), on first use under its lock
	if err != nil && target.TabletType == "replica" {
		// No replica answered: the primary can serve the read.
		target.TabletType = "primary"
		qr, err = vtg.gw.Execute(context.Background(), target, req.GetSql(), req.GetBindVars(), 0) // BUG: ctxbackground — a fallback whose answer is returned runs on a fresh root: the retry ignores the caller's deadline
	}
	if err != nil {
		return nil, servenv.ToGRPC(err)
	}
	servenv.RecordQuery(ctx, ks, p.kind, time.Since(start))
	go vtg.qlog.Write(context.WithoutCancel(ctx), queryLogRecord{SQL: req.GetSql(), Keyspace: ks, Duration: time.Since(start), TraceID: servenv.TraceID(ctx)})
	// ^BUG: detach — the query-log POST runs detached with no bound (the collector's client has no timeout) and no reason
	return toExecuteResponse(req.GetSession(), qr), nil
}

// ExecuteBatch runs several statements, in order.
func (vtg *VTGate) ExecuteBatch(ctx context.Context, req *vtgatepb.ExecuteBatchRequest) (*vtgatepb.ExecuteBatchResponse, error) {
	ks, _, _ := strings.Cut(req.GetSession().GetTargetString(), "@")
	if err := vtg.hc.WaitForTablets(servenv.ProcessContext(), ks, "primary"); err != nil { // BUG: ctxflow ALSO: ctxbackground — waits on the process's ctx: with no primary the handler blocks until the process stops
		return nil, servenv.ToGRPC(err)
	}
	ctx, span := servenv.StartLinkedSpan(ctx, "VTGate.ExecuteBatch") // BUG: ctxbackground — StartLinkedSpan returns a ctx rooted in context.Background(): every statement of the batch runs with no deadline
	defer span.End()
	resp := &vtgatepb.ExecuteBatchResponse{Session: req.GetSession()}
	for _, sql := range req.GetSqls() {
		p, err := parse(sql)
		if err != nil {
			return nil, status.Errorf(codes.InvalidArgument, "syntax error in %q: %v", sql, err) // OK: statusmask — parse takes no ctx: its error is no deadline
		}
		ex, err := vtg.executorFor(ctx, sessionKeyspace(req.GetSession(), p))
		if err != nil {
			return nil, servenv.ToGRPC(err)
		}
		shard, err := ex.shardFor(p, nil)
		if err != nil {
			return nil, servenv.ToGRPC(err)
		}
		qr, err := vtg.gw.Execute(ctx, &querypb.Target{Keyspace: ex.ks.Name, Shard: shard, TabletType: "primary"}, sql, nil, 0)
		if err != nil {
			return nil, servenv.ToGRPC(err)
		}
		resp.Results = append(resp.Results, toExecuteResponse(nil, qr))
	}
	return resp, nil
}

// StreamExecute streams the rows of one statement.
func (vtg *VTGate) StreamExecute(req *vtgatepb.StreamExecuteRequest, stream vtgatepb.VTGate_StreamExecuteServer) error {
	ctx := stream.Context()
	p, err := parse(req.GetSql())
	if err != nil {
		return status.Errorf(codes.InvalidArgument, "syntax error: %v", err) // OK: statusmask — parse takes no ctx: its error is no deadline
	}
	ks := sessionKeyspace(req.GetSession(), p)
	shards, err := vtg.shardsFor(ctx, ks, false) // OK: ctxbackground — shardsFor reaches its root only when ensureInit is true; this call passes false
	if err != nil {
		return servenv.ToGRPC(err)
	}
	if len(shards) == 0 {
		return status.Errorf(codes.FailedPrecondition, "keyspace %s has no shards", ks)
	}
	target := &querypb.Target{Keyspace: ks, Shard: shards[0], TabletType: "replica"}
	// At start-up the health check may not have found a tablet yet.
	for i := 0; !vtg.hc.hasHealthy(target); i++ {
		if i == vtg.cfg.MaxHealthWaits {
			return status.Error(codes.Unavailable, "no healthy tablet")
		}
		time.Sleep(vtg.cfg.HealthWaitInterval) // BUG: ctxless — a poll that never checks ctx: the handler keeps waiting after the client gave up
	}
	// A long scan must not inherit the client's short deadline, but it
	// stops when the client goes away.
	sctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — cancelled by the goroutine below once ctx is done (pre-Go 1.21 AfterFunc): lives as long as the stream
	defer cancel()
	go func() {
		select {
		case <-ctx.Done():
			cancel()
		case <-sctx.Done():
		}
	}()
	return vtg.gw.StreamExecute(sctx, target, req.GetSql(), func(qr *querypb.QueryResult) error {
		return stream.Send(&vtgatepb.StreamExecuteResponse{Fields: qr.GetFields(), Rows: toRows(qr)})
	})
}

// Prepare plans a statement and returns its fields and shards.
func (vtg *VTGate) Prepare(ctx context.Context, req *vtgatepb.PrepareRequest) (*vtgatepb.PrepareResponse, error) {
	vtg.vindexOnce.Do(func() {
		vtg.vindexes, vtg.vindexErr = vtg.loadVindexes(context.Background()) // OK: ctxbackground — run once by sync.Once.Do: one-time initialisation of shared state
	})
	if vtg.vindexErr != nil {
		return nil, servenv.ToGRPC(vtg.vindexErr)
	}
	p, err := vtg.planFor(ctx, req.GetSql()) // OK?: ctxbackground — planFor builds each plan once for every request waiting on it (singleflight), on a bounded fresh ctx; the catalogue names sync.Once, not singleflight
	if err != nil {
		return nil, servenv.ToGRPC(err)
	}
	ks := sessionKeyspace(req.GetSession(), p)
	shards, err := vtg.ts.GetShardNames(ctx, ks) // BUG: ctxbackground — GetShardNames lists the shards on context.TODO(): the topo read ignores the caller's deadline
	if err != nil {
		return nil, servenv.ToGRPC(err)
	}
	ev := vtg.evalPool.Get().(*evaluator)
	ev.SetContext(ctx)
	fields, err := ev.Eval(p, vtg.vindexes[ks], req.GetBindVars())
	ev.SetContext(context.Background()) // OK: ctxbackground — the idle ctx, reset through the same setter before the evaluator goes back to its pool
	vtg.evalPool.Put(ev)
	if err != nil {
		return nil, servenv.ToGRPC(err)
	}
	return &vtgatepb.PrepareResponse{Fields: fields, Shards: shards, Plan: p.kind}, nil
}

// GetVSchema returns the vschema of a keyspace, as JSON.
func (vtg *VTGate) GetVSchema(ctx context.Context, req *vtgatepb.GetVSchemaRequest) (*vtgatepb.GetVSchemaResponse, error) {
	ks := req.GetKeyspace()
	if vs, ok := vtg.overrides.Lookup(context.Background(), ks); ok { // OK: ctxbackground — every implementation of VSchemaOverrides in sight ignores its ctx (in-memory maps)
		return marshalVSchema(vs)
	}
	rules, err := vtg.loadRoutingRules() // OK: ctxbackground — the field holds a sync.OnceValues literal: one-time initialisation
	if err != nil {
		return nil, servenv.ToGRPC(err)
	}
	if to := rules.Rules[ks]; len(to) > 0 {
		ks = to[0]
	}
	vs, err := vtg.vschemas.Get(ks) // BUG: ctxbackground — a read-through cache that fetches outside its lock, and again on expiry, on context.Background(): the topo read ignores the caller's deadline
	if err != nil {
		return nil, servenv.ToGRPC(err)
	}
	vtg.mu.Lock()
	if !vtg.watching[ks] {
		vtg.watching[ks] = true
		vtg.watchKeyspace(context.Background(), ks) // OK: ctxbackground — watchKeyspace uses its ctx only in the goroutine it starts: the root is the watch's lifetime
	}
	vtg.mu.Unlock()
	return marshalVSchema(vs)
}

// CloseSession rolls back the open transactions of a session.
func (vtg *VTGate) CloseSession(ctx context.Context, req *vtgatepb.CloseSessionRequest) (*vtgatepb.CloseSessionResponse, error) {
	txs := req.GetSession().GetShardTransactions()
	var errs []error
	for key, txID := range txs {
		ks, shard, _ := strings.Cut(key, "/")
		target := &querypb.Target{Keyspace: ks, Shard: shard, TabletType: "primary"}
		var err error
		for attempt := 0; ; attempt++ {
			if ctx.Err() != nil {
				err = ctx.Err()
				break
			}
			err = vtg.gw.Rollback(ctx, target, txID)
			if err == nil || attempt == 2 {
				break
			}
			time.Sleep(vtg.cfg.RetryBackoff) // OK: ctxless — every turn of the retry loop checks ctx.Err() first
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	vtg.gw.updateStats(ctx, purposeCount, len(txs)) // OK: ctxbackground — updateStats reaches its root only when purpose == purposeFlush; this call passes purposeCount
	if err := errors.Join(errs...); err != nil {
		if ctx.Err() != nil {
			return nil, status.FromContextError(ctx.Err()).Err()
		}
		return nil, status.Errorf(codes.Aborted, "close session: %v", err) // OK: statusmask — ctx.Err() is checked first
	}
	return &vtgatepb.CloseSessionResponse{}, nil
}

type connState struct {
	stream vtgatepb.VTGate_ConnServer
	target *querypb.Target
	txID   int64
}

// context returns the ctx of the connection's stream.
func (cs *connState) context() context.Context {
	if cs.stream == nil {
		return context.Background()
	}
	return cs.stream.Context()
}

func (cs *connState) primary() *querypb.Target {
	return &querypb.Target{Keyspace: cs.target.GetKeyspace(), Shard: cs.target.GetShard(), TabletType: "primary"}
}

// Conn is a session over a bidirectional stream: one response per
// statement, in order.
func (vtg *VTGate) Conn(stream vtgatepb.VTGate_ConnServer) error {
	ctx := stream.Context()
	cs := &connState{stream: stream, target: &querypb.Target{Shard: "0", TabletType: "primary"}}
	for {
		req, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if req.GetClose() {
			if cs.txID != 0 {
				// The rollback must happen even if the client hangs up right
				// after asking for it.
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second) // OK: detach — a reason comment above and a 5s bound
				err := vtg.gw.Rollback(rctx, cs.primary(), cs.txID)
				cancel()
				if err != nil {
					return servenv.ToGRPC(err)
				}
			}
			return nil
		}
		if p, err := parse(req.GetSql()); err == nil && p.keyspace != "" {
			cs.target.Keyspace = p.keyspace
		}
		qctx, qcancel := context.WithCancel(cs.context()) // OK: ctxbackground — cs.context() returns Background only as the fallback of a nil holder; the holder here is the stream
		done := make(chan struct{})
		go func(txID int64) {
			select {
			case <-ctx.Done():
				if txID == 0 {
					return
				}
				// The client went away mid-statement: roll its transaction back.
				kctx, cancel := context.WithTimeout(context.Background(), vtg.cfg.KillTimeout) // OK: ctxbackground — in the `case <-ctx.Done()` of a select: runs only after the client gave up
				defer cancel()
				_ = vtg.gw.Rollback(kctx, cs.primary(), txID)
			case <-done:
			}
		}(cs.txID)
		resp := &vtgatepb.ConnResponse{Id: req.GetId()}
		if strings.EqualFold(strings.TrimSpace(req.GetSql()), "begin") {
			cs.txID, err = vtg.gw.Begin(qctx, cs.primary())
		} else {
			var qr *querypb.QueryResult
			qr, err = vtg.gw.Execute(qctx, cs.target, req.GetSql(), nil, cs.txID)
			resp.Rows = toRows(qr)
		}
		close(done)
		qcancel()
		if err != nil {
			resp.Error = err.Error()
		}
		if err := stream.Send(resp); err != nil {
			return err
		}
	}
}
