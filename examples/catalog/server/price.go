package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/deadlinelint/deadlinelint/examples/catalog/catalogv1"
)

// GetPrice quotes an item's current price, converted to the requested
// currency if it is not the pricing service's own.
func (s *Server) GetPrice(ctx context.Context, req *catalogv1.GetPriceRequest) (*catalogv1.Price, error) {
	item, err := s.repo.Get(ctx, req.GetId())
	if err != nil {
		return nil, toStatus(err)
	}
	qctx, cancel := context.WithTimeout(ctx, quoteTimeout)
	defer cancel()
	q, err := s.prices.Quote(qctx, item.GetSku())
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "quote: %v", err) // planted: statusmask
	}
	price := &catalogv1.Price{Sku: q.SKU, AmountCents: q.AmountCents, Currency: q.Currency}
	to := req.GetCurrency()
	if to == "" || to == q.Currency {
		return price, nil
	}

	query := url.Values{"from": {q.Currency}, "to": {to}}
	resp, err := http.Get(s.fxURL + "?" + query.Encode()) // planted: ctxless
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "exchange rate: %v", err)
	}
	defer resp.Body.Close()
	var fx struct {
		Rate float64 `json:"rate"`
	}
	if resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("exchange service answered %s", resp.Status)
	} else {
		err = json.NewDecoder(resp.Body).Decode(&fx)
	}
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "exchange rate %s→%s: %v", q.Currency, to, err)
	}
	price.AmountCents = int64(math.Round(float64(q.AmountCents) * fx.Rate))
	price.Currency = to
	return price, nil
}

// RefreshPrice re-quotes one item's price now, instead of waiting for the
// background refresher, and stores it.
func (s *Server) RefreshPrice(ctx context.Context, req *catalogv1.RefreshPriceRequest) (*catalogv1.Price, error) {
	item, err := s.repo.Get(ctx, req.GetId())
	if err != nil {
		return nil, toStatus(err)
	}
	q, err := s.prices.Lookup(item.GetSku()) // planted: ctxbackground
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "quote: %v", err)
	}
	if err := s.repo.SetPrice(ctx, q.SKU, q.AmountCents); err != nil {
		return nil, toStatus(err)
	}
	return &catalogv1.Price{Sku: q.SKU, AmountCents: q.AmountCents, Currency: q.Currency}, nil
}
