// Command migrate applies schema migrations once, then asks the admin service to rebuild indexes.
package main

import (
	"context"
	"flag"
	"log"
	"net/http"
	"time"

	"connectrpc.com/connect"

	adminv1 "example.test/workflow/gen/admin/v1"
	"example.test/workflow/gen/admin/v1/adminv1connect"
	"example.test/workflow/internal/persistence"
)

var migrations = []string{
	"CREATE TABLE IF NOT EXISTS history (shard INT, wf TEXT, id BIGINT, type TEXT, data BYTEA)",
	"CREATE TABLE IF NOT EXISTS visibility (ns TEXT, wf TEXT, status TEXT, at TIMESTAMP)",
}

func main() {
	dsn := flag.String("dsn", "", "database")
	adminURL := flag.String("admin", "http://localhost:7234", "admin URL")
	ns := flag.String("namespace", "default", "namespace to reindex")
	flag.Parse()
	store, err := persistence.Open("postgres", *dsn)
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	for _, m := range migrations {
		if _, err := store.DB().Exec(m); err != nil { // OK: ctxless — main is no request scope
			log.Fatal(err)
		}
	}
	admin := adminv1connect.NewAdminServiceClient(http.DefaultClient, *adminURL)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := admin.DescribeCluster(ctx, connect.NewRequest(&adminv1.DescribeClusterRequest{})); err != nil { // OK: missingdeadline — bounded
		log.Fatal(err)
	}
	resp, err := admin.RebuildIndex(context.Background(), connect.NewRequest(&adminv1.RebuildIndexRequest{Namespace: *ns})) // BUG: missingdeadline — the rebuild RPC has no deadline
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("reindexed %d rows", resp.Msg.GetRows())
}
