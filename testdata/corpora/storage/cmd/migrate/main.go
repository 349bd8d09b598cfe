// Command migrate copies a key range from one storage cluster to another,
// verifies it and records the migration. It is run once per range.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"time"

	"example.test/storage/gen/storagepb"
	"example.test/storage/internal/peer"
)

func main() {
	var (
		srcAddr    = flag.String("src", "", "source store address")
		dstAddr    = flag.String("dst", "", "destination store address")
		metaAddr   = flag.String("meta", "127.0.0.1:2379", "meta service of the destination")
		prefix     = flag.String("prefix", "", "key prefix to migrate")
		stall      = flag.Duration("stall", 30*time.Second, "abort verification when no key verifies for this long")
		rpcTimeout = flag.Duration("rpc-timeout", 0, "timeout of the final marker write (0: none)")
		hook       = flag.String("post-hook", "", "command to run after a successful migration")
	)
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	srcConn, err := peer.Dial(ctx, *srcAddr)
	if err != nil {
		log.Fatal(err)
	}
	dstConn, err := peer.Dial(ctx, *dstAddr)
	if err != nil {
		log.Fatal(err)
	}
	src := storagepb.NewStoreServiceClient(srcConn)
	dst := storagepb.NewStoreServiceClient(dstConn)

	keys, err := listKeys(ctx, src, *prefix) // OK: missingdeadline — listKeys only opens a server stream (Scan): not a unary call
	if err != nil {
		log.Fatalf("list keys: %v", err)
	}
	n, err := migrate(ctx, src, dst, keys) // BUG: missingdeadline
	if err != nil {
		log.Fatalf("migrate: %v", err)
	}
	log.Printf("copied %d keys", n)

	vctx, cancel := context.WithCancel(ctx)
	watchdog := time.AfterFunc(*stall, cancel)
	bad, err := verify(vctx, src, dst, keys, func() { watchdog.Reset(*stall) }) // OK: missingdeadline — vctx's cancel is run by a timer the work resets as it goes (a watchdog)
	watchdog.Stop()
	cancel()
	if err != nil || bad > 0 {
		log.Fatalf("verify: %d mismatches, err=%v", bad, err)
	}

	metaConn, err := peer.DialMeta(*metaAddr)
	if err != nil {
		log.Fatal(err)
	}
	mc := storagepb.NewMetaServiceClient(metaConn)
	id, err := mc.AllocID(context.Background(), &storagepb.AllocIDRequest{Count: 1}) // OK: missingdeadline — conn from peer.DialMeta, whose interceptor gives every unary call a default deadline
	if err != nil {
		log.Fatal(err)
	}
	mctx, mcancel := peer.CallContext(*rpcTimeout)
	_, err = dst.Put(mctx, &storagepb.PutRequest{Kv: &storagepb.KV{ // OK: missingdeadline — CallContext bounds the ctx when the caller's duration (-rpc-timeout) is set: the user's decision
		Key:   []byte("migration/" + *prefix),
		Value: []byte(fmt.Sprint(id.GetFirst())),
	}})
	mcancel()
	if err != nil {
		log.Fatal(err)
	}

	if *hook != "" {
		out, err := exec.Command("/bin/sh", "-c", *hook).CombinedOutput() // OK: ctxless — main of a one-shot tool, not a request scope
		if err != nil {
			log.Fatalf("post hook: %v: %s", err, out)
		}
	}
}

func listKeys(ctx context.Context, c storagepb.StoreServiceClient, prefix string) ([][]byte, error) {
	end := []byte(prefix + "\xff")
	stream, err := c.Scan(ctx, &storagepb.ScanRequest{Start: []byte(prefix), End: end})
	if err != nil {
		return nil, err
	}
	var keys [][]byte
	for {
		kv, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return keys, nil
		}
		if err != nil {
			return nil, err
		}
		keys = append(keys, kv.GetKey())
	}
}

func migrate(ctx context.Context, src, dst storagepb.StoreServiceClient, keys [][]byte) (int, error) {
	n := 0
	for _, k := range keys {
		resp, err := src.Get(ctx, &storagepb.GetRequest{Key: k})
		if err != nil {
			return n, fmt.Errorf("read %q: %w", k, err)
		}
		if !resp.GetFound() {
			continue
		}
		if _, err := dst.Put(ctx, &storagepb.PutRequest{Kv: resp.GetKv()}); err != nil {
			return n, fmt.Errorf("write %q: %w", k, err)
		}
		n++
	}
	return n, nil
}

func verify(ctx context.Context, src, dst storagepb.StoreServiceClient, keys [][]byte, progress func()) (int, error) {
	bad := 0
	for _, k := range keys {
		a, err := src.Get(ctx, &storagepb.GetRequest{Key: k})
		if err != nil {
			return bad, err
		}
		b, err := dst.Get(ctx, &storagepb.GetRequest{Key: k})
		if err != nil {
			return bad, err
		}
		if !bytes.Equal(a.GetKv().GetValue(), b.GetKv().GetValue()) {
			bad++
		}
		progress()
	}
	return bad, nil
}
