// Package tabletserver is the query server that runs beside each MySQL
// instance: connection pools, transactions, the schema engine, health
// streaming, and the Query gRPC service the router calls.
package tabletserver

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/sqlproxy/gen/querypb"
)

// Config configures a TabletServer.
type Config struct {
	Alias                string
	Keyspace             string
	Shard                string
	PoolSize             int
	TxPoolSize           int
	MaxResultRows        int
	StreamBatchSize      int
	KillTimeout          time.Duration
	ShutdownGrace        time.Duration
	PoolCloseTimeout     time.Duration
	TxPoolFullPenalty    time.Duration
	HealthInterval       time.Duration
	SchemaReloadInterval time.Duration
	SchemaReloadTimeout  time.Duration
	EventFlushTimeout    time.Duration
}

// TabletServer serves the Query service of one tablet.
type TabletServer struct {
	querypb.UnimplementedQueryServer

	cfg    Config
	db     *sql.DB
	pool   *ConnPool
	se     *SchemaEngine
	te     *TxEngine
	hs     *HealthStreamer
	killer *QueryKiller
	events *eventBatcher
	logger *slog.Logger

	mu      sync.Mutex
	target  *querypb.Target
	serving bool

	ctx    context.Context
	cancel context.CancelFunc
}

// NewTabletServer builds the tablet server over db. Open starts it.
func NewTabletServer(cfg Config, db *sql.DB) *TabletServer {
	ctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — constructor: the server's lifetime, not a request scope
	pool := NewConnPool(db, cfg.PoolSize, cfg.PoolCloseTimeout)
	s := &TabletServer{
		cfg:    cfg,
		db:     db,
		pool:   pool,
		se:     NewSchemaEngine(db, cfg.SchemaReloadTimeout),
		te:     NewTxEngine(pool, cfg.TxPoolSize, cfg.KillTimeout),
		killer: &QueryKiller{db: db, timeout: cfg.KillTimeout},
		events: &eventBatcher{db: db, flushTimeout: cfg.EventFlushTimeout},
		logger: slog.New(slog.NewTextHandler(os.Stderr, nil)).With("tablet", cfg.Alias),
		target: &querypb.Target{Keyspace: cfg.Keyspace, Shard: cfg.Shard, TabletType: "replica"},
		ctx:    ctx,
		cancel: cancel,
	}
	s.hs = NewHealthStreamer(cfg.Alias, cfg.HealthInterval, s.replicationLag)
	return s
}

// Register registers the Query service on gs.
func (s *TabletServer) Register(gs *grpc.Server) {
	querypb.RegisterQueryServer(gs, s)
}

// Open checks mysqld and starts the background work of the server.
func (s *TabletServer) Open() error {
	if err := s.db.Ping(); err != nil { // OK: ctxless — Open is not a request scope
		return fmt.Errorf("mysqld not reachable: %w", err)
	}
	go s.se.reloadLoop(s.ctx, s.cfg.SchemaReloadInterval)
	return nil
}

// SchemaEngine returns the schema engine of the tablet.
func (s *TabletServer) SchemaEngine() *SchemaEngine { return s.se }

// SetServingType changes the type the tablet serves as. A tablet that
// stops serving first lets its open transactions finish.
func (s *TabletServer) SetServingType(ctx context.Context, tabletType string) error {
	s.mu.Lock()
	s.target.TabletType = tabletType
	serving := tabletType == "primary" || tabletType == "replica" || tabletType == "rdonly"
	wasServing := s.serving
	s.serving = serving
	target := &querypb.Target{Keyspace: s.target.Keyspace, Shard: s.target.Shard, TabletType: tabletType}
	s.mu.Unlock()
	if wasServing && !serving {
		if err := s.te.WaitForEmpty(ctx); err != nil {
			return fmt.Errorf("draining transactions: %w", err)
		}
	}
	s.hs.ChangeState(target, serving)
	return nil
}

func (s *TabletServer) replicationLag(ctx context.Context) (int64, error) {
	var lag sql.NullInt64
	err := s.db.QueryRowContext(ctx, "SELECT TIMESTAMPDIFF(SECOND, ts, NOW()) FROM _vt.heartbeat LIMIT 1").Scan(&lag)
	return lag.Int64, err
}

func (s *TabletServer) checkTarget(t *querypb.Target) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.GetKeyspace() != s.target.Keyspace || t.GetShard() != s.target.Shard {
		return status.Errorf(codes.FailedPrecondition, "wrong tablet: want %s/%s, got %s/%s",
			s.target.Keyspace, s.target.Shard, t.GetKeyspace(), t.GetShard())
	}
	if !s.serving {
		return status.Error(codes.Unavailable, "tablet is not serving")
	}
	return nil
}

// Close stops the server, giving open transactions a grace period.
func (s *TabletServer) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownGrace) // OK: ctxbackground — Close is not a request scope
	defer cancel()
	s.te.Shutdown(ctx)
	s.hs.Close()
	s.se.Close()
	s.pool.Close()
	s.cancel()
}
