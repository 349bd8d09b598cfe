// Command bcserver runs the remote cache, scheduler and admin API.
package main

import (
	"context"
	"database/sql"
	"flag"
	"log"
	"net"
	"net/http"
	"os/signal"
	"syscall"
	"time"

	"example.test/buildcache/gen/adminv1/adminv1connect"
	"example.test/buildcache/gen/bcv1"
	"example.test/buildcache/internal/ac"
	"example.test/buildcache/internal/admin"
	"example.test/buildcache/internal/cas"
	"example.test/buildcache/internal/exec"
	"example.test/buildcache/internal/gc"
	"example.test/buildcache/internal/pool"
	"example.test/buildcache/internal/proxy"
	"google.golang.org/grpc"
)

func main() {
	listen := flag.String("listen", ":8980", "gRPC address")
	adminAddr := flag.String("admin", ":8981", "admin address")
	upstream := flag.String("upstream", "", "upstream cache")
	dir := flag.String("dir", "/var/cache/bc", "blob directory")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM) // OK: ctxbackground — main
	defer stop()
	exec.Init(ctx)

	db, err := sql.Open("postgres", "postgres:///buildcache")
	if err != nil {
		log.Fatal(err)
	}
	conn, err := pool.Dial(ctx, *upstream)
	if err != nil {
		log.Fatal(err)
	}
	up := proxy.New(conn, "http://blobs.internal")
	if err := up.Ping(); err != nil { // BUG: missingdeadline — Ping's GetCapabilities has no deadline; the caller is where it is fixed
		log.Printf("upstream not reachable: %v", err)
	}
	peer := bcv1.NewContentAddressableStorageClient(conn)
	casSrv := cas.NewServer(db, *dir, up, peer)
	ops := exec.NewOpTable(db)
	defer ops.Stop()
	q := exec.NewQueue(db)
	self, err := pool.DialBounded(ctx, *listen, 30*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	srv := grpc.NewServer()
	cas.Register(srv, casSrv, cas.NewByteStream(cas.NewDiskStore(*dir, db), "http://blobs.internal"))
	ac.Register(srv, ac.New(ctx, db, bcv1.NewContentAddressableStorageClient(self), up))
	exec.Register(srv, exec.NewExecution(ops, q, bcv1.NewActionCacheClient(self)), exec.NewBots(ops, q))

	lru := gc.NewLRU(db, peer)
	collector := gc.NewCollector(db, peer, time.Hour)
	go collector.Run()
	defer collector.Close()

	tenants := map[string]context.Context{"default": ctx}
	mux := http.NewServeMux()
	mux.Handle(adminv1connect.NewAdminServiceHandler(admin.New(cas.NewIndex(db), ops, lru, tenants)))
	go func() { _ = http.ListenAndServe(*adminAddr, mux) }()

	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	go func() {
		<-ctx.Done()
		srv.GracefulStop()
	}()
	if err := srv.Serve(lis); err != nil {
		log.Fatal(err)
	}
}
