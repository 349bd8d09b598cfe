// Command migrate rewrites every tenant's blocks from one block format
// version to the next. It is run once per upgrade.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"connectrpc.com/connect"

	"example.test/telemetry/gen/adminpb"
	"example.test/telemetry/pkg/client"
)

func main() {
	addr := flag.String("addr", "http://localhost:3200", "admin API address")
	from := flag.Uint("from", 1, "current block version")
	to := flag.Uint("to", 2, "target block version")
	wait := flag.Duration("wait", 30*time.Second, "how long to wait for the API")
	dryRun := flag.Bool("dry-run", false, "only list what would be migrated")
	flag.Parse()

	cl := client.New(*addr, "")
	ctx := context.Background()                      // OK: ctxbackground — main
	if err := cl.WaitReady(ctx, *wait); err != nil { // OK: missingdeadline — WaitReady bounds its pings with the timeout it is given
		fmt.Fprintln(os.Stderr, "migrate: API not reachable:", err)
		os.Exit(1)
	}
	resp, err := cl.Admin.ListTenants(ctx, connect.NewRequest(&adminpb.ListTenantsRequest{})) // BUG: missingdeadline — first RPC the deadline-less ctx reaches
	if err != nil {
		fmt.Fprintln(os.Stderr, "migrate:", err)
		os.Exit(1)
	}
	failed := 0
	for _, t := range resp.Msg.GetTenants() {
		if *dryRun {
			fmt.Println("would migrate", t.GetId())
			continue
		}
		r, err := cl.Admin.MigrateTenant(ctx, connect.NewRequest(&adminpb.MigrateTenantRequest{Tenant: t.GetId(), FromVersion: uint32(*from), ToVersion: uint32(*to)})) // OK: missingdeadline — the same deadline-less ctx: one finding, at the first call
		if err != nil {
			fmt.Fprintf(os.Stderr, "migrate %s: %v\n", t.GetId(), err)
			failed++
			continue
		}
		fmt.Printf("%s: %d blocks rewritten\n", t.GetId(), r.Msg.GetRewrittenBlocks())
	}
	if failed > 0 {
		os.Exit(1)
	}
}
