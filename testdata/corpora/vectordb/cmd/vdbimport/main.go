// Command vdbimport loads rows from a JSON-lines file into a collection:
// it inserts them in batches through the proxy, flushes, and waits until
// the segments are flushed.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/vectordb/gen/vdbpb"
)

type jsonRow struct {
	Vector  []float32 `json:"vector"`
	Payload string    `json:"payload"`
}

func main() {
	addr := flag.String("addr", "127.0.0.1:19530", "proxy address")
	file := flag.String("file", "", "JSON-lines file of rows")
	db := flag.String("db", "default", "database")
	coll := flag.String("collection", "", "collection")
	batch := flag.Int("batch", 1000, "rows per insert")
	flag.Parse()

	rows, err := readRows(*file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "read rows:", err)
		os.Exit(1)
	}
	cc, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fmt.Fprintln(os.Stderr, "dial:", err)
		os.Exit(1)
	}
	defer cc.Close()
	if err := run(context.Background(), vdbpb.NewProxyClient(cc), vdbpb.NewDataCoordClient(cc), *db, *coll, rows, *batch); err != nil { // BUG: missingdeadline — every RPC of the import (describe, insert, flush, poll) waits with no deadline
		fmt.Fprintln(os.Stderr, "import:", err)
		os.Exit(1)
	}
}

func readRows(path string) ([]*vdbpb.Row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []*vdbpb.Row
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var r jsonRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, err
		}
		rows = append(rows, &vdbpb.Row{Vector: r.Vector, Payload: r.Payload})
	}
	return rows, sc.Err()
}

func run(ctx context.Context, px vdbpb.ProxyClient, dc vdbpb.DataCoordClient, db, coll string, rows []*vdbpb.Row, batch int) error {
	desc, err := px.DescribeCollection(ctx, &vdbpb.DescribeCollectionRequest{Db: db, Name: coll})
	if err != nil {
		return err
	}
	for i := 0; i < len(rows); i += batch {
		end := min(i+batch, len(rows))
		if _, err := px.Insert(ctx, &vdbpb.InsertRequest{Db: db, Collection: coll, Rows: rows[i:end]}); err != nil {
			return fmt.Errorf("insert rows %d-%d: %w", i, end, err)
		}
		fmt.Printf("inserted %d/%d\n", end, len(rows))
	}
	var segs []int64
	for _, ch := range desc.GetInfo().GetVchannels() {
		fr, err := dc.Flush(ctx, &vdbpb.FlushRequest{Db: db, CollectionId: desc.GetInfo().GetId(), Vchannel: ch})
		if err != nil {
			return err
		}
		segs = append(segs, fr.GetSegmentIds()...)
	}
	for {
		si, err := dc.GetSegmentInfo(ctx, &vdbpb.GetSegmentInfoRequest{SegmentIds: segs})
		if err != nil {
			return err
		}
		flushed := 0
		for _, s := range si.GetInfos() {
			if s.GetState() == "Flushed" {
				flushed++
			}
		}
		if flushed == len(segs) {
			return nil
		}
		time.Sleep(time.Second) // OK: ctxless — an import tool's poll, not a request scope
	}
}
