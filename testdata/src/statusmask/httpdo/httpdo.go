// Package httpdo translates errors of HTTP requests sent with http.Client.Do: a request made
// with the request's ctx carries its deadline, so Do's error may be it; one made with a ctx
// of its own does not.
package httpdo

import (
	"context"
	"net/http"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	client *http.Client
	url    string
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := s.client.Do(hreq)
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "prices: %v", err) // want `status\.Errorf gives code codes\.Unavailable to the error of Client\.Do`
	}
	resp.Body.Close()

	bctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	breq, err := http.NewRequestWithContext(bctx, http.MethodGet, s.url, nil)
	if err != nil {
		return nil, err
	}
	if _, err := s.client.Do(breq); err != nil {
		return nil, status.Errorf(codes.Unavailable, "audit: %v", err) // a budget of its own: silent
	}
	plain, err := http.NewRequest(http.MethodGet, s.url, nil)
	if err != nil {
		return nil, err
	}
	if _, err := s.client.Do(plain.WithContext(ctx)); err != nil {
		return nil, status.Errorf(codes.Unavailable, "stock: %v", err) // want `status\.Errorf gives code codes\.Unavailable to the error of Client\.Do`
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
