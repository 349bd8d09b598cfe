package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"text/tabwriter"

	"connectrpc.com/connect"
	"google.golang.org/grpc/metadata"

	"example.test/mesh/gen/adminv1"
	"example.test/mesh/gen/cav1"
	"example.test/mesh/gen/resourcev1"
)

var errUsage = errors.New("usage: meshctl [flags] get|list|delete|force-delete|issue|watch|dump|version ARGS")

func run(ctx context.Context, cl *clients, args []string) error {
	if len(args) == 0 {
		return errUsage
	}
	switch verb, rest := args[0], args[1:]; verb {
	case "get":
		if len(rest) != 2 {
			return errUsage
		}
		obj, err := cl.res.Get(ctx, &resourcev1.GetRequest{Mesh: *mesh, Type: rest[0], Name: rest[1]}) // OK: missingdeadline — bounded by -timeout when the user sets it: the user's decision
		if err != nil {
			return err
		}
		fmt.Printf("%s/%s v%d\n%s\n", obj.GetMeta().GetType(), obj.GetMeta().GetName(), obj.GetMeta().GetVersion(), obj.GetSpec())
	case "list":
		if len(rest) != 1 {
			return errUsage
		}
		resp, err := cl.res.List(ctx, &resourcev1.ListRequest{Mesh: *mesh, Type: rest[0]}) // OK: missingdeadline — the user's -timeout, defaulting to none
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tVERSION")
		for _, it := range resp.GetItems() {
			fmt.Fprintf(tw, "%s\t%d\n", it.GetMeta().GetName(), it.GetMeta().GetVersion())
		}
		return tw.Flush()
	case "delete":
		if len(rest) < 2 {
			return errUsage
		}
		var expected int64
		if len(rest) == 3 {
			expected, _ = strconv.ParseInt(rest[2], 10, 64)
		}
		_, err := cl.res.Delete(ctx, &resourcev1.DeleteRequest{Mesh: *mesh, Type: rest[0], Name: rest[1], ExpectedVersion: expected}) // OK: missingdeadline — the user's -timeout
		return err
	case "force-delete":
		if len(rest) != 2 {
			return errUsage
		}
		md := metadata.Pairs("x-mesh-force", "true")
		_, err := cl.res.Delete(metadata.NewOutgoingContext(context.Background(), md), &resourcev1.DeleteRequest{Mesh: *mesh, Type: rest[0], Name: rest[1]}) // BUG: missingdeadline — a fresh root that drops the user's -timeout; NewOutgoingContext adds no deadline
		return err
	case "issue":
		if len(rest) != 2 {
			return errUsage
		}
		csr, err := os.ReadFile(rest[1])
		if err != nil {
			return err
		}
		resp, err := cl.ca.IssueCertificate(ctx, &cav1.IssueRequest{Identity: rest[0], Csr: csr}) // OK: missingdeadline — the user's -timeout
		if err != nil {
			return err
		}
		for _, c := range resp.GetCertChain() {
			os.Stdout.Write(c)
		}
	case "watch":
		if len(rest) != 1 {
			return errUsage
		}
		stream, err := cl.res.Watch(ctx, &resourcev1.WatchRequest{Mesh: *mesh, Type: rest[0]}) // OK: missingdeadline — a streaming call
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
			fmt.Printf("%d %s %s\n", ev.GetRevision(), ev.GetKind(), ev.GetObject().GetMeta().GetName())
		}
	case "dump":
		if len(rest) != 1 {
			return errUsage
		}
		resp, err := cl.admin.DumpConfig(ctx, connect.NewRequest(&adminv1.DumpConfigRequest{NodeId: rest[0]})) // OK: missingdeadline — connect unary call bounded by the user's -timeout
		if err != nil {
			return err
		}
		os.Stdout.Write(resp.Msg.GetConfig())
	case "bundle":
		tb, err := cl.ca.GetTrustBundle(ctx, &cav1.TrustBundleRequest{TrustDomain: *mesh}) // OK: missingdeadline — the user's -timeout
		if err != nil {
			return err
		}
		for _, r := range tb.GetRoots() {
			os.Stdout.Write(r)
		}
	case "version":
		resp, err := cl.admin.GetVersion(context.Background(), connect.NewRequest(&adminv1.GetVersionRequest{})) // BUG: missingdeadline — this verb ignores the ctx it is given: no -timeout applies
		if err != nil {
			return err
		}
		fmt.Println(resp.Msg.GetVersion(), resp.Msg.GetCommit())
	default:
		return errUsage
	}
	return nil
}
