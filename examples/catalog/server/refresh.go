package server

import (
	"context"
	"fmt"
	"log"
	"time"
)

// RefreshPrices re-quotes the price of every SKU each interval, until Close.
// main runs it in a goroutine of its own: it serves no request, so each
// round gets a budget of its own, half the interval.
func (s *Server) RefreshPrices(every time.Duration) {
	ticker := time.NewTicker(every)
	defer ticker.Stop()
	for {
		select {
		case <-s.baseCtx.Done():
			return
		case <-ticker.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), every/2)
		err := s.refreshAll(ctx)
		cancel()
		if err != nil {
			log.Printf("catalog: refresh prices: %v", err)
		}
	}
}

// refreshAll quotes and stores the price of every SKU.
func (s *Server) refreshAll(ctx context.Context) error {
	skus, err := s.repo.SKUs(ctx)
	if err != nil {
		return err
	}
	for _, sku := range skus {
		q, err := s.prices.Quote(ctx, sku)
		if err != nil {
			return err
		}
		if err := s.repo.SetPrice(ctx, sku, q.AmountCents); err != nil {
			return fmt.Errorf("store price of %s: %w", sku, err)
		}
	}
	return nil
}
