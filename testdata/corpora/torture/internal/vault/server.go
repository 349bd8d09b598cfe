// Package vault implements vault.v1.VaultService.
package vault

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	ledgerv1 "example.test/torture/gen/ledger/v1"
	vaultv1 "example.test/torture/gen/vault/v1"
	"example.test/torture/internal/audit"
	"example.test/torture/internal/ctxkit"
	"example.test/torture/internal/store"
)

const (
	listBudget        = 3 * time.Second
	deleteTimeout     = 2 * time.Second
	replicaTimeout    = 750 * time.Millisecond
	schemaLoadTimeout = 5 * time.Second
	ringInitTimeout   = 5 * time.Second
	maintenanceBudget = 2 * time.Minute
	compactBudget     = 30 * time.Second
	restoreBackoff    = 200 * time.Millisecond
	readBudget        = 2 * time.Second
	writeBudget       = 4 * time.Second
	sealAuditBudget   = time.Second
	statsTimeout      = 3 * time.Second
	watchHeartbeat    = 15 * time.Second
	rotateParallelism = 8
)

var (
	// shutdownCtx is cancelled when the process begins to shut down; workers
	// watch it to stop taking new work.
	shutdownCtx, beginShutdown = context.WithCancel(context.Background()) // OK
)

// BeginShutdown cancels shutdownCtx.
func BeginShutdown() { beginShutdown() }

// Config carries the server's dependencies.
type Config struct {
	Repo       *store.Repo
	Replica    *store.Repo
	Audit      *audit.Writer
	Ledger     ledgerv1.LedgerServiceClient
	Log        *slog.Logger
	MirrorAddr string
	DataDir    string
	StatsEvery time.Duration
}

type event struct {
	id      string
	kind    string
	version int64
}

// Server implements vaultv1.VaultServiceServer.
type Server struct {
	vaultv1.UnimplementedVaultServiceServer

	repo       *store.Repo
	replica    *store.Repo
	audit      *audit.Writer
	ledger     ledgerv1.LedgerServiceClient
	log        *slog.Logger
	mirrorAddr string
	dataDir    string
	statsEvery time.Duration

	secrets *ctxkit.Cache[string, *store.Secret]

	// fetchRemote loads a secret that is missing locally. Tests replace it.
	fetchRemote func(ctx context.Context, id string) (*store.Secret, error)

	hooks map[string]func(context.Context, string) error

	baseCtx context.Context
	stop    context.CancelFunc

	schemaOnce sync.Once
	schema     *store.Schema
	schemaErr  error

	ringOnce sync.Once
	ring     *keyRing
	ringErr  error

	liveSecrets atomic.Int64

	subsMu sync.Mutex
	subs   map[chan event]string
	recent []event
}

// NewServer builds a server. The returned server owns a lifetime context that
// Close cancels.
func NewServer(cfg Config) *Server {
	base, stop := context.WithCancel(context.Background()) // OK
	s := &Server{
		repo:       cfg.Repo,
		replica:    cfg.Replica,
		audit:      cfg.Audit,
		ledger:     cfg.Ledger,
		log:        cfg.Log,
		mirrorAddr: cfg.MirrorAddr,
		dataDir:    cfg.DataDir,
		statsEvery: cfg.StatsEvery,
		baseCtx:    base,
		stop:       stop,
		subs:       make(map[chan event]string),
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.statsEvery <= 0 {
		s.statsEvery = time.Minute
	}
	s.secrets = ctxkit.NewCache(30*time.Second, s.repo.LoadSecret)
	s.fetchRemote = s.fetchFromReplica
	s.hooks = map[string]func(context.Context, string) error{
		"touch": s.repo.Touch,
		"audit": s.auditRead,
	}
	return s
}

// Warm preloads the hottest secrets into the cache at start-up.
func (s *Server) Warm(ids []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // OK
	defer cancel()
	for _, id := range ids {
		if _, err := s.secrets.GetContext(ctx, id); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	return nil
}

// Run refreshes statistics until ctx is done. It is started once by main.
func (s *Server) Run(ctx context.Context) error {
	t := time.NewTicker(s.statsEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-s.baseCtx.Done():
			return nil
		case <-t.C:
		}
		s.refreshStats(ctx)
		if _, err := s.ledger.Balance(ctx, &ledgerv1.BalanceRequest{Account: "vault:storage"}); err != nil {
			s.log.Warn("storage balance", "err", err)
		}
	}
}

func (s *Server) refreshStats(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, statsTimeout)
	defer cancel()
	n, err := s.repo.Count(ctx)
	if err != nil {
		s.log.Warn("count secrets", "err", err)
		return
	}
	s.liveSecrets.Store(n)
}

// Close stops background work and records the shutdown.
func (s *Server) Close() error {
	s.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK
	defer cancel()
	return s.audit.Record(ctx, "system", "shutdown", "vault")
}

// fetchFromReplica reads from the read replica with a budget of its own: the
// replica is slow to fail over and we do not want to wait on it.
func (s *Server) fetchFromReplica(_ context.Context, id string) (*store.Secret, error) {
	rctx, cancel := context.WithTimeout(context.Background(), replicaTimeout)
	defer cancel()
	return s.replica.LoadSecret(rctx, id)
}

func (s *Server) auditRead(ctx context.Context, id string) error {
	return s.audit.Record(ctx, actorFrom(ctx), "read", id)
}

// currentSchema loads the encryption schema once; every request after the
// first shares it.
func (s *Server) currentSchema() (*store.Schema, error) {
	s.schemaOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), schemaLoadTimeout) // OK
		defer cancel()
		s.schema, s.schemaErr = s.repo.LoadSchema(ctx)
	})
	return s.schema, s.schemaErr
}

// maintenanceCtx returns a context for heavy maintenance work, bounded by
// maintenanceBudget and cancelled at shutdown.
func (s *Server) maintenanceCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(s.baseCtx, maintenanceBudget)
}

// emit records an event. Its arguments are key material for the audit row:
// strings become the subject, a context (if any) is used for the write.
func (s *Server) emit(action string, args ...any) {
	var (
		ctx     context.Context
		subject string
	)
	for _, a := range args {
		switch v := a.(type) {
		case context.Context:
			ctx = v
		case string:
			subject = v
		}
	}
	if ctx == nil {
		ctx = context.Background() // OK
	}
	if err := s.audit.Record(ctx, actorFrom(ctx), action, subject); err != nil {
		s.log.Warn("audit", "action", action, "err", err)
	}
}

func (s *Server) subscribe(prefix string) chan event {
	ch := make(chan event, 16)
	s.subsMu.Lock()
	s.subs[ch] = prefix
	s.subsMu.Unlock()
	return ch
}

func (s *Server) unsubscribe(ch chan event) {
	s.subsMu.Lock()
	delete(s.subs, ch)
	s.subsMu.Unlock()
}

func (s *Server) publish(ev event) {
	s.subsMu.Lock()
	defer s.subsMu.Unlock()
	s.recent = append(s.recent, ev)
	if len(s.recent) > 256 {
		s.recent = s.recent[len(s.recent)-256:]
	}
	for ch := range s.subs {
		select {
		case ch <- ev:
		default:
		}
	}
}

func toStatus(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrNotFound):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, store.ErrStale):
		return status.Error(codes.Aborted, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	}
	return status.Error(codes.Internal, err.Error())
}
