package edgeclient

import (
	"context"
	"testing"

	"google.golang.org/grpc"

	edgev1 "example.test/gateway/gen/edge/v1"
)

type fakeAPI struct {
	edgev1.EdgeServiceClient
	pages map[string]*edgev1.ListRoutesResponse
}

func (f *fakeAPI) GetRoute(_ context.Context, in *edgev1.GetRouteRequest, _ ...grpc.CallOption) (*edgev1.Route, error) {
	return &edgev1.Route{Id: in.GetId(), Host: "api.example.test"}, nil
}

func (f *fakeAPI) ListRoutes(_ context.Context, in *edgev1.ListRoutesRequest, _ ...grpc.CallOption) (*edgev1.ListRoutesResponse, error) {
	return f.pages[in.GetPageToken()], nil
}

func TestGetRoute(t *testing.T) {
	c := NewFromAPI(&fakeAPI{})
	r, err := c.GetRoute(context.Background(), "r1") // OK
	if err != nil || r.GetId() != "r1" {
		t.Fatalf("GetRoute = %v, %v", r, err)
	}
}

func TestListRoutesFollowsPages(t *testing.T) {
	f := &fakeAPI{pages: map[string]*edgev1.ListRoutesResponse{
		"":   {Routes: []*edgev1.Route{{Id: "a"}, {Id: "b"}}, NextPageToken: "b"},
		"b":  {Routes: []*edgev1.Route{{Id: "c"}}},
		"zz": nil,
	}}
	rs, err := NewFromAPI(f).ListRoutes(context.Background(), "") // OK
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 3 || rs[2].GetId() != "c" {
		t.Fatalf("ListRoutes = %v", rs)
	}
}
