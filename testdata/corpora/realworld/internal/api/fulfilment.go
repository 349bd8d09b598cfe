package api

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	ordersv1 "example.test/realworld/gen/orders/v1"
	"example.test/realworld/internal/clients"
	"example.test/realworld/internal/events"
	"example.test/realworld/internal/store"
	"example.test/realworld/internal/telemetry"
)

type carrierBooking struct {
	OrderID string `json:"order_id"`
	Carrier string `json:"carrier"`
	Parcels int    `json:"parcels"`
}

// shipment is a booked parcel that still has to be recorded.
type shipment struct {
	ctx      context.Context
	orderID  string
	carrier  string
	tracking string
}

// ShipOrder books the carrier for a paid order and records the tracking number.
func (s *Server) ShipOrder(ctx context.Context, req *ordersv1.ShipOrderRequest) (*ordersv1.Order, error) {
	ctx, span := telemetry.Start(ctx, "api.ShipOrder", attribute.String("order.id", req.GetOrderId()))
	defer span.End()

	o, err := s.orders.GetOrder(ctx, req.GetOrderId())
	if err != nil {
		return nil, rpcError(err)
	}
	if o.Status != store.StatusPaid {
		return nil, status.Errorf(codes.FailedPrecondition, "order is %s", o.Status)
	}

	body, err := json.Marshal(carrierBooking{OrderID: o.ID, Carrier: req.GetCarrier(), Parcels: len(o.Lines)})
	if err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	hreq, err := http.NewRequest(http.MethodPost, s.cfg.CarrierURL+"/v2/shipments", bytes.NewReader(body)) // BUG: ctxless
	if err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Idempotency-Key", "ship-"+o.ID)
	resp, err := s.http.Do(hreq)
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "carrier: %v", err)
	}
	defer resp.Body.Close()
	var booking struct {
		TrackingNumber string `json:"tracking_number"`
	}
	if resp.StatusCode != http.StatusCreated || json.NewDecoder(resp.Body).Decode(&booking) != nil {
		return nil, status.Errorf(codes.Unavailable, "carrier booking failed: %s", resp.Status)
	}

	job := shipment{ctx: s.baseCtx, orderID: o.ID, carrier: req.GetCarrier(), tracking: booking.TrackingNumber}
	for attempt := 0; ; attempt++ {
		err = s.orders.RecordShipment(job.ctx, job.orderID, job.carrier, job.tracking) // BUG: ctxflow
		if err == nil || !store.IsRetryable(err) || attempt == 3 {
			break
		}
		time.Sleep(backoff(attempt)) // BUG: ctxless
	}
	if err != nil {
		return nil, rpcError(err)
	}
	o.Status, o.Carrier, o.TrackingNumber, o.UpdatedAt = store.StatusShipped, job.carrier, job.tracking, time.Now()

	// The carrier already has the parcel, so the customer has to be told even
	// if this call is abandoned now.
	//deadlinelint:detach the booking cannot be undone; the notice is bounded to 3s
	nctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second) // OK
	defer cancel()
	if err := s.events.Publish(nctx, events.OrderEvent("order.shipment_notice", o)); err != nil {
		s.log.Error("shipment notice", zap.String("order_id", o.ID), zap.Error(err))
	}
	if err := s.cache.PutOrder(ctx, o); err != nil { // OK
		s.log.Debug("order cache write failed", zap.Error(err))
	}
	return toProto(o), nil
}

// RefundOrder refunds all or part of a paid order.
func (s *Server) RefundOrder(ctx context.Context, req *ordersv1.RefundOrderRequest) (*ordersv1.Order, error) {
	ctx, span := telemetry.Start(ctx, "api.RefundOrder", attribute.String("order.id", req.GetOrderId()))
	defer span.End()

	o, err := s.orders.GetOrder(ctx, req.GetOrderId())
	if err != nil {
		return nil, rpcError(err)
	}
	if o.PaymentID == "" || (o.Status != store.StatusPaid && o.Status != store.StatusShipped) {
		return nil, status.Errorf(codes.FailedPrecondition, "order is %s", o.Status)
	}
	amount := req.GetAmountCents()
	if amount <= 0 || amount > o.TotalCents {
		amount = o.TotalCents
	}

	refund, err := s.payments.Refund(ctx, o.PaymentID, amount, req.GetReason()) // OK
	if err != nil {
		return nil, rpcError(err)
	}
	o, err = s.orders.MarkRefunded(ctx, o.ID, refund.GetId(), amount, events.Outbox(events.OrderEvent("order.refunded", o))) // BUG: ctxbackground
	if err != nil {
		return nil, rpcError(err)
	}

	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	// ^BUG: detach
	defer cancel()
	if err := s.orders.AppendAudit(actx, store.AuditEntry{
		OrderID: o.ID,
		Actor:   actor(ctx),
		Action:  "refund",
		Detail:  strconv.FormatInt(amount, 10) + " " + o.Currency + ": " + req.GetReason(),
		TraceID: telemetry.TraceID(ctx),
	}); err != nil {
		s.log.Error("audit refund", zap.String("order_id", o.ID), zap.Error(err))
	}
	if err := s.notify(ctx, o, "order.refunded"); err != nil { // BUG: ctxbackground
		s.log.Warn("merchant webhook", zap.String("order_id", o.ID), zap.Error(err))
	}
	return toProto(o), nil
}

