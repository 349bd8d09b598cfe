// Command reconcile is the nightly job that compares the settlements of the
// payments service with the orders database: it refunds captured payments
// that have no order, reports amount mismatches, and releases stock held by
// orders that were never paid.
//
// It runs as a Kubernetes CronJob at 03:10 UTC; SIGTERM ends it early.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/timeout"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	paymentsv1 "example.test/realworld/gen/payments/v1"
	"example.test/realworld/internal/cache"
	"example.test/realworld/internal/clients"
	"example.test/realworld/internal/store"
)

func main() {
	day := flag.String("day", time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly), "settlement day to reconcile")
	dryRun := flag.Bool("dry-run", false, "report only; change nothing")
	flag.Parse()

	log := zap.Must(zap.NewProduction()).With(zap.String("day", *day))
	defer func() { _ = log.Sync() }()
	if err := run(*day, *dryRun, log); err != nil {
		log.Error("reconcile failed", zap.Error(err))
		os.Exit(1)
	}
}

func run(day string, dryRun bool, log *zap.Logger) (err error) {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt) // OK
	defer stop()
	ctx, span := otel.Tracer("reconcile").Start(ctx, "reconcile.run")
	defer span.End()

	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	defer pool.Close()
	repo := store.NewRepo(pool, log)

	rdb := redis.NewClient(&redis.Options{Addr: os.Getenv("REDIS_ADDR")})
	defer rdb.Close()
	orderCache := cache.New(rdb, 10*time.Minute, log)

	payConn, err := clients.Dial(os.Getenv("PAYMENTS_ADDR"))
	if err != nil {
		return err
	}
	defer payConn.Close()
	invConn, err := clients.Dial(os.Getenv("INVENTORY_ADDR"))
	if err != nil {
		return err
	}
	defer invConn.Close()
	pay := clients.NewPayments(payConn, log)
	inv := clients.NewInventory(invConn, log)

	// Lookups of payments that have no order go through a connection of their
	// own with a default deadline: there can be thousands of them.
	lookupConn, err := grpc.NewClient(os.Getenv("PAYMENTS_ADDR"),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithChainUnaryInterceptor(timeout.UnaryClientInterceptor(3*time.Second)),
	)
	if err != nil {
		return err
	}
	defer lookupConn.Close()
	lookup := paymentsv1.NewPaymentsServiceClient(lookupConn)

	runID, err := repo.StartReconcileRun(ctx, day)
	if err != nil {
		return fmt.Errorf("start run: %w", err)
	}
	var stats store.ReconcileStats
	defer func() {
		if err == nil {
			return
		}
		// Record the failed run even when we were interrupted, so the next
		// run does not take this day as done.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second) // OK
		defer cancel()
		_ = repo.FinishReconcileRun(fctx, runID, stats, err)
	}()

	var orphans []*paymentsv1.Payment
	err = pay.Settlements(ctx, day, func(st *paymentsv1.Settlement) error { // OK
		stats.Settlements++
		o, err := repo.GetOrderByPayment(ctx, st.GetPaymentId())
		if errors.Is(err, store.ErrNotFound) {
			p, err := lookup.GetPayment(ctx, &paymentsv1.GetPaymentRequest{Id: st.GetPaymentId()}) // OK
			if err != nil {
				return fmt.Errorf("payment %s: %w", st.GetPaymentId(), err)
			}
			orphans = append(orphans, p)
			return nil
		}
		if err != nil {
			return err
		}
		if o.TotalCents != st.GetAmountCents() {
			stats.Mismatched++
			p, err := pay.Get(ctx, st.GetPaymentId()) // BUG: missingdeadline
			if err != nil {
				return err
			}
			log.Warn("amount mismatch",
				zap.String("order_id", o.ID), zap.Int64("order_cents", o.TotalCents),
				zap.Int64("settled_cents", st.GetAmountCents()), zap.Int64("refunded_cents", p.GetRefundedCents()))
			if p.GetId() != o.PaymentID && !dryRun {
				if err := repo.SetPayment(ctx, o.ID, p.GetId()); err != nil { // OK
					return err
				}
				orderCache.InvalidateCustomer(o.CustomerID) // OK
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("settlements: %w", err)
	}

	stats.Orphaned = len(orphans)
	if !dryRun && len(orphans) > 0 {
		rctx := metadata.NewOutgoingContext(ctx, metadata.Pairs("x-reconcile-run", runID))
		direct := paymentsv1.NewPaymentsServiceClient(payConn)
		for _, p := range orphans {
			if p.GetState() != paymentsv1.PaymentState_PAYMENT_STATE_CAPTURED {
				continue
			}
			_, err := direct.Refund(rctx, &paymentsv1.RefundRequest{ // BUG: missingdeadline
				PaymentId:   p.GetId(),
				AmountCents: p.GetAmountCents() - p.GetRefundedCents(),
				Reason:      "no matching order",
			})
			if err != nil {
				log.Error("refund orphaned payment", zap.String("payment_id", p.GetId()), zap.Error(err))
			}
		}
	}

	stale, err := repo.ExpiredReservations(ctx, time.Now().Add(-2*time.Hour), 1000)
	if err != nil {
		return fmt.Errorf("expired reservations: %w", err)
	}
	if !dryRun {
		stats.Released = releaseStale(ctx, inv, repo, stale, log) // BUG: missingdeadline
	}

	skus := []string{"GIFT-CARD-25", "GIFT-CARD-50"}
	if avail, err := inv.Available(ctx, skus); err == nil { // OK
		log.Info("gift card stock", zap.Any("available", avail))
	}

	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	// ^BUG: detach
	defer cancel()
	return repo.FinishReconcileRun(fctx, runID, stats, nil)
}

// releaseStale gives back the stock of unpaid orders and returns how many
// reservations were released. Failures are retried once after a pause.
func releaseStale(ctx context.Context, inv *clients.Inventory, repo *store.Repo, stale []store.Reservation, log *zap.Logger) int {
	released := 0
	for _, r := range stale {
		err := inv.Release(ctx, r.ReservationID)
		if err != nil {
			time.Sleep(time.Second) // OK
			err = inv.Release(ctx, r.ReservationID)
		}
		if err != nil {
			log.Warn("release reservation", zap.String("order_id", r.OrderID), zap.Error(err))
			continue
		}
		if err := repo.ClearReservation(ctx, r.OrderID); err != nil {
			log.Warn("clear reservation", zap.String("order_id", r.OrderID), zap.Error(err))
			continue
		}
		released++
	}
	return released
}
