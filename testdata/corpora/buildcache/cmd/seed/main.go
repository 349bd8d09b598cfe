// Command seed uploads a directory of blobs to a cache once.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"log"
	"os"
	"path/filepath"
	"time"

	"example.test/buildcache/gen/bcv1"
	"example.test/buildcache/internal/pool"
)

func main() {
	addr := flag.String("addr", "localhost:8980", "cache")
	dir := flag.String("dir", ".", "blobs")
	flag.Parse()

	ctx := context.Background()
	conn, err := pool.Dial(ctx, *addr)
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	c := bcv1.NewContentAddressableStorageClient(conn)

	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	caps, err := c.GetCapabilities(cctx, &bcv1.GetCapabilitiesRequest{}) // OK: missingdeadline — bounded
	cancel()
	if err != nil {
		log.Fatal(err)
	}
	req := &bcv1.BatchUpdateBlobsRequest{}
	var ds []*bcv1.Digest
	files, _ := filepath.Glob(filepath.Join(*dir, "*"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil || int64(len(data)) > caps.GetMaxBatchBytes() {
			continue
		}
		sum := sha256.Sum256(data)
		d := &bcv1.Digest{Hash: hex.EncodeToString(sum[:]), SizeBytes: int64(len(data))}
		ds = append(ds, d)
		req.Blobs = append(req.Blobs, &bcv1.Blob{Digest: d, Data: data})
	}
	missing, err := c.FindMissingBlobs(ctx, &bcv1.FindMissingBlobsRequest{Digests: ds}) // BUG: missingdeadline — the one-shot tool's ctx has no deadline (first of two RPCs)
	if err != nil {
		log.Fatal(err)
	}
	if len(missing.GetMissing()) == 0 {
		return
	}
	if _, err := c.BatchUpdateBlobs(ctx, req); err != nil {
		log.Fatal(err)
	}
}
