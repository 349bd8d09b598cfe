package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/timestamppb"

	dispatchv1 "example.test/fleet/gen/fleet/dispatch/v1"
	"example.test/fleet/gen/fleet/dispatch/v1/dispatchv1connect"
)

func assignTrip(ctx context.Context, dc dispatchv1connect.DispatchServiceClient, args []string) error {
	fs := flag.NewFlagSet("assign", flag.ExitOnError)
	vehicle := fs.String("vehicle", "", "vehicle id")
	driver := fs.String("driver", "", "driver id")
	from := fs.String("from", "", "pickup lat,lng")
	to := fs.String("to", "", "dropoff lat,lng")
	notify := fs.Bool("notify", true, "notify the driver")
	_ = fs.Parse(args)
	pickup, err := parseLatLng(*from)
	if err != nil {
		return err
	}
	dropoff, err := parseLatLng(*to)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	resp, err := dc.AssignTrip(ctx, connect.NewRequest(&dispatchv1.AssignTripRequest{ // OK
		VehicleId: *vehicle, DriverId: *driver, Pickup: pickup, Dropoff: dropoff, NotifyDriver: *notify,
	}))
	if err != nil {
		return err
	}
	printJSON(resp.Msg.GetTrip())
	return nil
}

func getTrip(ctx context.Context, dc dispatchv1connect.DispatchServiceClient, args []string) error {
	resp, err := dc.GetTrip(ctx, connect.NewRequest(&dispatchv1.GetTripRequest{Id: arg(args, 0)}))
	if err != nil {
		return err
	}
	printJSON(resp.Msg)
	return nil
}

func cancelTrip(ctx context.Context, dc dispatchv1connect.DispatchServiceClient, args []string) error {
	fs := flag.NewFlagSet("cancel", flag.ExitOnError)
	reason := fs.String("reason", "operator request", "reason shown to the driver")
	force := fs.Bool("force", false, "cancel even if the driver app does not acknowledge")
	_ = fs.Parse(args)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	resp, err := dc.CancelTrip(ctx, connect.NewRequest(&dispatchv1.CancelTripRequest{Id: fs.Arg(0), Reason: *reason, Force: *force}))
	if err != nil {
		return err
	}
	printJSON(resp.Msg.GetTrip())
	return nil
}

func listTrips(ctx context.Context, dc dispatchv1connect.DispatchServiceClient, args []string) error {
	vehicle := arg(args, 0)
	token := ""
	for {
		pctx, cancel := context.WithTimeout(ctx, *timeout)
		resp, err := dc.ListTrips(pctx, connect.NewRequest(&dispatchv1.ListTripsRequest{VehicleId: vehicle, PageSize: 100, PageToken: token})) // OK
		cancel()
		if err != nil {
			return err
		}
		for _, t := range resp.Msg.GetTrips() {
			fmt.Printf("%s\t%s\t%s\t%s\n", t.GetId(), t.GetDriverId(), t.GetState(), t.GetPickupAddress())
		}
		if token = resp.Msg.GetNextPageToken(); token == "" {
			return nil
		}
	}
}

func watchTrips(ctx context.Context, dc dispatchv1connect.DispatchServiceClient, args []string) error {
	stream, err := dc.WatchTrips(ctx, connect.NewRequest(&dispatchv1.WatchTripsRequest{VehicleId: arg(args, 0)})) // OK
	if err != nil {
		return err
	}
	defer stream.Close()
	for stream.Receive() {
		ev := stream.Msg()
		fmt.Printf("%s\t%s\t%s\n", ev.GetKind(), ev.GetTrip().GetId(), ev.GetTrip().GetState())
	}
	if err := stream.Err(); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// uploadTrack sends a recorded track, one "trip lat lng unix-seconds" line per waypoint.
func uploadTrack(ctx context.Context, dc dispatchv1connect.DispatchServiceClient, args []string) error {
	f, err := os.Open(arg(args, 0))
	if err != nil {
		return err
	}
	defer f.Close()
	stream := dc.UploadWaypoints(ctx) // OK
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 4 {
			continue
		}
		ll, err := parseLatLng(fields[1] + "," + fields[2])
		if err != nil {
			return err
		}
		sec, _ := strconv.ParseInt(fields[3], 10, 64)
		if err := stream.Send(&dispatchv1.Waypoint{TripId: fields[0], Position: ll, RecordedAt: timestamppb.New(time.Unix(sec, 0))}); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	resp, err := stream.CloseAndReceive()
	if err != nil {
		return err
	}
	fmt.Printf("accepted %d, rejected %d\n", resp.Msg.GetAccepted(), resp.Msg.GetRejected())
	return nil
}

func parseLatLng(s string) (*dispatchv1.LatLng, error) {
	lat, lng, ok := strings.Cut(s, ",")
	if !ok {
		return nil, fmt.Errorf("want lat,lng, got %q", s)
	}
	a, err := strconv.ParseFloat(strings.TrimSpace(lat), 64)
	if err != nil {
		return nil, err
	}
	b, err := strconv.ParseFloat(strings.TrimSpace(lng), 64)
	if err != nil {
		return nil, err
	}
	return &dispatchv1.LatLng{Lat: a, Lng: b}, nil
}
