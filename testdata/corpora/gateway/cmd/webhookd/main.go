// Command webhookd delivers the gateway's queued webhooks.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"log"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	_ "github.com/lib/pq"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/gateway/gen/accounts/v1/accountsv1connect"
	"example.test/gateway/internal/edgeclient"
	"example.test/gateway/internal/webhook"
)

var (
	dsn         = flag.String("dsn", "postgres://webhookd@localhost/gateway?sslmode=disable", "Postgres DSN")
	accountsURL = flag.String("accounts-url", "http://accounts.internal:8445", "AccountsService base URL")
	edgeAddr    = flag.String("edge-addr", "edge.internal:8443", "EdgeService address")
	secretFile  = flag.String("secret-file", "/etc/webhookd/signing-key", "webhook signing key")
	batch       = flag.Int("batch", 50, "deliveries leased per poll")
	lease       = flag.Duration("lease", 30*time.Second, "lease per delivery")
	purgeOnBoot = flag.String("purge-on-boot", "", "response cache prefix to purge at start-up (after a bad deploy)")
)

func main() {
	flag.Parse()
	if err := run(); err != nil && !errors.Is(err, context.Canceled) {
		log.Fatal(err)
	}
}

func run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK
	defer stop()

	secret, err := os.ReadFile(*secretFile)
	if err != nil {
		return err
	}
	db, err := sql.Open("postgres", *dsn)
	if err != nil {
		return err
	}
	defer db.Close()

	if *purgeOnBoot != "" {
		conn, err := grpc.NewClient(*edgeAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return err
		}
		pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		n, err := edgeclient.New(conn).PurgeCache(pctx, *purgeOnBoot, false) // OK
		cancel()
		conn.Close()
		if err != nil {
			return err
		}
		log.Printf("purged %d cached responses under %q", n, *purgeOnBoot)
	}

	httpClient := &http.Client{Timeout: 15 * time.Second}
	store := webhook.NewStore(db)
	proc := webhook.NewProcessor(store, httpClient, accountsv1connect.NewAccountsServiceClient(httpClient, *accountsURL), secret, 4, 500*time.Millisecond)
	cons := webhook.NewConsumer(store, proc, *batch, *lease, 2*time.Second)
	log.Printf("webhookd consuming (batch %d, lease %s)", *batch, *lease)
	return cons.Run(ctx) // OK
}
