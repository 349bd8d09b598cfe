// Command vaultctl is the operator CLI for the vault.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	vaultv1 "example.test/torture/gen/vault/v1"
	"example.test/torture/internal/clients/vaultclient"
)

func usage() {
	fmt.Fprintln(os.Stderr, "usage: vaultctl [flags] get|list|put|rotate|describe|restore|batch|compact|watch|upload ARGS...")
	flag.PrintDefaults()
	os.Exit(2)
}

func main() {
	addr := flag.String("addr", "localhost:7443", "vault address")
	timeout := flag.Duration("timeout", 5*time.Second, "per-call timeout (0: none)")
	flag.Usage = usage
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 {
		usage()
	}
	arg := func(i int) string {
		if i < len(args) {
			return args[i]
		}
		return ""
	}

	root, stop := signal.NotifyContext(context.Background(), os.Interrupt) // OK
	defer stop()

	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	client := vaultv1.NewVaultServiceClient(conn)
	vc := vaultclient.New(conn)

	switch args[0] {
	case "get":
		ctx, cancel := context.WithTimeout(root, *timeout)
		defer cancel()
		sec, err := client.GetSecret(ctx, &vaultv1.GetSecretRequest{Id: arg(1), Fresh: true}) // OK
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s v%d %x\n", sec.GetId(), sec.GetVersion(), sec.GetValue())

	case "list":
		resp, err := client.ListSecrets(root, &vaultv1.ListSecretsRequest{Prefix: arg(1)}) // BUG: missingdeadline
		if err != nil {
			log.Fatal(err)
		}
		for _, s := range resp.GetSecrets() {
			fmt.Println(s.GetId(), s.GetVersion())
		}

	case "put":
		v, err := vc.Put(root, arg(1), []byte(arg(2))) // BUG: missingdeadline
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("version", v)

	case "rotate":
		rotate := client.RotateKey
		resp, err := rotate(root, &vaultv1.RotateKeyRequest{KeyId: arg(1), SecretIds: args[min(2, len(args)):]}) // BUG: missingdeadline
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("rotated", resp.GetRotated())

	case "describe":
		var out vaultv1.DescribeResponse
		if err := conn.Invoke(context.Background(), vaultv1.VaultService_Describe_FullMethodName, &vaultv1.DescribeRequest{}, &out); err != nil { // BUG: missingdeadline
			log.Fatal(err)
		}
		fmt.Printf("version=%s secrets=%d disk_free=%d\n", out.GetVersion(), out.GetSecrets(), out.GetDiskFree())

	case "restore":
		ctx := root
		if *timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(root, *timeout)
			defer cancel()
		}
		resp, err := client.Restore(ctx, &vaultv1.RestoreRequest{Snapshot: arg(1), Ids: args[min(2, len(args)):]}) // OK: the deadline is the user's -timeout flag, applied when set (precision issue)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("restored", resp.GetRestored())

	case "batch":
		ctx, cancel := context.WithTimeout(root, *timeout)
		defer cancel()
		resp, err := vaultclient.Call(ctx, client.BatchGet, &vaultv1.BatchGetRequest{Ids: args[1:]}) // OK
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(len(resp.GetSecrets()), "found,", len(resp.GetMissing()), "missing")

	case "compact":
		n, err := vc.Compact(root, arg(1)) // OK
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("removed", n)

	case "watch":
		st, err := client.WatchSecrets(root, &vaultv1.WatchRequest{Prefix: arg(1)}) // OK
		if err != nil {
			log.Fatal(err)
		}
		for {
			ev, err := st.Recv()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				log.Fatal(err)
			}
			fmt.Println(ev.GetKind(), ev.GetId(), ev.GetVersion())
		}

	case "upload":
		up, err := client.UploadBlobs(root) // OK
		if err != nil {
			log.Fatal(err)
		}
		data, err := io.ReadAll(os.Stdin)
		if err != nil {
			log.Fatal(err)
		}
		for i := 0; i < len(data); i += 64 << 10 {
			if err := up.Send(&vaultv1.Blob{Id: fmt.Sprintf("%s.%d", arg(1), i), Chunk: data[i:min(i+64<<10, len(data))]}); err != nil {
				log.Fatal(err)
			}
		}
		sum, err := up.CloseAndRecv()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(sum.GetBlobs(), "blobs,", sum.GetBytes(), "bytes")

	default:
		usage()
	}
}
