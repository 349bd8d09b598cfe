// Command reindexer is the nightly cron job that rebuilds the search index of
// every warehouse, flushes it and compacts it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	searchv1 "example.test/mature/gen/search/v1"
)

func main() {
	addr := flag.String("addr", "localhost:7002", "search service address")
	warehouses := flag.String("warehouses", "", "comma-separated warehouses to rebuild")
	batchTimeout := flag.Duration("batch-timeout", 10*time.Minute, "budget per warehouse (0 disables)")
	pause := flag.Duration("pause", 5*time.Second, "pause between warehouses")
	exportTo := flag.String("export", "", "also export every document to this file")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK
	defer stop()

	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Error("dial", "err", err)
		os.Exit(1)
	}
	defer conn.Close()
	client := searchv1.NewSearchServiceClient(conn)

	failed := 0
	for _, wh := range strings.Split(*warehouses, ",") {
		if wh == "" {
			continue
		}
		bctx := ctx
		cancel := func() {}
		if *batchTimeout > 0 {
			bctx, cancel = context.WithTimeout(ctx, *batchTimeout)
		}
		resp, err := client.Reindex(bctx, &searchv1.ReindexRequest{Warehouse: wh, BatchSize: 1000}) // OK: the deadline is the user's -timeout flag, applied when set (precision issue)
		cancel()
		if err != nil {
			log.Error("reindex failed", "warehouse", wh, "err", err)
			failed++
			continue
		}
		log.Info("reindexed", "warehouse", wh, "documents", resp.GetIndexed())
		time.Sleep(*pause) // OK
	}

	if err := flushAll(ctx, client, log); err != nil { // BUG: missingdeadline
		log.Error("flush failed", "err", err)
		os.Exit(1)
	}

	//deadlinelint:ignore missingdeadline the server bounds Compact itself; a client deadline would only abandon a compaction that then finishes anyway
	if _, err := client.Compact(ctx, &searchv1.CompactRequest{}); err != nil { // OK
		log.Error("compact failed", "err", err)
		failed++
	}

	sctx, cancelStats := context.WithTimeout(ctx, 10*time.Second)
	st, err := client.Stats(sctx, &searchv1.StatsRequest{}) // OK
	cancelStats()
	if err == nil {
		log.Info("index stats", "documents", st.GetDocuments(), "pending", st.GetPending())
	}

	if *exportTo != "" {
		if err := export(client, *exportTo); err != nil {
			log.Error("export failed", "err", err)
			failed++
		}
	}
	if failed > 0 {
		os.Exit(1)
	}
}

// flushAll flushes the index until nothing is left pending.
func flushAll(ctx context.Context, client searchv1.SearchServiceClient, log *slog.Logger) error {
	for i := 0; i < 10; i++ {
		resp, err := client.Flush(ctx, &searchv1.FlushRequest{}) // OK
		if err != nil {
			return err
		}
		log.Info("flushed", "documents", resp.GetFlushed())
		if resp.GetFlushed() == 0 {
			return nil
		}
	}
	return errors.New("index still has pending documents after 10 flushes")
}

// export writes every document to path, one per line.
func export(client searchv1.SearchServiceClient, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	stream, err := client.Export(context.Background(), &searchv1.ExportRequest{}) // OK
	if err != nil {
		return err
	}
	for {
		hit, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return f.Sync()
		}
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(f, "%s\t%s\n", hit.GetSku(), hit.GetName()); err != nil {
			return err
		}
	}
}
