// Package shippingsvc is the application layer of the shipping API.
package shippingsvc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"example.test/acme/geo"
	"example.test/monolith/internal/clients/carrierapi"
	"example.test/monolith/internal/platform/events"
	"example.test/monolith/internal/repository"
)

// ErrNoRates is returned when no carrier offers a rate.
var ErrNoRates = errors.New("shipping: no carrier rates")

// Service orchestrates shipping operations.
type Service struct {
	store       repository.ShipmentStore
	carriers    *carrierapi.Client
	geo         *geo.Client
	events      *events.Publisher
	printerAddr string
	warehouse   string
}

// New returns the service.
func New(store repository.ShipmentStore, carriers *carrierapi.Client, g *geo.Client, ev *events.Publisher, printerAddr, warehousePostcode string) *Service {
	return &Service{store: store, carriers: carriers, geo: g, events: ev, printerAddr: printerAddr, warehouse: warehousePostcode}
}

// Quote returns the cheapest carrier rate.
func (s *Service) Quote(ctx context.Context, from, to string, grams int32) (*carrierapi.Rate, error) {
	if from == "" {
		from = s.warehouse
	}
	rates, err := s.carriers.Rates(ctx, carrierapi.RateRequest{FromPostcode: from, ToPostcode: to, WeightGrams: grams})
	if err != nil {
		return nil, err
	}
	if len(rates) == 0 {
		return nil, ErrNoRates
	}
	return &rates[0], nil
}

// Create books a shipment for an order.
func (s *Service) Create(ctx context.Context, orderID, to string, grams int32, carrier string) (*repository.Shipment, error) {
	if _, err := s.geo.Lookup(to); err != nil {
		return nil, fmt.Errorf("shipping: bad destination: %w", err)
	}
	sh := &repository.Shipment{OrderID: orderID, Carrier: carrier, WeightGrams: grams, ToPostcode: to, Status: "created"}
	if err := s.store.Insert(ctx, sh); err != nil {
		return nil, err
	}
	b, err := s.carriers.Book(ctx, carrier, carrierapi.RateRequest{FromPostcode: s.warehouse, ToPostcode: to, WeightGrams: grams}, sh.ID)
	if err != nil {
		return nil, err
	}
	sh.TrackingCode = b.TrackingCode
	sh.Status = "booked"
	return sh, s.store.SetStatus(ctx, sh.ID, sh.Status)
}

// PrintLabel sends the label of a shipment to the warehouse printer.
func (s *Service) PrintLabel(ctx context.Context, sh *repository.Shipment) error {
	conn, err := net.Dial("tcp", s.printerAddr) // OK
	if err != nil {
		return err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	_, err = fmt.Fprintf(conn, "^XA^FO50,50^BCN,100^FD%s^FS^FO50,200^FD%s %s^FS^XZ", sh.TrackingCode, sh.Carrier, sh.ToPostcode)
	return err
}

// PublishCreated announces a new shipment.
func (s *Service) PublishCreated(ctx context.Context, sh *repository.Shipment) error {
	return s.events.Publish(ctx, "shipment.created", sh.ID, sh)
}

// Get returns a shipment.
func (s *Service) Get(ctx context.Context, id string) (*repository.Shipment, error) {
	return s.store.Get(ctx, id)
}

// LatestEvent returns the newest tracking event.
func (s *Service) LatestEvent(ctx context.Context, id string) (*repository.ShipmentEvent, error) {
	evs, err := s.store.Events(ctx, id, 1)
	if err != nil || len(evs) == 0 {
		return nil, err
	}
	return &evs[0], nil
}

// Track returns the tracking history of a shipment, newest first.
func (s *Service) Track(ctx context.Context, id string) ([]repository.ShipmentEvent, error) {
	return s.store.Events(ctx, id, 50)
}

// Cancel marks a shipment cancelled locally.
func (s *Service) Cancel(ctx context.Context, id string) (*repository.Shipment, error) {
	sh, err := s.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	sh.Status = "cancelled"
	return sh, s.store.SetStatus(ctx, id, sh.Status)
}

// CancelAtCarrier cancels the booking at the carrier.
func (s *Service) CancelAtCarrier(ctx context.Context, sh *repository.Shipment) error {
	if sh.TrackingCode == "" {
		return nil
	}
	return s.carriers.Cancel(ctx, sh.Carrier, sh.TrackingCode)
}

// Carriers lists the carriers serving a country.
func (s *Service) Carriers(ctx context.Context, country string) ([]repository.Carrier, error) {
	return s.store.Carriers(ctx, country)
}

// Deadline returns how long a carrier call may take, for callers that bound retries.
func (s *Service) Deadline() time.Duration { return 4 * time.Second }
