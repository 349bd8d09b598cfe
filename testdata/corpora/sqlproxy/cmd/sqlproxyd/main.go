// sqlproxyd runs the whole proxy in one process: a tablet server and its
// tablet manager beside one MySQL, the query router, vtctld and the VTAdmin
// API. It is the single-process setup used for development and small
// deployments.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/sqlproxy/gen/adminpb"
	"example.test/sqlproxy/gen/adminpb/adminpbconnect"
	"example.test/sqlproxy/internal/servenv"
	"example.test/sqlproxy/tabletmanager"
	"example.test/sqlproxy/tabletserver"
	"example.test/sqlproxy/tmclient"
	"example.test/sqlproxy/topo"
	"example.test/sqlproxy/vtadmin"
	"example.test/sqlproxy/vtctld"
	"example.test/sqlproxy/vtgate"
	"example.test/sqlproxy/workflow"
)

var (
	port       = flag.Int("port", 15991, "gRPC port")
	httpPort   = flag.Int("http_port", 15000, "HTTP port of the VTAdmin API")
	topoImpl   = flag.String("topo_implementation", "memory", "topo store: memory or consul")
	topoAddr   = flag.String("topo_global_server_address", "http://localhost:8500", "topo store address")
	topoRoot   = flag.String("topo_global_root", "/vitess/global", "topo root path")
	dsn        = flag.String("mysql_dsn", "vt_app@unix(/vt/mysql.sock)/vt_commerce", "MySQL DSN")
	alias      = flag.String("tablet_alias", "zone1-100", "alias of the local tablet")
	keyspace   = flag.String("keyspace", "commerce", "keyspace of the local tablet")
	shard      = flag.String("shard", "0", "shard of the local tablet")
	cell       = flag.String("cell", "zone1", "cell of this process")
	backupDir  = flag.String("backup_dir", "/vt/backups", "directory of the file backup storage")
	vtctldAddr = flag.String("remote_vtctld", "", "vtctld to read the initial keyspace list from")
)

// fileStorage is the file backup storage.
type fileStorage struct{ dir string }

func openFileStorage(ctx context.Context, dir string) (*fileStorage, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &fileStorage{dir: dir}, nil
}

func (fs *fileStorage) Write(ctx context.Context, name string, r io.Reader) (int64, error) {
	p := filepath.Join(fs.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return 0, err
	}
	f, err := os.Create(p)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	stop := context.AfterFunc(ctx, func() { f.Close() }) // a cancelled backup stops writing
	defer stop()
	return io.Copy(f, r)
}

func (fs *fileStorage) Close() error { return nil }

