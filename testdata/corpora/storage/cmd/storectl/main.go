// Command storectl is the operator CLI.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"sort"
	"strconv"

	"connectrpc.com/connect"
	"example.test/storage/gen/storagepb"
	"example.test/storage/gen/storagepb/storagepbconnect"
	"example.test/storage/internal/peer"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

type clients struct {
	store *peer.StoreClient
	meta  storagepb.MetaServiceClient
	admin storagepbconnect.AdminServiceClient
}

type command struct {
	usage string
	run   func(ctx context.Context, c *clients, args []string) error
}

var commands = map[string]command{
	"get":       {"get KEY", cmdGet},
	"put":       {"put KEY VALUE", cmdPut},
	"alloc-id":  {"alloc-id [N]", cmdAllocID},
	"compact":   {"compact REGION [-async]", cmdCompact},
	"status":    {"status", cmdStatus},
	"health":    {"health", cmdHealth},
	"safepoint": {"safepoint", cmdSafePoint},
	"watch":     {"watch [SINCE]", cmdWatch},
	"tail":      {"tail", cmdTail},
}

func main() {
	var (
		timeout   = flag.Duration("timeout", 0, "per-command timeout (0: none)")
		storeAddr = flag.String("store", "127.0.0.1:20160", "store address")
		metaAddr  = flag.String("meta", "127.0.0.1:2379", "meta address")
		adminURL  = flag.String("admin", "http://127.0.0.1:20180", "admin base URL")
	)
	flag.Usage = usage
	flag.Parse()
	cmd, ok := commands[flag.Arg(0)]
	if !ok {
		usage()
		os.Exit(2)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}

	c, err := dial(*storeAddr, *metaAddr, *adminURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, "storectl:", err)
		os.Exit(1)
	}
	if err := cmd.run(ctx, c, flag.Args()[1:]); err != nil { // OK: missingdeadline — the deadline is applied only when -timeout is set: the user's decision
		fmt.Fprintln(os.Stderr, "storectl:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: storectl [flags] COMMAND [ARGS]")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintln(os.Stderr, "  "+commands[n].usage)
	}
	flag.PrintDefaults()
}

func dial(storeAddr, metaAddr, adminURL string) (*clients, error) {
	creds := grpc.WithTransportCredentials(insecure.NewCredentials())
	sc, err := grpc.NewClient(storeAddr, creds)
	if err != nil {
		return nil, err
	}
	mc, err := grpc.NewClient(metaAddr, creds)
	if err != nil {
		return nil, err
	}
	return &clients{
		store: peer.NewStoreClient(storagepb.NewStoreServiceClient(sc)),
		meta:  storagepb.NewMetaServiceClient(mc),
		admin: storagepbconnect.NewAdminServiceClient(http.DefaultClient, adminURL),
	}, nil
}

func needArgs(args []string, n int) error {
	if len(args) < n {
		return fmt.Errorf("need %d argument(s)", n)
	}
	return nil
}

func cmdGet(ctx context.Context, c *clients, args []string) error {
	if err := needArgs(args, 1); err != nil {
		return err
	}
	resp, err := c.store.Raw().Get(ctx, &storagepb.GetRequest{Key: []byte(args[0])}) // OK: missingdeadline — ctx carries the user's -timeout when one is set
	if err != nil {
		return err
	}
	if !resp.GetFound() {
		return errors.New("not found")
	}
	fmt.Printf("%s\t(version %d)\n", resp.GetKv().GetValue(), resp.GetKv().GetVersion())
	return nil
}

func cmdPut(ctx context.Context, c *clients, args []string) error {
	if err := needArgs(args, 2); err != nil {
		return err
	}
	resp, err := c.store.Raw().Put(ctx, &storagepb.PutRequest{Kv: &storagepb.KV{Key: []byte(args[0]), Value: []byte(args[1])}})
	if err != nil {
		return err
	}
	fmt.Println("version", resp.GetVersion())
	return nil
}

func cmdAllocID(ctx context.Context, c *clients, args []string) error {
	n := uint64(1)
	if len(args) > 0 {
		var err error
		if n, err = strconv.ParseUint(args[0], 10, 32); err != nil {
			return err
		}
	}
	resp, err := c.meta.AllocID(ctx, &storagepb.AllocIDRequest{Count: uint32(n)}) // OK: missingdeadline — same -timeout decision, made in main
	if err != nil {
		return err
	}
	fmt.Println(resp.GetFirst())
	return nil
}

func cmdCompact(ctx context.Context, c *clients, args []string) error {
	if err := needArgs(args, 1); err != nil {
		return err
	}
	region, err := strconv.ParseUint(args[0], 10, 64)
	if err != nil {
		return err
	}
	async := len(args) > 1 && args[1] == "-async"
	resp, err := c.admin.Compact(ctx, connect.NewRequest(&storagepb.CompactRequest{RegionId: region, Async: async})) // OK: missingdeadline — connect unary call with the ctx that carries the user's -timeout when set
	if err != nil {
		return err
	}
	if async {
		fmt.Println("job", resp.Msg.GetJobId())
	} else {
		fmt.Println("reclaimed", resp.Msg.GetReclaimedBytes(), "bytes")
	}
	return nil
}

func cmdStatus(ctx context.Context, c *clients, _ []string) error {
	resp, err := c.admin.Status(ctx, connect.NewRequest(&storagepb.StatusRequest{}))
	if err != nil {
		return err
	}
	fmt.Printf("leader=%s regions=%d version=%s\n", resp.Msg.GetLeader(), resp.Msg.GetRegions(), resp.Msg.GetVersion())
	return nil
}

func cmdHealth(_ context.Context, c *clients, _ []string) error {
	if err := c.store.Health(); err != nil { // BUG: missingdeadline
		return fmt.Errorf("store unhealthy: %w", err)
	}
	fmt.Println("ok")
	return nil
}

func cmdSafePoint(_ context.Context, c *clients, _ []string) error {
	resp, err := c.meta.GetGCSafePoint(context.Background(), &storagepb.GetGCSafePointRequest{}) // BUG: missingdeadline
	if err != nil {
		return err
	}
	fmt.Println(resp.GetSafePoint())
	return nil
}

func cmdWatch(ctx context.Context, c *clients, args []string) error {
	var since uint64
	if len(args) > 0 {
		since, _ = strconv.ParseUint(args[0], 10, 64)
	}
	stream, err := c.meta.WatchRegions(ctx, &storagepb.WatchRegionsRequest{SinceVersion: since}) // OK: missingdeadline — streaming call
	if err != nil {
		return err
	}
	for {
		ev, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		fmt.Println(ev.GetRegion().GetId(), ev.GetRegion().GetVersion(), ev.GetDeleted())
	}
}

func cmdTail(ctx context.Context, c *clients, _ []string) error {
	stream, err := c.admin.TailLog(context.Background(), connect.NewRequest(&storagepb.TailLogRequest{Follow: true})) // OK: missingdeadline — a connect server-streaming call (only unary calls count); tail -f runs until interrupted
	if err != nil {
		return err
	}
	defer stream.Close()
	go func() { <-ctx.Done(); stream.Close() }()
	for stream.Receive() {
		fmt.Print(stream.Msg().GetLine())
	}
	return stream.Err()
}
