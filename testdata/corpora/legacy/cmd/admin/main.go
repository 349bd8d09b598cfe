// Command admin is the support team's CLI for the loyalty service.
//
//	admin [-addr host:port] <command> [args]
//
// Commands: member, balance, adjust, grant, revoke, merge, export, import, raw, health.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"os/user"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	loyaltyv1 "example.test/legacy/gen/loyalty/v1"
	rewardsv1 "example.test/legacy/gen/rewards/v1"
	"example.test/legacy/internal/db"
)

var operator = "unknown"

func init() {
	if u, err := user.Current(); err == nil {
		operator = u.Username
	}
	if v := os.Getenv("LOYALTY_OPERATOR"); v != "" {
		operator = v
	}
}

func usage() {
	fmt.Fprintf(os.Stderr, "usage: admin [-addr host:port] member|balance|adjust|grant|revoke|merge|export|import|raw|health [args]\n")
	flag.PrintDefaults()
	os.Exit(2)
}

func main() {
	addr := flag.String("addr", "loyaltyd.internal:9090", "loyaltyd address")
	healthURL := flag.String("health-url", "http://loyaltyd.internal:8080/healthz", "http health endpoint")
	dsn := flag.String("dsn", os.Getenv("DATABASE_URL"), "postgres dsn, only for the audit trail")
	flag.Usage = usage
	flag.Parse()
	if flag.NArg() < 1 {
		usage()
	}
	cmd, args := flag.Arg(0), flag.Args()[1:]

	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer conn.Close()
	lc := loyaltyv1.NewLoyaltyServiceClient(conn)
	rc := rewardsv1.NewRewardsServiceClient(conn)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	switch cmd {
	case "member":
		err = cmdMember(lc, args)
	case "balance":
		err = cmdBalance(ctx, lc, args) // BUG: missingdeadline
	case "adjust":
		err = cmdAdjust(ctx, lc, args) // OK
	case "grant":
		err = cmdGrant(ctx, rc, args) // BUG: missingdeadline
	case "revoke":
		err = cmdRevoke(rc, args)
	case "merge":
		err = cmdMerge(ctx, lc, args) // OK
	case "export":
		err = cmdExport(ctx, lc, args) // OK
	case "import":
		err = cmdImport(ctx, lc, args) // OK
	case "raw":
		err = cmdRaw(conn, args)
	case "health":
		err = cmdHealth(*healthURL)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", cmd, err)
		os.Exit(1)
	}

	if *dsn != "" && cmd != "health" {
		if err := db.Open(*dsn); err == nil {
			db.SaveAudit("admin:"+cmd, "", fmt.Sprintf("%s %v", operator, args)) // OK
			db.DB.Close()
		}
	}
}
