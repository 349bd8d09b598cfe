// Package tabletmanager is the control plane of one tablet: it serves the
// TabletManager gRPC service that vtctld and operators call to reload the
// schema, change the tablet's type, run hooks and take backups.
package tabletmanager

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"time"

	"google.golang.org/grpc"

	"example.test/sqlproxy/gen/tabletmanagerpb"
	"example.test/sqlproxy/internal/servenv"
	"example.test/sqlproxy/tabletserver"
	"example.test/sqlproxy/topo"
)

// TabletManager serves the TabletManager service of one tablet.
type TabletManager struct {
	tabletmanagerpb.UnimplementedTabletManagerServer

	alias       string
	ts          *topo.Server
	tsv         *tabletserver.TabletServer
	mysqld      *Mysqld
	hookDir     string
	mysqlctlBin string
	logger      *slog.Logger

	// NewBackupStorage opens the backup storage called name. main wires
	// it to the storage implementation the tablet was configured with.
	NewBackupStorage func(ctx context.Context, name string) (BackupStorage, error)

	actionSema chan struct{}
	ctx        context.Context
	cancel     context.CancelFunc

	mu           sync.Mutex
	mysqlVersion string
	reporter     *replicationReporter
	backupMu     sync.Mutex
}

// New returns the tablet manager of tablet alias.
func New(alias string, ts *topo.Server, tsv *tabletserver.TabletServer, db *sql.DB, hookDir string) *TabletManager {
	ctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — constructor: the manager's lifetime, not a request scope
	return &TabletManager{
		alias:       alias,
		ts:          ts,
		tsv:         tsv,
		mysqld:      NewMysqld(db),
		hookDir:     hookDir,
		mysqlctlBin: "mysqlctl",
		logger:      slog.New(slog.NewTextHandler(os.Stderr, nil)).With("tablet", alias),
		actionSema:  make(chan struct{}, 1),
		ctx:         ctx,
		cancel:      cancel,
	}
}

// Register registers the TabletManager service on gs.
func (tm *TabletManager) Register(gs *grpc.Server) {
	tabletmanagerpb.RegisterTabletManagerServer(gs, tm)
}

// Start checks mysqld and makes the tablet serve as a replica.
func (tm *TabletManager) Start() error {
	out, err := exec.Command(tm.mysqlctlBin, "status").CombinedOutput() // OK: ctxless — Start is not a request scope
	if err != nil {
		return fmt.Errorf("mysqlctl status: %v: %s", err, out)
	}
	ctx, cancel := context.WithTimeout(tm.ctx, 30*time.Second)
	defer cancel()
	if err := tm.tsv.SetServingType(ctx, "replica"); err != nil {
		return err
	}
	servenv.Infof(ctx, "tablet %s serving", tm.alias)
	return nil
}

// Close stops the manager's background work.
func (tm *TabletManager) Close() {
	tm.mu.Lock()
	if tm.reporter != nil {
		tm.reporter.Stop()
		tm.reporter = nil
	}
	tm.mu.Unlock()
	tm.cancel()
}

// lock takes the action lock: one action at a time per tablet.
func (tm *TabletManager) lock(ctx context.Context) error {
	select {
	case tm.actionSema <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting for the action lock: %w", ctx.Err())
	}
}

func (tm *TabletManager) unlock() { <-tm.actionSema }

// fixSemiSync makes mysqld's semi-sync setting follow the tablet's type.
func (tm *TabletManager) fixSemiSync(ctx context.Context, enabled bool) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := tm.mysqld.SetSemiSync(ctx, enabled); err != nil {
		servenv.Warningf(ctx, "semi-sync: %v", err)
	}
}
