package tabletserver

import (
	"context"
	"errors"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/sqlproxy/gen/querypb"
	"example.test/sqlproxy/internal/servenv"
)

// isSystemQuery reports whether sql reads a system variable, which mysqld
// answers without touching the pools.
func isSystemQuery(sql string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(sql)), "select @@")
}

// Execute runs one statement, in a transaction when the request names one.
func (s *TabletServer) Execute(ctx context.Context, req *querypb.ExecuteRequest) (*querypb.ExecuteResponse, error) {
	if err := s.checkTarget(req.GetTarget()); err != nil {
		return nil, err
	}
	sql := req.GetQuery().GetSql()
	if isSystemQuery(sql) {
		var v string
		if err := s.db.QueryRow(sql).Scan(&v); err != nil { // BUG: ctxless — QueryRowContext exists; the system query ignores the caller's deadline
			return nil, status.Errorf(codes.Internal, "system query: %v", err) // OK: statusmask — QueryRow is given no ctx: its error is no deadline of the request
		}
		return &querypb.ExecuteResponse{Result: &querypb.QueryResult{
			Fields: []string{sql},
			Rows:   []*querypb.Row{{Values: []string{v}}},
		}}, nil
	}
	// The schema engine is opened on first use: the tablet may come up
	// before mysqld does.
	if err := s.se.EnsureOpen(context.Background()); err != nil { // OK: ctxbackground — EnsureOpen works with its ctx only after `if se.isOpen { return nil }`: first use of shared state it then sets
		return nil, status.Errorf(codes.Unavailable, "schema engine: %v", err) // OK: statusmask — the error of a call made with a fresh context
	}
	start := time.Now()
	qr, err := s.execute(ctx, sql, req.GetQuery().GetBindVars(), req.GetTransactionId()) // OK: ctxbackground — the only root on this path is the query killer's, run by context.AfterFunc once ctx is done
	servenv.RecordQuery(ctx, s.cfg.Keyspace, "Execute", time.Since(start))
	if err != nil {
		return nil, status.Errorf(codes.Internal, "vttablet: %v", err) // BUG: statusmask — a query cut off by the request's deadline is reported as Internal
	}
	return &querypb.ExecuteResponse{Result: qr}, nil
}

func (s *TabletServer) execute(ctx context.Context, sql string, bindVars map[string]string, txID int64) (*querypb.QueryResult, error) {
	var conn *PooledConn
	if txID != 0 {
		c, err := s.te.Get(txID)
		if err != nil {
			return nil, err
		}
		conn = c
	} else {
		c, err := s.pool.GetContext(ctx)
		if err != nil {
			return nil, err
		}
		defer c.Recycle()
		conn = c
	}
	stop := s.killer.Watch(ctx, conn.ID)
	defer stop()
	return conn.Exec(ctx, sql, bindVars, s.cfg.MaxResultRows)
}

// StreamExecute streams the rows of one statement.
func (s *TabletServer) StreamExecute(req *querypb.StreamExecuteRequest, stream querypb.Query_StreamExecuteServer) error {
	ctx := stream.Context()
	if err := s.checkTarget(req.GetTarget()); err != nil {
		return err
	}
	conn, err := s.pool.GetContext(ctx)
	if err != nil {
		return servenv.ToGRPC(err)
	}
	defer conn.Recycle()
	// Kill the MySQL query when the client goes away: closing the rows
	// would otherwise read the whole result first.
	stop := context.AfterFunc(ctx, func() {
		kctx, cancel := context.WithTimeout(context.Background(), s.cfg.KillTimeout) // OK: ctxbackground — runs only once the stream's ctx is done (context.AfterFunc): kills the query after the client gave up
		defer cancel()
		s.killer.kill(kctx, conn.ID)
	})
	defer stop()
	err = conn.Stream(ctx, req.GetQuery().GetSql(), s.cfg.StreamBatchSize, func(qr *querypb.QueryResult) error {
		return stream.Send(&querypb.StreamExecuteResponse{Result: qr})
	})
	if err != nil {
		if ctx.Err() != nil {
			return status.FromContextError(ctx.Err()).Err()
		}
		return status.Errorf(codes.Unknown, "stream execute: %v", err) // OK: statusmask — ctx.Err() is checked first
	}
	return nil
}