func main() {
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK: ctxbackground — main is not a request scope
	defer stop()

	ts, err := topo.Open(*topoImpl, *topoAddr, *topoRoot)
	if err != nil {
		log.Fatal(err)
	}
	db, err := sql.Open("mysql", *dsn)
	if err != nil {
		log.Fatal(err)
	}
	tsv := tabletserver.NewTabletServer(tabletserver.Config{
		Alias:                *alias,
		Keyspace:             *keyspace,
		Shard:                *shard,
		PoolSize:             16,
		TxPoolSize:           20,
		MaxResultRows:        10000,
		StreamBatchSize:      500,
		KillTimeout:          5 * time.Second,
		ShutdownGrace:        30 * time.Second,
		PoolCloseTimeout:     10 * time.Second,
		TxPoolFullPenalty:    100 * time.Millisecond,
		HealthInterval:       20 * time.Second,
		SchemaReloadInterval: 30 * time.Minute,
		SchemaReloadTimeout:  time.Minute,
		EventFlushTimeout:    10 * time.Second,
	}, db)
	tm := tabletmanager.New(*alias, ts, tsv, db, "/vt/hooks")
	tm.NewBackupStorage = func(ctx context.Context, name string) (tabletmanager.BackupStorage, error) {
		return openFileStorage(ctx, filepath.Join(*backupDir, name))
	}
	tmc := tmclient.New(30 * time.Second)
	wf := workflow.NewEngine(ts, tmc)
	vtctl := vtctld.NewServer(ts, tmc, wf)
	hc := vtgate.NewHealthCheck(ts, *cell, 5*time.Second)
	vtg := vtgate.New(vtgate.Config{
		Cell:               *cell,
		ThrottleQPS:        5000,
		ThrottlePenalty:    50 * time.Millisecond,
		HealthWaitInterval: 100 * time.Millisecond,
		MaxHealthWaits:     50,
		RetryBackoff:       50 * time.Millisecond,
		KillTimeout:        5 * time.Second,
		PlanTimeout:        10 * time.Second,
		VSchemaTTL:         time.Minute,
	}, ts, hc, nil)

	if *vtctldAddr != "" {
		cc, err := grpc.NewClient(*vtctldAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			log.Fatal(err)
		}
		resp, err := adminpb.NewVtctldClient(cc).GetKeyspaces(ctx, &adminpb.GetKeyspacesRequest{}) // BUG: missingdeadline — signal.NotifyContext carries no deadline: a hung vtctld blocks start-up for good
		if err != nil {
			log.Fatalf("reading keyspaces from %s: %v", *vtctldAddr, err)
		}
		var names []string
		for _, ks := range resp.GetKeyspaces() {
			names = append(names, ks.GetName())
		}
		wctx, cancel := context.WithTimeout(ctx, time.Minute)
		err = vtg.Warm(wctx, names)
		cancel()
		if err != nil {
			log.Fatal(err)
		}
		// The keyspace of the local tablet must be known to that vtctld too;
		// this client gives every call a default deadline.
		dcc, err := grpc.NewClient(*vtctldAddr, grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithUnaryInterceptor(servenv.DefaultDeadline(10*time.Second)))
		if err != nil {
			log.Fatal(err)
		}
		if _, err := adminpb.NewVtctldClient(dcc).GetKeyspace(ctx, &adminpb.GetKeyspaceRequest{Keyspace: *keyspace}); err != nil { // OK: missingdeadline — the conn's unary interceptor (servenv.DefaultDeadline) sets a default deadline
			log.Fatalf("keyspace %s unknown to %s: %v", *keyspace, *vtctldAddr, err)
		}
	}

	if err := tsv.Open(); err != nil {
		log.Fatal(err)
	}
	if err := tm.Start(); err != nil {
		log.Fatal(err)
	}
	wf.Open()
	hc.Start()

	gs := grpc.NewServer(grpc.UnaryInterceptor(servenv.UnaryServerInterceptor))
	tsv.Register(gs)
	tm.Register(gs)
	vtctl.Register(gs)
	vtg.Register(gs)
	lis, err := net.Listen("tcp", fmt.Sprintf(":%d", *port))
	if err != nil {
		log.Fatal(err)
	}
	go gs.Serve(lis)

	if !tmc.Healthy(lis.Addr().String()) { // OK: missingdeadline — Healthy is a convenience API wrapping an unexported helper: neither it nor its callers are reported
		log.Printf("local tablet manager does not answer yet")
	}

	api := vtadmin.NewAPI([]*vtadmin.Cluster{{ID: "local", Name: *cell, VtctldAddr: lis.Addr().String(), Tablets: []string{lis.Addr().String()}}}, tmc)
	clusters, err := api.GetClusters(context.Background(), connect.NewRequest(&adminpb.GetClustersRequest{})) // OK: missingdeadline — a concrete method of connect's unary shape, judged by its body: it answers from memory and makes no RPC
	if err == nil {
		log.Printf("VTAdmin serving %d cluster(s)", len(clusters.Msg.GetClusters()))
	}
	mux := http.NewServeMux()
	mux.Handle(adminpbconnect.NewVTAdminHandler(api))
	hs := &http.Server{Addr: fmt.Sprintf(":%d", *httpPort), Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := hs.ListenAndServe(); err != nil && err != http.ErrServerClosed {
			log.Fatal(err)
		}
	}()

	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // OK: ctxbackground — main's shutdown, not a request scope
	defer cancel()
	_ = hs.Shutdown(sctx)
	gs.GracefulStop()
	api.Close()
	hc.Stop()
	vtg.Close()
	wf.Close()
	vtctl.Close()
	tm.Close()
	tsv.Close()
	tmc.Close()
	servenv.Shutdown()
}
