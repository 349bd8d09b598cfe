// Command cpserver runs the control plane: the JobService (gRPC) and the
// NodeService (connect) over one state store.
package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"

	cpv1 "example.test/controlplane/gen/controlplane/v1"
	"example.test/controlplane/internal/nodeapi"
	"example.test/controlplane/internal/plugin"
	"example.test/controlplane/internal/rpcx"
	"example.test/controlplane/internal/server"
	"example.test/controlplane/internal/store"
	"example.test/controlplane/internal/telemetry"
)

func main() {
	var (
		grpcAddr   = flag.String("grpc", ":7443", "JobService listen address")
		httpAddr   = flag.String("http", ":7080", "NodeService listen address")
		dsn        = flag.String("dsn", "postgres://localhost/cp", "state store DSN")
		pluginDir  = flag.String("plugin-dir", "/var/lib/cp/plugins", "driver plugin sockets")
		execPlugin = flag.String("exec-plugin", "unix:///var/lib/cp/plugins/exec.sock", "the exec driver plugin")
		auditURL   = flag.String("audit-url", "http://localhost:9090/audit", "audit collector")
		issuer     = flag.String("issuer", "https://auth.example.test", "token issuer")
	)
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	rpcx.SetProcessContext(ctx)

	st, err := store.Open(*dsn)
	if err != nil {
		log.Fatal(err)
	}

	// The exec driver must be up before we accept jobs.
	conn, err := rpcx.Dial(ctx, *execPlugin) // OK? missingdeadline — a blocking dial (WithBlock) on the signal ctx: start-up waits forever for a missing plugin socket, but a dial is no unary RPC and the catalogue treats dials as shared connections, outside every rule.
	if err != nil {
		log.Fatal(err)
	}
	execDrv := plugin.NewGRPCDriver("exec", conn)
	version, err := execDrv.Handshake(context.Background()) // BUG: missingdeadline — Handshake passes its ctx to the plugin's unary RPC; start-up waits forever on a plugin that accepts but never answers.
	if err != nil {
		log.Fatalf("exec plugin: %v", err)
	}
	log.Printf("exec plugin %s", version)

	dispatch := store.NewDispatcher(1024, 8)
	go dispatch.Run(ctx)

	auditor := telemetry.NewAuditor(&telemetry.HTTPSink{URL: *auditURL, Client: &http.Client{Timeout: 5 * time.Second}})
	srv := server.New(ctx, server.Deps{
		Store:    st,
		Shards:   store.NewShards(func(ns string) string { return *dsn + "?search_path=" + ns }),
		Dispatch: dispatch,
		Catalog:  plugin.NewCatalog(*pluginDir, rpcx.Dial),
		Pool:     plugin.NewPool(rpcx.Dial),
		Auditor:  auditor,
		Logs:     server.FileLogs{Dir: "/var/log/cp"},
	})
	go srv.Run()

	verifier := rpcx.NewVerifier(*issuer, fetchKeys)
	timeouts := rpcx.MethodTimeouts{
		cpv1.JobService_SubmitJob_FullMethodName: 30 * time.Second,
		cpv1.JobService_ListJobs_FullMethodName:  10 * time.Second,
	}
	g := grpc.NewServer(
		grpc.ChainUnaryInterceptor(rpcx.UnaryRecovery(auditor), rpcx.UnaryLogging, verifier.UnaryAuth, timeouts.UnaryTimeout()),
		grpc.ChainStreamInterceptor(verifier.StreamAuth),
	)
	srv.Register(g)

	nodes, err := nodeapi.New(ctx, st.DB(), nodeapi.NewBus())
	if err != nil {
		log.Fatal(err)
	}
	// Warm the node inventory before serving (in process, no RPC).
	if resp, err := nodes.ListNodes(context.Background(), connect.NewRequest(&cpv1.ListNodesRequest{Status: "ready"})); err == nil { // OK: missingdeadline look-alike — a concrete method of another package with connect's unary shape, judged by its body: the handler run in process makes no RPC.
		log.Printf("%d nodes ready", len(resp.Msg.GetNodes()))
	}
	mux := http.NewServeMux()
	mux.Handle(nodes.Handler())
	httpSrv := &http.Server{Addr: *httpAddr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}

	lis, err := net.Listen("tcp", *grpcAddr)
	if err != nil {
		log.Fatal(err)
	}
	go func() { _ = g.Serve(lis) }()
	go func() {
		if err := httpSrv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Print(err)
		}
	}()

	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_ = httpSrv.Shutdown(sctx)
	g.GracefulStop()
	_ = execDrv.Close()
}

func fetchKeys(ctx context.Context, issuer string) (map[string][]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, issuer+"/keys", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return map[string][]byte{"k1": nil}, nil
}
