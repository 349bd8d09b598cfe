// Package shipping serves shipping.v1.ShippingService.
package shipping

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/acme/geo"
	shippingv1 "example.test/monolith/gen/shipping/v1"
	"example.test/monolith/internal/repository"
	"example.test/monolith/internal/service/shippingsvc"
)

// trackingCtx bounds the tracking pollers; StopTracking is called on shutdown.
var trackingCtx, stopTracking = context.WithCancel(context.Background()) // OK

// StopTracking cancels all tracking work.
func StopTracking() { stopTracking() }

// Config holds shipping API settings.
type Config struct {
	CarrierTimeout time.Duration
	Country        string
}

// Server implements shippingv1.ShippingServiceServer.
type Server struct {
	shippingv1.UnimplementedShippingServiceServer

	svc     *shippingsvc.Service
	geo     *geo.Client
	cfg     Config
	log     *slog.Logger
	baseCtx context.Context
}

// NewServer returns the server; base is the process lifetime context.
func NewServer(base context.Context, svc *shippingsvc.Service, g *geo.Client, cfg Config, log *slog.Logger) *Server {
	return &Server{svc: svc, geo: g, cfg: cfg, log: log, baseCtx: base}
}

// Register registers the service.
func (s *Server) Register(g *grpc.Server) { shippingv1.RegisterShippingServiceServer(g, s) }

func shipmentToProto(sh *repository.Shipment) *shippingv1.Shipment {
	return &shippingv1.Shipment{Id: sh.ID, OrderId: sh.OrderID, Carrier: sh.Carrier, Status: sh.Status, TrackingCode: sh.TrackingCode}
}

func toStatus(err error) error {
	switch {
	case errors.Is(err, repository.ErrNotFound):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, shippingsvc.ErrNoRates):
		return status.Error(codes.FailedPrecondition, err.Error())
	default:
		return status.FromContextError(err).Err()
	}
}
