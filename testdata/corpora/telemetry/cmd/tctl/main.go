// Command tctl is the operator CLI of the admin API.
//
//	tctl [-addr URL] [-org ORG] [-timeout D] tenants|overrides|set-overrides|flush|delete|ping|watch-overrides [args]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"

	"connectrpc.com/connect"

	"example.test/telemetry/gen/adminpb"
	"example.test/telemetry/pkg/client"
)

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "tctl:", err)
	os.Exit(1)
}

func main() {
	addr := flag.String("addr", "http://localhost:3200", "admin API address")
	org := flag.String("org", "", "tenant to act for")
	timeout := flag.Duration("timeout", 0, "give up after this long (0: wait as long as it takes)")
	interval := flag.Duration("interval", 5*time.Second, "poll interval of watch-overrides")
	flag.Parse()

	ctx := context.Background() // OK: ctxbackground — main
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	cl := client.New(*addr, *org)

	switch verb := flag.Arg(0); verb {
	case "tenants":
		tenants, err := cl.Tenants(ctx) // OK: missingdeadline — the deadline is the user's -timeout
		if err != nil {
			fatal(err)
		}
		for _, t := range tenants {
			fmt.Printf("%s\trate=%d\tmax_traces=%d\tretention=%dh\n", t.GetId(), t.GetIngestionRate(), t.GetMaxTraces(), t.GetRetentionHours())
		}
	case "overrides":
		resp, err := cl.Admin.GetOverrides(ctx, connect.NewRequest(&adminpb.GetOverridesRequest{Tenant: flag.Arg(1)})) // OK: missingdeadline — the user's -timeout decides
		if err != nil {
			fatal(err)
		}
		fmt.Printf("%+v\n", resp.Msg)
	case "set-overrides":
		rate, _ := strconv.ParseInt(flag.Arg(2), 10, 64)
		t := &adminpb.Tenant{Id: flag.Arg(1), IngestionRate: rate}
		if _, err := cl.Admin.SetOverrides(ctx, connect.NewRequest(&adminpb.SetOverridesRequest{Tenant: t})); err != nil { // OK: missingdeadline — the user's -timeout decides
			fatal(err)
		}
	case "flush":
		resp, err := cl.Admin.FlushTenant(ctx, connect.NewRequest(&adminpb.FlushTenantRequest{Tenant: flag.Arg(1)})) // OK: missingdeadline — the user's -timeout decides
		if err != nil {
			fatal(err)
		}
		fmt.Printf("flushed %d blocks\n", resp.Msg.GetBlocks())
	case "delete":
		resp, err := cl.Admin.DeleteTenant(ctx, connect.NewRequest(&adminpb.DeleteTenantRequest{Tenant: flag.Arg(1)})) // OK: missingdeadline — the user's -timeout decides
		if err != nil {
			fatal(err)
		}
		fmt.Printf("deleted %d blocks\n", resp.Msg.GetBlocks())
	case "ping":
		v, err := cl.Ping() // BUG: missingdeadline — the convenience API's RPC has no deadline and ignores -timeout
		if err != nil {
			fatal(err)
		}
		fmt.Println(v)
	case "watch-overrides":
		for {
			pctx, cancel := context.WithTimeout(context.Background(), *interval)                                            // OK: ctxbackground — main
			resp, err := cl.Admin.GetOverrides(pctx, connect.NewRequest(&adminpb.GetOverridesRequest{Tenant: flag.Arg(1)})) // OK: missingdeadline — each poll gets a deadline of its own, derived anew on every turn
			cancel()
			if err != nil {
				fmt.Fprintln(os.Stderr, "tctl:", err)
			} else {
				fmt.Printf("%s %+v\n", time.Now().Format(time.TimeOnly), resp.Msg)
			}
			time.Sleep(*interval) // OK: ctxless — a CLI's poll loop is not a request scope
		}
	default:
		fatal(fmt.Errorf("unknown command %q", verb))
	}
}
