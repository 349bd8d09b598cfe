// Command control-plane runs the mesh control plane: discovery, destination, CA, resource
// API, node service, admin API and the reconciler.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/mesh/gen/adminv1/adminv1connect"
	"example.test/mesh/gen/cav1"
	"example.test/mesh/internal/admin"
	"example.test/mesh/internal/audit"
	"example.test/mesh/internal/ca"
	"example.test/mesh/internal/destination"
	"example.test/mesh/internal/dnscache"
	"example.test/mesh/internal/kms"
	"example.test/mesh/internal/lifecycle"
	"example.test/mesh/internal/nodes"
	"example.test/mesh/internal/pki"
	"example.test/mesh/internal/reconciler"
	"example.test/mesh/internal/resourceapi"
	"example.test/mesh/internal/store"
	"example.test/mesh/internal/telemetry"
	"example.test/mesh/internal/xds"
)

var (
	version = "dev"
	commit  = "none"
)

func main() {
	var (
		grpcAddr    = flag.String("grpc", ":5681", "gRPC listen address")
		adminAddr   = flag.String("admin", ":5680", "admin listen address")
		dsn         = flag.String("dsn", "postgres://mesh@localhost/mesh", "store DSN")
		kmsURL      = flag.String("kms", "http://localhost:8200", "KMS URL")
		keyID       = flag.String("ca-key", "mesh-intermediate", "KMS key of the intermediate CA")
		rootKeyID   = flag.String("root-key", "mesh-root", "KMS key of the root CA")
		auditURL    = flag.String("audit", "http://localhost:9880/audit", "audit sink")
		webhookURL  = flag.String("webhook", "http://localhost:9443/validate", "validating webhook")
		hooks       = flag.String("event-hooks", "", "comma-separated event webhooks")
		meshList    = flag.String("meshes", "default", "comma-separated meshes")
		peers       = flag.String("peers", "", "comma-separated peer control planes (udp)")
		external    = flag.String("external-names", "", "external names to pre-resolve")
		fallbackDNS = flag.Bool("fallback-dns", false, "resolve unknown names with the system resolver")
	)
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK: ctxbackground — main is not a request scope
	defer stop()
	lifecycle.Init(ctx)
	admin.Init(ctx)

	if resp, err := http.Get(*kmsURL + "/healthz"); err != nil { // OK: ctxless — a start-up check in main, not a request scope
		fmt.Fprintln(os.Stderr, "kms not reachable:", err)
	} else {
		resp.Body.Close()
	}

	st, err := store.Open("postgres", *dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer st.Close()

	loggers := map[string]*telemetry.Logger{"main": telemetry.NewLogger("control-plane")}
	cache := xds.NewSnapshotCache()
	gen := xds.NewGenerator(st)
	x := xds.NewServer(ctx, cache, gen, st, splitList(*hooks))
	x.Start()

	issuer := pki.NewIssuer(kms.New(*kmsURL), st, *keyID, *rootKeyID)
	al := audit.New(*auditURL)
	go al.Run(ctx, 5*time.Second)
	caSrv := ca.NewServer(ctx, issuer, al)
	go caSrv.RunRotation(ctx, 24*time.Hour)

	meshes := map[string]context.Context{}
	var cancels []context.CancelFunc
	for _, m := range splitList(*meshList) {
		mctx, cancel := context.WithCancel(ctx)
		meshes[m] = mctx
		cancels = append(cancels, cancel)
	}
	defer func() {
		for _, c := range cancels {
			c()
		}
	}()
	res := resourceapi.NewServer(st, *webhookURL, al, meshes)

	dns := dnscache.New(30 * time.Second)
	go dns.Warm(context.Background(), splitList(*external)) // OK: ctxbackground — main warming a cache before serving
	dest := destination.NewServer(st, dns, *fallbackDNS)
	nodeSrv := nodes.NewServer(st, version, *grpcAddr, splitList(*peers))
	go nodeSrv.ExpireSessions(ctx, time.Minute)

	caConn, err := grpc.NewClient(*grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer caConn.Close()
	host, _ := os.Hostname()
	rec := reconciler.New(st, cache, gen, cav1.NewCertificateAuthorityClient(caConn), host)
	go rec.Run(ctx)
	defer rec.Close()

	log := loggers["main"]
	g := grpc.NewServer(grpc.ChainUnaryInterceptor(unaryInterceptor(log)), grpc.ChainStreamInterceptor(streamInterceptor(log)))
	x.Register(g)
	caSrv.Register(g)
	res.Register(g)
	dest.Register(g)
	nodeSrv.Attach(g)

	adminSvc := admin.NewService(ctx, st, cache, x, loggers, version, commit)
	mux := http.NewServeMux()
	path, h := adminv1connect.NewAdminServiceHandler(adminSvc)
	mux.Handle(path, h)
	mux.Handle("/debug/", adminSvc.DebugMux())
	httpSrv := &http.Server{Addr: *adminAddr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}

	lis, err := net.Listen("tcp", *grpcAddr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go func() { _ = g.Serve(lis) }()
	go func() {
		if err := httpSrv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error(ctx, "admin server", "err", err)
		}
	}()

	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // OK: ctxbackground — main's shutdown, bounded
	defer cancel()
	_ = httpSrv.Shutdown(sctx)
	g.GracefulStop()
	lifecycle.Shutdown()
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
