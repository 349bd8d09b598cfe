package telemetry

import (
	"context"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	telemetryv1 "example.test/fleet/gen/fleet/telemetry/v1"
)

type regionalStub struct {
	telemetryv1.UnimplementedTelemetryServiceServer
	statuses map[string]*telemetryv1.VehicleStatus
}

func (r *regionalStub) GetVehicleStatus(ctx context.Context, req *telemetryv1.GetVehicleStatusRequest) (*telemetryv1.VehicleStatus, error) {
	if st, ok := r.statuses[req.GetVehicleId()]; ok {
		return st, nil
	}
	return &telemetryv1.VehicleStatus{VehicleId: req.GetVehicleId()}, ctx.Err()
}

func dialStub(t *testing.T, srv telemetryv1.TelemetryServiceServer) telemetryv1.TelemetryServiceClient {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	gs := grpc.NewServer()
	telemetryv1.RegisterTelemetryServiceServer(gs, srv)
	go func() { _ = gs.Serve(lis) }()
	t.Cleanup(gs.Stop)
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return telemetryv1.NewTelemetryServiceClient(conn)
}

func TestRelayStatus(t *testing.T) {
	client := dialStub(t, &regionalStub{statuses: map[string]*telemetryv1.VehicleStatus{
		"veh-1": {VehicleId: "veh-1", SpeedKph: 42, Firmware: "4.2.0"},
	}})
	relay := NewRelay(client)

	st, err := relay.Status(context.Background(), "veh-1") // OK
	if err != nil {
		t.Fatal(err)
	}
	if st.GetSpeedKph() != 42 || st.GetFirmware() != "4.2.0" {
		t.Fatalf("got %v", st)
	}
}

func TestStubDirect(t *testing.T) {
	client := dialStub(t, &regionalStub{})
	st, err := client.GetVehicleStatus(context.Background(), &telemetryv1.GetVehicleStatusRequest{VehicleId: "veh-9"}) // OK
	if err != nil {
		t.Fatal(err)
	}
	if st.GetVehicleId() != "veh-9" {
		t.Fatalf("got %q", st.GetVehicleId())
	}
}
