package dispatch

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	dispatchv1 "example.test/fleet/gen/fleet/dispatch/v1"
	"example.test/fleet/internal/store"
)

func TestGetTripFromCache(t *testing.T) {
	cache := store.NewCache(time.Minute, nil)
	want := &dispatchv1.Trip{Id: "trip_1", VehicleId: "veh-1", State: dispatchv1.TripState_TRIP_STATE_ASSIGNED}
	b, err := proto.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	cache.Set("trip:trip_1", b)
	s := New(context.Background(), Deps{Cache: cache, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}) // OK

	resp, err := s.GetTrip(context.Background(), connect.NewRequest(&dispatchv1.GetTripRequest{Id: "trip_1"})) // OK
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(resp.Msg, want) {
		t.Fatalf("got %v, want %v", resp.Msg, want)
	}
}

func TestETARoundTrip(t *testing.T) {
	in := &dispatchv1.EstimateArrivalResponse{EtaSeconds: 754, DistanceKm: 12.5}
	out := decodeETA(encodeETA(in))
	if !proto.Equal(in, out) {
		t.Fatalf("got %v, want %v", out, in)
	}
}
