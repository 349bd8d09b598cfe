// Package orders serves orders.v1.OrderService.
package orders

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	ordersv1 "example.test/monolith/gen/orders/v1"
	"example.test/monolith/internal/clients/notifyclient"
	"example.test/monolith/internal/clients/shippingclient"
	"example.test/monolith/internal/domain/order"
	"example.test/monolith/internal/repository"
	"example.test/monolith/internal/service/ordersvc"
)

// Config holds the orders API settings.
type Config struct {
	WarehousePostcode string
	FraudURL          string
	PSPURL            string
	BulkTimeout       time.Duration
}

// Server implements ordersv1.OrderServiceServer.
type Server struct {
	ordersv1.UnimplementedOrderServiceServer

	svc      *ordersvc.Service
	ship     *shippingclient.Client
	notify   *notifyclient.Client
	http     *http.Client
	cfg      Config
	log      *slog.Logger
	lifetime context.Context
	stop     context.CancelFunc
}

// NewServer returns the server.
func NewServer(svc *ordersvc.Service, ship *shippingclient.Client, notify *notifyclient.Client, cfg Config, log *slog.Logger) *Server {
	lifetime, stop := context.WithCancel(context.Background()) // OK
	return &Server{
		svc:      svc,
		ship:     ship,
		notify:   notify,
		http:     &http.Client{Timeout: 10 * time.Second},
		cfg:      cfg,
		log:      log,
		lifetime: lifetime,
		stop:     stop,
	}
}

// Register registers the service.
func (s *Server) Register(g *grpc.Server) { ordersv1.RegisterOrderServiceServer(g, s) }

// Close stops the watchers.
func (s *Server) Close() { s.stop() }

func orderToProto(o *repository.Order) *ordersv1.Order {
	p := &ordersv1.Order{Id: o.ID, AccountId: o.AccountID, Status: o.Status, TotalMinor: o.TotalMinor, Currency: o.Currency, ShipmentId: o.ShipmentID}
	for _, it := range o.Items {
		p.Items = append(p.Items, &ordersv1.LineItem{Sku: it.SKU, Quantity: it.Quantity, UnitPriceMinor: it.UnitPriceMinor})
	}
	return p
}

func toStatus(err error) error {
	switch {
	case errors.Is(err, repository.ErrNotFound):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, repository.ErrConflict):
		return status.Error(codes.Aborted, err.Error())
	case errors.Is(err, order.ErrAlreadyShipped):
		return status.Error(codes.FailedPrecondition, err.Error())
	case errors.Is(err, order.ErrEmpty):
		return status.Error(codes.InvalidArgument, err.Error())
	default:
		return status.FromContextError(err).Err()
	}
}
