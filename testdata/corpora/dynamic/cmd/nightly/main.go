// Command nightly is the job runner's nightly cron job: it refreshes, reconciles, corrects and
// exports inventory through the inventory service. Nothing here runs on behalf of a request.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	invpb "example.test/dynamic/gen/inventory/v1"
)

type nightly struct {
	inv     invpb.InventoryServiceClient
	bounded invpb.InventoryServiceClient
	cc      grpc.ClientConnInterface
	fetch   func(context.Context, *invpb.GetItemRequest, ...grpc.CallOption) (*invpb.Item, error)

	skus      []string
	shrinkage map[string]int64
	returns   map[string]int64
	counted   map[string]int64
	samples   []string
	stale     []string
	dryRun    bool
	offline   bool
	out       io.Writer
}

// defaultDeadline gives every unary call that has no deadline one of d.
func defaultDeadline(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

func readCounts(path string) (map[string]int64, error) {
	out := map[string]int64{}
	if path == "" {
		return out, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sku, n, ok := strings.Cut(sc.Text(), ",")
		if !ok {
			continue
		}
		v, err := strconv.ParseInt(strings.TrimSpace(n), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out[strings.TrimSpace(sku)] = v
	}
	return out, sc.Err()
}

func main() {
	addr := flag.String("inventory", "localhost:9090", "inventory service address")
	skus := flag.String("skus", "", "comma-separated SKUs")
	shrink := flag.String("shrinkage", "", "CSV of sku,delta")
	returns := flag.String("returns", "", "CSV of sku,delta")
	counted := flag.String("counted", "", "CSV of sku,delta from the stock count")
	stale := flag.String("stale", "", "comma-separated reservation ids older than a day")
	dryRun := flag.Bool("dry-run", false, "print corrections instead of booking them")
	offline := flag.Bool("offline", false, "read items from the local snapshot")
	flag.Parse()

	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	bconn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(defaultDeadline(20*time.Second)))
	if err != nil {
		log.Fatal(err)
	}
	defer bconn.Close()

	j := &nightly{
		inv:     invpb.NewInventoryServiceClient(conn),
		bounded: invpb.NewInventoryServiceClient(bconn),
		cc:      conn,
		skus:    strings.Split(*skus, ","),
		samples: strings.Split(*skus, ","),
		stale:   strings.Split(*stale, ","),
		dryRun:  *dryRun,
		offline: *offline,
		out:     os.Stdout,
	}
	j.fetch = j.inv.GetItem
	for _, in := range []struct {
		path string
		dst  *map[string]int64
	}{{*shrink, &j.shrinkage}, {*returns, &j.returns}, {*counted, &j.counted}} {
		m, err := readCounts(in.path)
		if err != nil {
			log.Fatal(err)
		}
		*in.dst = m
	}

	tasks := []struct {
		name string
		run  func() error
	}{
		{"refresh", j.refreshAll},
		{"refresh-bounded", j.refreshBounded},
		{"probe", j.probeAll},
		{"shrinkage", j.adjustShrinkage},
		{"returns", j.adjustReturns},
		{"audit-prices", j.auditPrices},
		{"audit-counts", j.auditCounts},
		{"samples", j.reserveSamples},
		{"release-samples", j.releaseSamples},
		{"reconcile", j.reconcile},
		{"reconcile-bounded", j.reconcileBounded},
		{"sync", j.syncAll},
		{"checks", j.checkAll},
		{"correct", j.correctCounts},
		{"release-stale", j.releaseStale},
		{"release-stale-bounded", j.releaseStaleBounded},
		{"snapshot", j.snapshot},
		{"quote", j.quote},
		{"verify", j.verify},
		{"export", j.exportAll},
		{"export-bounded", j.exportBounded},
		{"watch", j.watchLowStock},
	}
	failed := 0
	for _, t := range tasks {
		start := time.Now()
		if err := t.run(); err != nil {
			log.Printf("nightly: %s: %v", t.name, err)
			failed++
			continue
		}
		log.Printf("nightly: %s done in %s", t.name, time.Since(start).Round(time.Millisecond))
	}
	if failed > 0 {
		os.Exit(1)
	}
}