// Begin starts a transaction and returns its id.
func (s *TabletServer) Begin(ctx context.Context, req *querypb.BeginRequest) (*querypb.BeginResponse, error) {
	if err := s.checkTarget(req.GetTarget()); err != nil {
		return nil, err
	}
	txID, err := s.te.Begin(ctx)
	if err != nil {
		if servenv.Code(err) == codes.ResourceExhausted {
			// Slow down clients that keep hammering a full pool.
			time.Sleep(s.cfg.TxPoolFullPenalty) // OK: ctxless — one deliberate sleep (a rate limiter's penalty), in no loop
			return nil, status.Error(codes.ResourceExhausted, "transaction pool full")
		}
		return nil, status.Errorf(codes.Unavailable, "begin: %v", err) // OK: statusmask — servenv.Code, a mapping helper of the module, takes the error
	}
	s.logger.Info("transaction started", "tx", txID) // OK: ctxless — slog's InfoContext only reads values from its ctx
	return &querypb.BeginResponse{TransactionId: txID}, nil
}

// Commit commits a transaction.
func (s *TabletServer) Commit(ctx context.Context, req *querypb.CommitRequest) (*querypb.CommitResponse, error) {
	txID := req.GetTransactionId()
	if err := s.te.Commit(ctx, txID); err != nil { // OK: ctxbackground — Commit's only root is a bounded rollback in the `if err != nil` branch that wraps and returns the error
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return nil, status.FromContextError(err).Err()
		}
		return nil, status.Errorf(codes.Aborted, "commit %d: %v", txID, err) // OK: statusmask — errors.Is picks out deadline and cancellation first
	}
	s.publishTxEvent(ctx, txEvent{TxID: txID, Kind: "commit", At: time.Now()})
	return &querypb.CommitResponse{}, nil
}

func (s *TabletServer) publishTxEvent(ctx context.Context, ev txEvent) {
	go s.events.publish(context.WithoutCancel(ctx), ev)
	// ^BUG: detach — the event row is written on a detached ctx with no bound and no reason: a hung INSERT piles up goroutines
}

// Rollback rolls a transaction back.
func (s *TabletServer) Rollback(ctx context.Context, req *querypb.RollbackRequest) (*querypb.RollbackResponse, error) {
	txID := req.GetTransactionId()
	if _, ok := s.te.Lookup(txID); !ok { // OK: ctxless — LookupContext only logs a miss with its ctx
		// Already rolled back (the killer or a previous call got there first).
		return &querypb.RollbackResponse{}, nil
	}
	if err := s.te.Rollback(ctx, txID); err != nil {
		return nil, servenv.ToGRPC(err)
	}
	s.events.enqueue(txEvent{TxID: txID, Kind: "rollback", At: time.Now()}) // OK: ctxbackground — a full batch is written by a goroutine enqueue starts, after the request
	return &querypb.RollbackResponse{}, nil
}

// StreamHealth streams the health of the tablet until the client leaves.
func (s *TabletServer) StreamHealth(_ *querypb.StreamHealthRequest, stream querypb.Query_StreamHealthServer) error {
	ctx := stream.Context()
	s.hs.Start() // OK: ctxbackground — the streamer's loop starts once (sync.Once), on a goroutine of its own
	ch, unsubscribe := s.hs.Subscribe()
	defer unsubscribe()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case shr, ok := <-ch:
			if !ok {
				return status.Error(codes.Unavailable, "tablet server shutting down")
			}
			if err := stream.Send(shr); err != nil {
				return err
			}
		}
	}
}
