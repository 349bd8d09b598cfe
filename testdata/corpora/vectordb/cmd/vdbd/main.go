// Command vdbd runs the roles of the cluster in one process: root, data and
// query coordinators, the registry, data and query nodes, the streaming node
// and the proxy, plus the connect-go admin service.
package main

import (
	"context"
	"errors"
	"flag"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/gen/vdbpb/vdbpbconnect"
	"example.test/vectordb/internal/coord"
	"example.test/vectordb/internal/datanode"
	"example.test/vectordb/internal/grpcx"
	"example.test/vectordb/internal/lifecycle"
	"example.test/vectordb/internal/log"
	"example.test/vectordb/internal/proxy"
	"example.test/vectordb/internal/querynode"
	"example.test/vectordb/internal/session"
	"example.test/vectordb/internal/storage"
	"example.test/vectordb/internal/wal"
)

func main() {
	var (
		listen      = flag.String("listen", ":19530", "gRPC listen address")
		adminListen = flag.String("admin-listen", ":9091", "admin (connect) listen address")
		advertise   = flag.String("advertise", "127.0.0.1:19530", "address other nodes reach this one at")
		coordAddr   = flag.String("coord", "127.0.0.1:19530", "coordinator address")
		walAddr     = flag.String("wal", "127.0.0.1:19530", "streaming node address")
		metaDriver  = flag.String("meta-driver", "sqlite", "database/sql driver of the meta store")
		metaDSN     = flag.String("meta-dsn", "file:meta.db", "meta store DSN")
		objEndpoint = flag.String("object-endpoint", "http://127.0.0.1:9000", "object store endpoint")
		bucket      = flag.String("bucket", "vdb", "object store bucket")
		roles       = flag.String("roles", "rootcoord,datacoord,querycoord,datanode,querynode,streamingnode,proxy", "roles to run")
		preStart    = flag.String("pre-start-hook", "", "shell command run before start")
		embedURL    = flag.String("embed-url", "http://127.0.0.1:8080/embed", "text embedding service")
	)
	flag.Parse()
	enabled := map[string]bool{}
	for _, r := range strings.Split(*roles, ",") {
		enabled[strings.TrimSpace(r)] = true
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK: ctxbackground — main, not a request scope
	defer stop()

	if *preStart != "" {
		if out, err := exec.Command("sh", "-c", *preStart).CombinedOutput(); err != nil { // OK: ctxless — main, not a request scope
			log.L().Error("pre-start hook failed", log.String("output", string(out)), log.Err(err))
			os.Exit(1)
		}
	}

	kv, err := storage.OpenMetaKV(*metaDriver, *metaDSN, "vdb")
	if err != nil {
		log.L().Error("open meta store", log.Err(err))
		os.Exit(1)
	}
	defer kv.Close()
	cm := storage.NewChunkManager(*objEndpoint, *bucket)
	conns := grpcx.NewConnCache(5 * time.Second)
	defer conns.Close()

	dialCtx, cancelDial := context.WithTimeout(ctx, 10*time.Second)
	coordConn, err := grpcx.Dial(dialCtx, *coordAddr)
	if err != nil {
		log.L().Error("dial coordinator", log.Err(err))
		os.Exit(1)
	}
	walConn, err := grpcx.Dial(dialCtx, *walAddr)
	cancelDial()
	if err != nil {
		log.L().Error("dial streaming node", log.Err(err))
		os.Exit(1)
	}

	mgr := lifecycle.NewManager()
	var opts []grpc.ServerOption
	var px *proxy.Proxy
	if enabled["proxy"] {
		qc := coord.NewQueryCoordClient(coordConn, 5*time.Second)
		px = proxy.New(proxy.Config{EmbedURL: *embedURL, MetaCacheTTL: time.Minute}, coordConn, qc, wal.NewClient(walConn, conns), conns)
		opts = append(opts, px.ServerOptions()...)
	}
	srv := grpc.NewServer(opts...)

	var reg *coord.Registry
	if enabled["rootcoord"] {
		rc := coord.NewRootCoord(kv)
		reg = coord.NewRegistry(rc)
		vdbpb.RegisterRootCoordServer(srv, rc)
		vdbpb.RegisterRegistryServer(srv, reg)
		mgr.Add(rc)
		mgr.Add(reg)
	}
	ring := session.NewRing(coordConn, "datanode")
	defer ring.Close()
	nodeAddrs := func() []string {
		var out []string
		for _, m := range ring.Members() {
			out = append(out, m.GetAddr())
		}
		return out
	}
	if enabled["datacoord"] {
		dc := coord.NewDataCoord(kv, cm, coordConn, conns, nodeAddrs, []string{"by-dev-dml_0v"})
		vdbpb.RegisterDataCoordServer(srv, dc)
		mgr.Add(dc)
	}
	if enabled["querycoord"] {
		qcs := coord.NewQueryCoord(coordConn, conns, nodeAddrs)
		vdbpb.RegisterQueryCoordServer(srv, qcs)
		mgr.Add(qcs)
	}
	if enabled["datanode"] {
		dn := datanode.New(cm, coordConn, walConn, []string{"by-dev-dml_0v"})
		vdbpb.RegisterDataNodeServer(srv, dn)
		mgr.Add(dn)
	}
	if enabled["querynode"] {
		qn := querynode.New(cm)
		vdbpb.RegisterQueryNodeServer(srv, qn)
		mgr.Add(qn)
	}
	if enabled["streamingnode"] {
		sn := wal.NewServer(cm, *advertise, []string{"by-dev-dml_0"})
		vdbpb.RegisterStreamingNodeServer(srv, sn)
		mgr.Add(sn)
	}
	if px != nil {
		vdbpb.RegisterProxyServer(srv, px)
		mgr.Add(px)
	}

	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		log.L().Error("listen", log.Err(err))
		os.Exit(1)
	}
	go func() { _ = srv.Serve(lis) }()
	if err := mgr.Start(time.Minute); err != nil {
		log.L().Error("start", log.Err(err))
		os.Exit(1)
	}

	sess := session.New(mgr.Context(), coordConn, *roles, *advertise, 30*time.Second)
	if err := sess.Register(); err != nil { // BUG: missingdeadline — Register's RPC has no deadline; the convenience API is reported at its caller
		log.L().Error("register session", log.Err(err))
		os.Exit(1)
	}
	defer sess.Stop()
	if leader, err := ring.Leader(); err == nil && leader != nil { // OK: missingdeadline — Leader wraps an unexported helper: a fix needs a new API, its callers are not reported
		log.L().Info("data node leader", log.String("addr", leader.GetAddr()))
	}

	// Wait for the data nodes to show up, with a watchdog on the listing.
	wctx, wcancel := context.WithCancel(ctx)
	watchdog := time.AfterFunc(15*time.Second, wcancel)
	if resp, err := vdbpb.NewRegistryClient(coordConn).ListMembers(wctx, &vdbpb.ListMembersRequest{Role: "datanode"}); err == nil { // OK: missingdeadline — the ctx's cancel is run by a timer (a watchdog)
		log.L().Info("data nodes", log.Int("count", len(resp.GetMembers())))
	}
	watchdog.Stop()
	wcancel()

	// Probe the coordinator through a connection whose interceptor gives every call a deadline.
	if hc, err := grpcx.DialWithDefaultDeadline(ctx, *coordAddr, 3*time.Second); err == nil {
		if _, err := vdbpb.NewRootCoordClient(hc).AllocTimestamp(context.Background(), &vdbpb.AllocTimestampRequest{Count: 1}); err != nil { // OK: missingdeadline — the conn's interceptor sets a default deadline
			log.L().Warn("coordinator probe failed", log.Err(err))
		}
		_ = hc.Close()
	}

	mux := http.NewServeMux()
	if reg != nil {
		admin := coord.NewAdmin(kv, reg)
		if resp, err := admin.GetConfig(context.Background(), connect.NewRequest(&vdbpb.GetConfigRequest{Key: "cluster.name"})); err == nil { // OK: missingdeadline — a concrete connect-shaped method run in-process: its body makes no RPC
			log.L().Info("cluster", log.String("name", resp.Msg.GetValue()))
		}
		path, h := vdbpbconnect.NewAdminServiceHandler(admin)
		mux.Handle(path, h)
	}
	httpSrv := &http.Server{Addr: *adminListen, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := httpSrv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.L().Error("admin server", log.Err(err))
		}
	}()

	// Replay the WAL tail into the log at start-up, until shutdown.
	go func() {
		stream, err := vdbpb.NewStreamingNodeClient(walConn).Consume(ctx, &vdbpb.ConsumeRequest{Vchannel: "by-dev-dml_0v"}) // OK: missingdeadline — a server-streaming follow, not a unary call
		if err != nil {
			return
		}
		for {
			if _, err := stream.Recv(); err != nil {
				return
			}
		}
	}()

	select {
	case <-ctx.Done():
	case err := <-sess.Lost():
		log.L().Error("session lost", log.Err(err))
	}
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // OK: ctxbackground — shutdown in main
	defer cancel()
	_ = httpSrv.Shutdown(sctx)
	srv.GracefulStop()
	mgr.Stop()
	lifecycle.Shutdown()
}
