package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	ordersv1 "example.test/realworld/gen/orders/v1"
	"example.test/realworld/internal/cache"
	"example.test/realworld/internal/clients"
	"example.test/realworld/internal/store"
)

var statusToProto = map[store.Status]ordersv1.OrderStatus{
	store.StatusPending:     ordersv1.OrderStatus_ORDER_STATUS_PENDING,
	store.StatusPaid:        ordersv1.OrderStatus_ORDER_STATUS_PAID,
	store.StatusShipped:     ordersv1.OrderStatus_ORDER_STATUS_SHIPPED,
	store.StatusCancelled:   ordersv1.OrderStatus_ORDER_STATUS_CANCELLED,
	store.StatusRefunded:    ordersv1.OrderStatus_ORDER_STATUS_REFUNDED,
	store.StatusBackordered: ordersv1.OrderStatus_ORDER_STATUS_BACKORDERED,
}

func toProto(o *store.Order) *ordersv1.Order {
	out := &ordersv1.Order{
		Id:             o.ID,
		CustomerId:     o.CustomerID,
		Status:         statusToProto[o.Status],
		TotalCents:     o.TotalCents,
		Currency:       o.Currency,
		PaymentId:      o.PaymentID,
		ReservationId:  o.ReservationID,
		TrackingNumber: o.TrackingNumber,
		CreatedAt:      timestamppb.New(o.CreatedAt),
		UpdatedAt:      timestamppb.New(o.UpdatedAt),
	}
	for _, l := range o.Lines {
		out.Lines = append(out.Lines, &ordersv1.LineItem{Sku: l.SKU, Quantity: l.Quantity, UnitPriceCents: l.UnitPriceCents})
	}
	return out
}

func orderEvent(o *store.Order, detail string) *ordersv1.OrderEvent {
	return &ordersv1.OrderEvent{
		OrderId: o.ID,
		Status:  statusToProto[o.Status],
		At:      timestamppb.New(o.UpdatedAt),
		Detail:  detail,
	}
}

func isFinal(s store.Status) bool {
	return s == store.StatusShipped || s == store.StatusCancelled || s == store.StatusRefunded
}

func newOrderID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "ord_" + hex.EncodeToString(b[:])
}

func newOrder(req *ordersv1.CreateOrderRequest) *store.Order {
	o := &store.Order{
		ID:         newOrderID(),
		CustomerID: req.GetCustomerId(),
		Status:     store.StatusPending,
		Currency:   strings.ToUpper(req.GetCurrency()),
		CreatedAt:  time.Now().UTC(),
	}
	for _, l := range req.GetLines() {
		o.Lines = append(o.Lines, store.Line{SKU: l.GetSku(), Quantity: l.GetQuantity(), UnitPriceCents: l.GetUnitPriceCents()})
		o.TotalCents += int64(l.GetQuantity()) * l.GetUnitPriceCents()
	}
	return o
}

func validateCreate(req *ordersv1.CreateOrderRequest) error {
	switch {
	case req.GetCustomerId() == "":
		return errors.New("customer_id is required")
	case len(req.GetLines()) == 0:
		return errors.New("an order needs at least one line")
	case len(req.GetCurrency()) != 3:
		return errors.New("currency must be an ISO 4217 code")
	case req.GetPaymentMethodToken() == "":
		return errors.New("payment_method_token is required")
	}
	for i, l := range req.GetLines() {
		if l.GetSku() == "" || l.GetQuantity() <= 0 {
			return fmt.Errorf("line %d: sku and a positive quantity are required", i)
		}
	}
	return nil
}

func emailDomain(email string) string {
	at := strings.LastIndexByte(email, '@')
	if at < 0 || at == len(email)-1 {
		return ""
	}
	return strings.ToLower(email[at+1:])
}

func inventoryLines(lines []store.Line) []clients.Line {
	out := make([]clients.Line, len(lines))
	for i, l := range lines {
		out[i] = clients.Line{SKU: l.SKU, Quantity: l.Quantity}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func clampPageSize(n int32) int {
	switch {
	case n <= 0:
		return 25
	case n > 200:
		return 200
	}
	return int(n)
}

func backoff(attempt int) time.Duration {
	return time.Duration(25<<attempt) * time.Millisecond
}

// rpcError maps repository and client errors to gRPC status errors.
func rpcError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrNotFound):
		return status.Error(codes.NotFound, "order not found")
	case errors.Is(err, store.ErrConflict):
		return status.Error(codes.FailedPrecondition, "order is not in a state that allows this")
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return status.FromContextError(err).Err()
	}
	if st, ok := status.FromError(err); ok {
		return st.Err()
	}
	return status.Error(codes.Internal, err.Error())
}

func applyCartUpdate(c *cache.Cart, u *ordersv1.CartUpdate) {
	if u.GetSku() == "" {
		return
	}
	if u.GetQuantity() <= 0 {
		delete(c.Lines, u.GetSku())
		return
	}
	c.Lines[u.GetSku()] = u.GetQuantity()
}

func cartState(c *cache.Cart, available map[string]int32) *ordersv1.CartState {
	st := &ordersv1.CartState{CartId: c.ID, Unavailable: map[string]int32{}}
	for _, sku := range sortedKeys(c.Lines) {
		qty := c.Lines[sku]
		st.Lines = append(st.Lines, &ordersv1.LineItem{Sku: sku, Quantity: qty})
		if avail, ok := available[sku]; ok && avail < qty {
			st.Unavailable[sku] = qty - avail
		}
	}
	return st
}

// Claims are the verified claims of the caller's token.
type Claims struct {
	ID         string `json:"jti"`
	Subject    string `json:"sub"`
	CustomerID string `json:"cid"`
	Admin      bool   `json:"adm"`
	Expires    int64  `json:"exp"`
}

// CanRead reports whether the caller may see the orders of customerID.
func (c Claims) CanRead(customerID string) bool {
	return c.Admin || c.CustomerID == customerID
}

type claimsKey struct{}

// ClaimsFrom returns the claims stored by the auth interceptor.
func ClaimsFrom(ctx context.Context) (Claims, bool) {
	c, ok := ctx.Value(claimsKey{}).(Claims)
	return c, ok
}

func actor(ctx context.Context) string {
	if c, ok := ClaimsFrom(ctx); ok {
		return c.Subject
	}
	return "anonymous"
}
