// Command fleetctl is the operator CLI for the dispatch and telemetry services.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	dispatchv1 "example.test/fleet/gen/fleet/dispatch/v1"
	"example.test/fleet/gen/fleet/dispatch/v1/dispatchv1connect"
	telemetryv1 "example.test/fleet/gen/fleet/telemetry/v1"
	"example.test/fleet/internal/telemetry"
)

var (
	dispatchURL   = flag.String("dispatch", envOr("FLEET_DISPATCH", "http://localhost:8080"), "dispatch service base URL")
	telemetryAddr = flag.String("telemetry", envOr("FLEET_TELEMETRY", "localhost:9090"), "telemetry service address")
	timeout       = flag.Duration("timeout", 10*time.Second, "per-request timeout")
)

const usage = `usage: fleetctl [flags] COMMAND [args]

trips:     assign | get ID | cancel ID | list VEHICLE | eta TRIP | watch VEHICLE | upload FILE
vehicles:  status VEHICLE | relay-status VEHICLE | incident VEHICLE KIND | reboot VEHICLE
           positions VEHICLE... | ingest FILE | control VEHICLE
`

func main() {
	flag.Usage = func() { fmt.Fprint(os.Stderr, usage); flag.PrintDefaults() }
	flag.Parse()
	if flag.NArg() < 1 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt) // OK
	defer stop()

	dc := dispatchv1connect.NewDispatchServiceClient(http.DefaultClient, *dispatchURL)
	conn, err := grpc.NewClient(*telemetryAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fatal(err)
	}
	defer conn.Close()
	tc := telemetryv1.NewTelemetryServiceClient(conn)

	cmd, args := flag.Arg(0), flag.Args()[1:]
	switch cmd {
	case "assign":
		err = assignTrip(ctx, dc, args) // OK
	case "get":
		err = getTrip(ctx, dc, args) // BUG: missingdeadline
	case "cancel":
		err = cancelTrip(ctx, dc, args) // BUG: missingdeadline
	case "list":
		err = listTrips(ctx, dc, args) // OK
	case "eta":
		var resp *connect.Response[dispatchv1.EstimateArrivalResponse]
		resp, err = dc.EstimateArrival(ctx, connect.NewRequest(&dispatchv1.EstimateArrivalRequest{TripId: arg(args, 0)})) // BUG: missingdeadline
		if err == nil {
			fmt.Printf("eta %s, %.1f km\n", time.Duration(resp.Msg.GetEtaSeconds())*time.Second, resp.Msg.GetDistanceKm())
		}
	case "watch":
		err = watchTrips(ctx, dc, args) // OK
	case "upload":
		err = uploadTrack(ctx, dc, args) // OK
	case "status":
		err = vehicleStatus(tc, args)
	case "relay-status":
		rctx, cancel := context.WithTimeout(ctx, *timeout)
		var st *telemetryv1.VehicleStatus
		st, err = telemetry.NewRelay(tc).Status(rctx, arg(args, 0)) // OK
		cancel()
		if err == nil {
			printJSON(st)
		}
	case "incident":
		err = reportIncident(ctx, tc, args) // BUG: missingdeadline
	case "reboot":
		err = rebootUnit(tc, args)
	case "positions":
		err = followPositions(ctx, tc, args) // OK
	case "ingest":
		err = ingestFile(ctx, tc, args) // OK
	case "control":
		err = controlSession(ctx, tc, args) // OK
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err != nil {
		fatal(err)
	}
}

func arg(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	fatal(fmt.Errorf("missing argument %d", i+1))
	return ""
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func printJSON(v any) {
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "fleetctl:", err)
	os.Exit(1)
}
