package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"connectrpc.com/connect"

	dispatchv1 "example.test/fleet/gen/fleet/dispatch/v1"
	"example.test/fleet/gen/fleet/dispatch/v1/dispatchv1connect"
)

type fakeDispatch struct {
	dispatchv1connect.UnimplementedDispatchServiceHandler
	trips map[string]*dispatchv1.Trip
}

func (f *fakeDispatch) GetTrip(_ context.Context, req *connect.Request[dispatchv1.GetTripRequest]) (*connect.Response[dispatchv1.Trip], error) {
	t, ok := f.trips[req.Msg.GetId()]
	if !ok {
		return nil, connect.NewError(connect.CodeNotFound, nil)
	}
	return connect.NewResponse(t), nil
}

func newTestClient(t *testing.T, h dispatchv1connect.DispatchServiceHandler) dispatchv1connect.DispatchServiceClient {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(dispatchv1connect.NewDispatchServiceHandler(h))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return dispatchv1connect.NewDispatchServiceClient(srv.Client(), srv.URL)
}

func TestGetTrip(t *testing.T) {
	dc := newTestClient(t, &fakeDispatch{trips: map[string]*dispatchv1.Trip{"trip_1": {Id: "trip_1", VehicleId: "veh-1"}}})
	if err := getTrip(context.Background(), dc, []string{"trip_1"}); err != nil { // OK
		t.Fatal(err)
	}
}

func TestGetTripNotFound(t *testing.T) {
	dc := newTestClient(t, &fakeDispatch{})
	_, err := dc.GetTrip(context.Background(), connect.NewRequest(&dispatchv1.GetTripRequest{Id: "nope"})) // OK
	if connect.CodeOf(err) != connect.CodeNotFound {
		t.Fatalf("got %v, want not found", err)
	}
}
