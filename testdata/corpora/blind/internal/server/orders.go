package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"connectrpc.com/connect"
	notifyv1 "example.test/blind/gen/notifyv1"
	ordersv1 "example.test/blind/gen/ordersv1"
	"example.test/blind/internal/audit"
	"example.test/blind/internal/repo"
	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func (s *Server) GetOrder(ctx context.Context, req *ordersv1.GetOrderRequest) (*ordersv1.Order, error) {
	if req.GetId() == "" {
		return nil, status.Error(codes.InvalidArgument, "id is required")
	}
	o, err := s.orders.Get(context.Background(), req.GetId()) // BUG: ctxbackground
	if errors.Is(err, repo.ErrNotFound) {
		return nil, status.Error(codes.NotFound, "no such order")
	}
	if err != nil {
		return nil, err
	}
	name, err := s.lookupCustomer(ctx, o.GetCustomerId()) // BUG: ctxbackground
	if err != nil {
		// fall back to the local copy
		err = s.db.QueryRow(`SELECT name FROM customers WHERE id = $1`, o.GetCustomerId()).Scan(&name) // BUG: ctxless
		if err != nil {
			return nil, err
		}
	}
	o.Status = o.Status + " (" + name + ")"
	return o, nil
}

func (s *Server) CreateOrder(ctx context.Context, req *ordersv1.CreateOrderRequest) (*ordersv1.Order, error) {
	ctx, cancel := context.WithTimeout(ctx, 4*time.Second) // OK: derived from the request
	defer cancel()

	hold, err := s.risk.ShouldHold(ctx, req.GetCustomerId()) // OK: the same root as the finding at notify.go:20, which lists this call (one finding per root, precision issue)
	if err != nil {
		return nil, err
	}
	total, err := s.pricer.Total(ctx, req.GetLines(), req.GetCurrency()) // OK: Catalog passes ctx on
	if err != nil {
		return nil, err
	}
	o := &ordersv1.Order{Id: newID(), CustomerId: req.GetCustomerId(), Status: "new", TotalCents: total, Lines: req.GetLines()}
	if hold {
		o.Status = "held"
	}
	if err := s.orders.Insert(ctx, o); err != nil {
		return nil, err
	}

	g, gctx := errgroup.WithContext(ctx) // OK
	g.Go(func() error {
		_, err := s.inv.ReserveLines(gctx, o.Id, o.Lines) // OK
		return err
	})
	g.Go(func() error {
		return s.audit.Write(context.Background(), audit.Entry{Actor: o.CustomerId, Action: "create", OrderID: o.Id, At: s.now()}) // BUG: ctxbackground
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}

	go func(cid string) {
		_, _ = s.db.Exec(`UPDATE customers SET last_order_at = now() WHERE id = $1`, cid) // BUG: ctxless
	}(o.CustomerId)

	// the confirmation must go out even if the client hangs up now; 5s is plenty
	nctx, ncancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second) // OK: bounded and explained
	go func() {
		defer ncancel()
		_, _ = s.notify.Send(nctx, connect.NewRequest(&notifyv1.SendRequest{CustomerId: o.CustomerId, Template: "order-created", OrderId: o.Id}))
	}()
	return o, nil
}

func (s *Server) CancelOrder(ctx context.Context, req *ordersv1.CancelOrderRequest) (*ordersv1.CancelOrderResponse, error) {
	o, err := s.loadOrder(ctx, req.GetId()) // OK: nil fallback inside
	if err != nil {
		return nil, err
	}
	if err := s.orders.SetStatus(s.ctx, o.Id, "canceled"); err != nil { // BUG: ctxflow
		return nil, err
	}
	if err := s.orders.Archive(ctx, o.Id); err != nil { // BUG: ctxbackground
		return nil, err
	}
	go s.audit.Write(context.WithoutCancel(ctx), audit.Entry{Action: "cancel", OrderID: o.Id, At: s.now()})
	// ^BUG: detach

	r := &cancelReq{ctx: ctx, s: s, id: o.Id} // OK: per-request struct with the request ctx
	if err := r.releaseReservations(); err != nil {
		return nil, err
	}

	body := strings.NewReader(fmt.Sprintf(`{"order_id":%q,"reason":%q}`, o.Id, req.GetReason()))
	resp, err := http.Post("http://payments.internal/refunds", "application/json", body) // BUG: ctxless
	if err != nil {
		return nil, status.Error(codes.Unavailable, err.Error())
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)

	go func() {
		_, _ = s.notify.Send(context.Background(), connect.NewRequest(&notifyv1.SendRequest{CustomerId: o.CustomerId, Template: "order-canceled"})) // BUG: ctxbackground
	}()
	return &ordersv1.CancelOrderResponse{Refunded: resp.StatusCode == http.StatusOK}, nil
}

func (s *Server) QuoteOrder(ctx context.Context, req *ordersv1.QuoteOrderRequest) (*ordersv1.Quote, error) {
	key := quoteKey(req)
	if v, err := s.cache.Get("quote/" + key); err == nil && len(v) > 0 { // BUG: ctxless ALSO: ctxbackground
		return &ordersv1.Quote{TotalCents: int64(v[0]), Currency: req.GetCurrency()}, nil
	}
	if v, err := s.cache.GetContext(ctx, "quote-v2/"+key); err == nil && len(v) > 0 { // OK
		return &ordersv1.Quote{TotalCents: int64(v[0]), Currency: req.GetCurrency()}, nil
	}

	var total int64
	var err error
	backoff := 100 * time.Millisecond
	for attempt := 0; attempt < 3; attempt++ {
		total, err = s.pricer.Total(ctx, req.GetLines(), req.GetCurrency())
		if err == nil {
			break
		}
		time.Sleep(backoff) // BUG: ctxless
		backoff *= 2
	}
	if err != nil {
		return nil, status.Error(codes.Unavailable, err.Error())
	}

	for _, l := range req.GetLines() {
		if _, err := s.inv.Available(s.lifetime(), l.GetSku()); err != nil { // BUG: ctxflow
			return nil, err
		}
	}

	st := &quoteState{ctx: s.ctx, req: req}
	if _, err := s.pricer.Total(st.ctx, st.req.GetLines(), "USD"); err != nil { // BUG: ctxflow
		return nil, err
	}
	s.cache.Put("quote/"+key, []byte{byte(total)}) // OK: no ctx twin
	return &ordersv1.Quote{TotalCents: total, Currency: req.GetCurrency()}, nil
}

// cancelReq carries one cancellation through its steps.
type cancelReq struct {
	ctx context.Context
	s   *Server
	id  string
}

func (r *cancelReq) releaseReservations() error {
	_, err := r.s.db.ExecContext(r.ctx, `DELETE FROM reservations WHERE order_id = $1`, r.id)
	return err
}

type quoteState struct {
	ctx context.Context
	req *ordersv1.QuoteOrderRequest
}

func quoteKey(req *ordersv1.QuoteOrderRequest) string {
	var b strings.Builder
	b.WriteString(req.GetCurrency())
	for _, l := range req.GetLines() {
		fmt.Fprintf(&b, "|%s:%d", l.GetSku(), l.GetQuantity())
	}
	return b.String()
}

func (s *Server) lookupCustomerHTTP(ctx context.Context, id string) (string, error) {
	req, err := http.NewRequestWithContext(context.TODO(), http.MethodGet, "http://customers.internal/v1/customers/"+id, nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