// QuoteShipping returns shipping offers for a parcel.
func (s *Server) QuoteShipping(ctx context.Context, req *ordersv1.QuoteShippingRequest) (*ordersv1.QuoteShippingResponse, error) {
	_, span := telemetry.Start(ctx, "api.QuoteShipping")
	defer span.End()
	dst := req.GetDestination()
	if dst == nil {
		return nil, status.Error(codes.InvalidArgument, "destination is required")
	}
	q := clients.RateQuery{
		Country:     dst.GetCountry(),
		PostalCode:  dst.GetPostalCode(),
		WeightGrams: req.GetWeightGrams(),
		Currency:    req.GetCurrency(),
	}
	rates, err := s.rates.Quote(q) // BUG: ctxless
	if err != nil {
		s.log.Warn("rate aggregator failed, asking the legacy gateway", zap.Error(err))
		u := s.cfg.LegacyRatesURL + "?" + url.Values{
			"cc":  {q.Country},
			"zip": {q.PostalCode},
			"g":   {strconv.Itoa(int(q.WeightGrams))},
		}.Encode()
		resp, herr := http.Get(u) // BUG: ctxless
		if herr != nil {
			return nil, status.Errorf(codes.Unavailable, "no shipping rates: %v", err)
		}
		defer resp.Body.Close()
		if derr := json.NewDecoder(resp.Body).Decode(&rates); derr != nil {
			return nil, status.Errorf(codes.Unavailable, "no shipping rates: %v", derr)
		}
	}
	out := &ordersv1.QuoteShippingResponse{}
	for _, r := range rates {
		out.Rates = append(out.Rates, &ordersv1.ShippingRate{
			Carrier: r.Carrier, Service: r.Service, PriceCents: r.PriceCents, EstimatedDays: r.EstimatedDays,
		})
	}
	return out, nil
}

// GetInvoice renders the invoice of an order from the legacy billing database.
func (s *Server) GetInvoice(ctx context.Context, req *ordersv1.GetInvoiceRequest) (*ordersv1.Invoice, error) {
	ctx, span := telemetry.Start(ctx, "api.GetInvoice", attribute.String("order.id", req.GetOrderId()))
	defer span.End()

	var number, html string
	err := telemetry.WithSpan(ctx, "invoice.load", func(ctx context.Context) error {
		return s.legacy.QueryRowContext(ctx, `SELECT number, body_html FROM invoices WHERE order_id = $1`, req.GetOrderId()).Scan(&number, &html) // OK
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, status.Error(codes.NotFound, "no invoice for this order")
	}
	if err != nil {
		return nil, status.Errorf(codes.Internal, "load invoice: %v", err)
	}

	render := exec.Command(s.cfg.InvoiceRenderer, "--quiet", "--page-size", "A4", "-", "-") // BUG: ctxless
	render.Stdin = strings.NewReader(html)
	var pdf bytes.Buffer
	render.Stdout = &pdf
	if err := render.Run(); err != nil {
		return nil, status.Errorf(codes.Internal, "render invoice %s: %v", number, err)
	}
	if s.cfg.PDFOptimizer != "" {
		opt := exec.CommandContext(ctx, s.cfg.PDFOptimizer, "--linearize", "-", "-") // OK
		opt.Stdin = bytes.NewReader(pdf.Bytes())
		var small bytes.Buffer
		opt.Stdout = &small
		if err := opt.Run(); err == nil {
			pdf = small
		}
	}

	if _, err := s.legacy.Exec(`UPDATE invoices SET downloaded_at = now() WHERE order_id = $1`, req.GetOrderId()); err != nil { // BUG: ctxless
		s.log.Warn("mark invoice downloaded", zap.Error(err))
	}
	return &ordersv1.Invoice{OrderId: req.GetOrderId(), Number: number, Pdf: pdf.Bytes()}, nil
}

// ReplayEvents re-publishes outbox events for an operator.
func (s *Server) ReplayEvents(ctx context.Context, req *ordersv1.ReplayEventsRequest) (*ordersv1.ReplayEventsResponse, error) {
	ctx, span := telemetry.Start(ctx, "api.ReplayEvents")
	defer span.End()
	if c, ok := ClaimsFrom(ctx); !ok || !c.Admin {
		return nil, status.Error(codes.PermissionDenied, "operators only")
	}
	topic := req.GetTopic()
	if topic == "" {
		topic = events.TopicOrders
	}

	conn, err := s.dialer.Dial("tcp", s.cfg.KafkaBroker) // BUG: ctxless
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "kafka: %v", err)
	}
	defer conn.Close()
	parts, err := conn.ReadPartitions(topic)
	if err != nil || len(parts) == 0 {
		return nil, status.Errorf(codes.FailedPrecondition, "topic %q is not available", topic)
	}

	since := time.Now().Add(-time.Hour)
	if req.GetSince() != nil {
		since = req.GetSince().AsTime()
	}
	n, err := s.relay.Requeue(s.opCtx(), since, topic) // BUG: ctxflow
	if err != nil {
		return nil, status.Errorf(codes.Internal, "requeue: %v", err)
	}
	s.log.Info("events requeued", zap.String("topic", topic), zap.Int64("count", n), zap.String("by", actor(ctx)))
	return &ordersv1.ReplayEventsResponse{Requeued: n, Partitions: int32(len(parts))}, nil
}
