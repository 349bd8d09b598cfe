// Command edgectl is the operators' CLI for the edge control plane.
//
//	edgectl [flags] get ROUTE_ID
//	edgectl [flags] list [-host HOST]
//	edgectl [flags] purge PREFIX
//	edgectl [flags] drain NODE
//	edgectl [flags] rollout NODE...
//	edgectl [flags] verify ROUTE_ID...
//	edgectl [flags] watch
//	edgectl [flags] ping
//	edgectl [flags] health
//	edgectl [flags] raw-get ROUTE_ID
//	edgectl [flags] account ACCOUNT_ID
//	edgectl [flags] disable ACCOUNT_ID
//	edgectl [flags] sessions ACCOUNT_ID
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	accountsv1 "example.test/gateway/gen/accounts/v1"
	"example.test/gateway/gen/accounts/v1/accountsv1connect"
	edgev1 "example.test/gateway/gen/edge/v1"
	"example.test/gateway/internal/edgeclient"
	"example.test/gateway/internal/ops"
)

var (
	addr        = flag.String("addr", "localhost:8443", "EdgeService address")
	adminAddr   = flag.String("admin-addr", "localhost:8444", "EdgeService admin port (operators only)")
	accountsURL = flag.String("accounts-url", "http://localhost:8445", "AccountsService base URL")
	token       = flag.String("token", os.Getenv("EDGECTL_TOKEN"), "operator bearer token")
	timeout     = flag.Duration("timeout", 10*time.Second, "per-call timeout")
	host        = flag.String("host", "", "restrict to routes of this host")
	reload      = flag.Bool("reload-proxy", false, "purge: also reload the local proxy")
	wait        = flag.Duration("wait", 0, "drain/rollout: grace period to wait for connections to move")
	deep        = flag.Bool("deep", false, "ping: also check upstreams")
)

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "edgectl:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt) // OK
	defer stop()
	if flag.NArg() == 0 {
		flag.Usage()
		return errors.New("missing command")
	}
	conn, err := grpc.NewClient(*addr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithPerRPCCredentials(tokenCreds(*token)),
	)
	if err != nil {
		return err
	}
	defer conn.Close()
	c := edgeclient.New(conn)
	accounts := accountsv1connect.NewAccountsServiceClient(http.DefaultClient, *accountsURL)
	arg := flag.Arg(1)

	switch cmd := flag.Arg(0); cmd {
	case "get":
		gctx, cancel := context.WithTimeout(ctx, *timeout)
		defer cancel()
		r, err := c.GetRoute(gctx, arg) // OK
		if err != nil {
			return err
		}
		fmt.Printf("%s\t%s%s\t-> %s (w=%d, rev=%d)\n", r.GetId(), r.GetHost(), r.GetPathPrefix(), r.GetUpstream(), r.GetWeight(), r.GetRevision())

	case "list":
		routes, err := c.ListRoutes(ctx, *host) // BUG: missingdeadline
		if err != nil {
			return err
		}
		for _, r := range routes {
			fmt.Printf("%s\t%s%s\t-> %s\n", r.GetId(), r.GetHost(), r.GetPathPrefix(), r.GetUpstream())
		}

	case "purge":
		n, err := c.PurgeCache(context.Background(), arg, *reload) // BUG: missingdeadline
		if err != nil {
			return err
		}
		fmt.Printf("purging %d cached responses under %q\n", n, arg)

	case "drain":
		dctx := ctx
		if *wait > 0 {
			var cancel context.CancelFunc
			dctx, cancel = context.WithTimeout(ctx, *wait+*timeout)
			defer cancel()
		}
		moved, err := c.DrainNode(dctx, arg, *wait) // OK: the deadline is the user's -timeout flag, applied when set (precision issue)
		if err != nil {
			return err
		}
		fmt.Printf("drained %s: %d connections moved\n", arg, moved)

	case "rollout":
		return ops.Rollout(ctx, c, flag.Args()[1:], *wait) // BUG: missingdeadline

	case "verify":
		errs := ops.Verify(ctx, c, flag.Args()[1:], *timeout) // OK
		for _, err := range errs {
			fmt.Fprintln(os.Stderr, err)
		}
		if len(errs) > 0 {
			return fmt.Errorf("%d routes failed verification", len(errs))
		}

	case "watch":
		return c.WatchRoutes(ctx, *host, 0, func(ev *edgev1.RouteEvent) { // OK
			fmt.Printf("%s\t%s\t%s%s\n", ev.GetKind(), ev.GetRoute().GetId(), ev.GetRoute().GetHost(), ev.GetRoute().GetPathPrefix())
		})

	case "ping":
		adminConn, err := grpc.NewClient(*adminAddr,
			grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithPerRPCCredentials(tokenCreds(*token)),
			grpc.WithUnaryInterceptor(withDefaultTimeout(*timeout)),
		)
		if err != nil {
			return err
		}
		defer adminConn.Close()
		admin := edgev1.NewEdgeServiceClient(adminConn)
		payload := "edgectl"
		if *deep {
			payload = "deep"
		}
		resp, err := admin.Ping(ctx, &edgev1.PingRequest{Payload: payload}) // OK
		if err != nil {
			return err
		}
		fmt.Println("pong from", resp.GetNode())

	case "health":
		hc := healthpb.NewHealthClient(conn)
		resp, err := hc.Check(context.Background(), &healthpb.HealthCheckRequest{Service: edgev1.EdgeService_ServiceDesc.ServiceName}) // BUG: missingdeadline
		if err != nil {
			return err
		}
		fmt.Println(resp.GetStatus())

	case "raw-get":
		rctx, cancel := context.WithCancel(ctx)
		defer cancel()
		out := new(edgev1.Route)
		if err := conn.Invoke(rctx, edgev1.EdgeService_GetRoute_FullMethodName, &edgev1.GetRouteRequest{Id: arg, Refresh: true}, out); err != nil { // BUG: missingdeadline
			return err
		}
		fmt.Printf("%+v\n", out)

	case "account":
		res, err := accounts.GetAccount(ctx, connect.NewRequest(&accountsv1.GetAccountRequest{Id: arg})) // BUG: missingdeadline
		if err != nil {
			return err
		}
		a := res.Msg
		fmt.Printf("%s\t%s\tplan=%s\trps=%d\tdisabled=%v\n", a.GetId(), a.GetEmail(), a.GetPlan(), a.GetRateLimitRps(), a.GetDisabled())

	case "disable":
		actx, cancel := context.WithTimeout(ctx, *timeout)
		defer cancel()
		req := connect.NewRequest(&accountsv1.UpdateAccountRequest{Id: arg, Disabled: true})
		req.Header().Set("Authorization", "Bearer "+*token)
		if _, err := accounts.UpdateAccount(actx, req); err != nil { // OK
			return err
		}
		fmt.Println("disabled", arg)

	case "sessions":
		stream, err := accounts.ListSessions(ctx, connect.NewRequest(&accountsv1.ListSessionsRequest{AccountId: arg, Follow: true})) // OK
		if err != nil {
			return err
		}
		defer stream.Close()
		for stream.Receive() {
			s := stream.Msg()
			fmt.Printf("%s\t%s\t%s\n", s.GetId(), s.GetClientIp(), time.Unix(s.GetLastSeenUnix(), 0).Format(time.RFC3339))
		}
		return stream.Err()

	default:
		return fmt.Errorf("unknown command %q", cmd)
	}
	return nil
}
