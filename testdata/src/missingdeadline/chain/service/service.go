// Package service is a library on top of the client wrapper, and a gRPC service: the second
// of three packages.
package service

import (
	"context"
	"fmt"
	"time"

	"example.com/gen/catalogpb"
	"missingdeadline/chain/client"
)

// Service describes catalog items.
type Service struct {
	c *client.Client
}

// New returns a Service using c.
func New(c *client.Client) *Service { return &Service{c: c} }

// Describe passes its ctx on through the client wrapper.
func (s *Service) Describe(ctx context.Context, id string) (string, error) { // want Describe:`needsDeadline\(1: Client.Item → CatalogClient.GetItem\)`
	item, err := s.c.Item(ctx, id)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s (%d)", item.GetName(), item.GetPrice()), nil
}

// DescribeBounded bounds the wrapper's call: no fact.
func (s *Service) DescribeBounded(ctx context.Context, id string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return s.Describe(ctx, id)
}

// DescribeAll goes through a package-level helper and the concurrent fetch.
func DescribeAll(ctx context.Context, s *Service, ids []string) int { // want DescribeAll:`needsDeadline\(0: Client.Items → client.fetch → CatalogClient.GetItem\)`
	return len(s.c.Items(ctx, ids))
}

// Server is a gRPC service built on the library: its handlers pass the request ctx, which
// carries the caller's deadline.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	svc *Service
}

func (srv *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if _, err := srv.svc.Describe(ctx, req.GetId()); err != nil {
		return nil, err
	}
	return srv.svc.c.Item(ctx, req.GetId())
}
