package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/user"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/types/known/timestamppb"

	telemetryv1 "example.test/fleet/gen/fleet/telemetry/v1"
)

func vehicleStatus(tc telemetryv1.TelemetryServiceClient, args []string) error {
	st, err := tc.GetVehicleStatus(context.Background(), &telemetryv1.GetVehicleStatusRequest{VehicleId: arg(args, 0)}) // BUG: missingdeadline
	if err != nil {
		return err
	}
	printJSON(st)
	return nil
}

func reportIncident(ctx context.Context, tc telemetryv1.TelemetryServiceClient, args []string) error {
	fs := flag.NewFlagSet("incident", flag.ExitOnError)
	desc := fs.String("desc", "", "description")
	_ = fs.Parse(args)
	ctx = metadata.NewOutgoingContext(ctx, metadata.Pairs("x-fleet-actor", operator()))
	resp, err := tc.ReportIncident(ctx, &telemetryv1.ReportIncidentRequest{VehicleId: fs.Arg(0), Kind: fs.Arg(1), Description: *desc})
	if err != nil {
		return err
	}
	fmt.Println(resp.GetIncidentId())
	return nil
}

func rebootUnit(tc telemetryv1.TelemetryServiceClient, args []string) error {
	fs := flag.NewFlagSet("reboot", flag.ExitOnError)
	hard := fs.Bool("hard", false, "power-cycle the modem as well")
	wait := fs.Duration("wait", 0, "give up after this long (0: wait for the unit)")
	_ = fs.Parse(args)
	ctx := context.Background()
	if *wait > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *wait)
		defer cancel()
	}
	resp, err := tc.RebootUnit(ctx, &telemetryv1.RebootUnitRequest{VehicleId: fs.Arg(0), Hard: *hard}) // OK: the deadline is the user's -timeout flag, applied when set (precision issue)
	if err != nil {
		return err
	}
	if !resp.GetAccepted() {
		return errors.New("unit refused the reboot")
	}
	return nil
}

func followPositions(ctx context.Context, tc telemetryv1.TelemetryServiceClient, args []string) error {
	stream, err := tc.StreamPositions(ctx, &telemetryv1.StreamPositionsRequest{VehicleIds: args}) // OK
	if err != nil {
		return err
	}
	for {
		p, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		fmt.Printf("%s\t%.5f,%.5f\t%.0f°\t%s\n", p.GetVehicleId(), p.GetLat(), p.GetLng(), p.GetHeading(), p.GetAt().AsTime().Format(time.TimeOnly))
	}
}

// ingestFile replays a recorded sensor log: "vehicle sensor value unix-seconds" per line.
func ingestFile(ctx context.Context, tc telemetryv1.TelemetryServiceClient, args []string) error {
	f, err := os.Open(arg(args, 0))
	if err != nil {
		return err
	}
	defer f.Close()
	stream, err := tc.IngestReadings(ctx) // OK
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 4 {
			continue
		}
		v, _ := strconv.ParseFloat(fields[2], 64)
		sec, _ := strconv.ParseInt(fields[3], 10, 64)
		if err := stream.Send(&telemetryv1.Reading{VehicleId: fields[0], Sensor: fields[1], Value: v, At: timestamppb.New(time.Unix(sec, 0))}); err != nil {
			return err
		}
	}
	sum, err := stream.CloseAndRecv()
	if err != nil {
		return err
	}
	fmt.Printf("accepted %d, dropped %d\n", sum.GetAccepted(), sum.GetDropped())
	return nil
}

// controlSession reads commands from stdin and prints the unit's acknowledgements.
func controlSession(ctx context.Context, tc telemetryv1.TelemetryServiceClient, args []string) error {
	vehicle := arg(args, 0)
	stream, err := tc.LiveControl(ctx) // OK
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() {
		for {
			ack, err := stream.Recv()
			if err != nil {
				if err == io.EOF {
					err = nil
				}
				done <- err
				return
			}
			fmt.Printf("%s %s ok=%v %s\n", ack.GetVehicleId(), ack.GetCommand(), ack.GetOk(), ack.GetDetail())
		}
	}()
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		cmd := strings.TrimSpace(sc.Text())
		if cmd == "" {
			continue
		}
		if err := stream.Send(&telemetryv1.ControlMessage{VehicleId: vehicle, Command: cmd}); err != nil {
			return err
		}
	}
	if err := stream.CloseSend(); err != nil {
		return err
	}
	return <-done
}

func operator() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "unknown"
}
