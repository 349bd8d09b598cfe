// Command storaged runs a storage node, optionally with an embedded meta
// service.
package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"example.test/storage/gen/storagepb"
	"example.test/storage/gen/storagepb/storagepbconnect"
	"example.test/storage/internal/admin"
	"example.test/storage/internal/kv"
	"example.test/storage/internal/lifecycle"
	"example.test/storage/internal/meta"
	"example.test/storage/internal/obs"
	"example.test/storage/internal/peer"
	"example.test/storage/internal/store"
	"example.test/storage/internal/worker"
	"google.golang.org/grpc"
)

func main() {
	var (
		listen    = flag.String("listen", ":20160", "gRPC listen address")
		adminAddr = flag.String("admin", ":20180", "admin (connect) listen address")
		metaAddr  = flag.String("meta", "127.0.0.1:2379", "meta service address")
		driver    = flag.String("driver", "sqlite", "database/sql driver")
		dsn       = flag.String("dsn", "file:store.db", "primary database")
		replica   = flag.String("replica-dsn", "file:replica.db", "read replica database")
		tenantDSN = flag.String("tenant-dsn", "file:tenant-%s.db", "per-tenant database pattern")
		storeID   = flag.Uint64("store-id", 1, "this store's id")
		embedMeta = flag.Bool("embedded-meta", false, "also serve the meta service")
		dataDir   = flag.String("data", "/var/lib/storaged", "data directory")
	)
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	lifecycle.Init(ctx)
	defer lifecycle.Shutdown()

	octx, ocancel := context.WithTimeout(ctx, 30*time.Second)
	primary, err := kv.OpenSQL(octx, *driver, *dsn, "kv")
	if err != nil {
		log.Fatalf("open primary: %v", err)
	}
	replicaStore, err := kv.OpenSQL(octx, *driver, *replica, "kv")
	ocancel()
	if err != nil {
		log.Fatalf("open replica: %v", err)
	}

	metaConn, err := peer.DialMeta(*metaAddr)
	if err != nil {
		log.Fatalf("dial meta: %v", err)
	}
	metaRPC := storagepb.NewMetaServiceClient(metaConn)
	if _, err := metaRPC.StoreHeartbeat(context.Background(), &storagepb.StoreHeartbeatRequest{StoreId: *storeID, Address: *listen}); err != nil { // OK: missingdeadline — the conn comes from peer.DialMeta, which always installs the DefaultDeadline interceptor
		log.Fatalf("register with meta: %v", err)
	}

	gcConn, err := peer.Dial(ctx, *metaAddr)
	if err != nil {
		log.Fatalf("dial meta for gc: %v", err)
	}
	gc := worker.NewGCWorker(gcConn, primary, time.Minute)
	gc.Start()
	defer gc.Stop()

	hb := worker.NewHeartbeater(metaRPC, *storeID, *listen, 10*time.Second, func() uint64 { return 0 })
	go hb.Run(ctx) // OK: missingdeadline — Run derives a deadline for each heartbeat from the ctx it is given

	cfg := &kv.WatchedConfig{}
	go watchConfig(ctx, metaRPC, cfg)

	pool := peer.NewPool()
	defer pool.Close()
	addrs := peer.NewAddrCache(metaRPC, 30*time.Second)
	storeSrv := store.NewServer(ctx, store.Config{Regions: 64, Owned: map[uint64]bool{1: true}, Penalty: 50 * time.Millisecond},
		primary, replicaStore, kv.NewRegistry(*driver, *tenantDSN), primary.DB(), pool, addrs)
	defer storeSrv.Close()

	members := &meta.Members{}
	latency := obs.NewHistogram("grpc_server_handling_seconds")
	gs := grpc.NewServer(grpc.ChainUnaryInterceptor(meta.LeaderOnly(members, latency)))
	storeSrv.Register(gs)
	var metaSrv *meta.Server
	if *embedMeta {
		metaSrv = meta.NewServer(lifecycle.Context(), primary, primary.DB(), cfg, *listen)
		metaSrv.Register(gs)
	}

	compactor := worker.NewCompactor(primary, peer.NewMetaClient(metaRPC, 3*time.Second), 30*time.Second)
	defer compactor.Stop()
	logs := &admin.LogTail{}
	slog.SetDefault(slog.New(slog.NewTextHandler(io.MultiWriter(os.Stderr, logWriter{logs}), nil)))
	mux := http.NewServeMux()
	mux.Handle(storagepbconnect.NewAdminServiceHandler(admin.New(compactor, members, primary,
		peer.NewMetaClient(metaRPC, 3*time.Second), primary.DB(), logs, *dataDir, *dataDir+"/snapshots")))
	hs := &http.Server{Addr: *adminAddr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}

	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatalf("listen: %v", err)
	}
	go func() {
		if err := hs.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Printf("admin server: %v", err)
		}
	}()
	go func() {
		if err := gs.Serve(lis); err != nil {
			log.Printf("grpc server: %v", err)
		}
	}()

	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // OK: ctxbackground — main's shutdown budget, not a request scope
	defer cancel()
	_ = hs.Shutdown(sctx)
	gs.GracefulStop()
	if metaSrv != nil {
		_ = metaSrv.Close()
	}
}

// watchConfig keeps cfg in sync with the meta service until ctx ends.
func watchConfig(ctx context.Context, c storagepb.MetaServiceClient, cfg *kv.WatchedConfig) {
	for ctx.Err() == nil {
		stream, err := c.WatchRegions(ctx, &storagepb.WatchRegionsRequest{}) // OK: missingdeadline — a streaming call (only unary calls count)
		if err == nil {
			for {
				ev, err := stream.Recv()
				if err != nil {
					break
				}
				cfg.Replace(map[string]string{"region/last": ev.GetRegion().String()})
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

type logWriter struct{ t *admin.LogTail }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Append(string(p))
	return len(p), nil
}
