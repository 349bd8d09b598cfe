package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	jobsv1 "example.test/clients/gen/jobs/v1"
	"example.test/clients/internal/ops"
)

var errSkipped = errors.New("job skipped")

type orderLine struct {
	SKU string `json:"sku"`
	Qty int64  `json:"qty"`
}

type jobPayload struct {
	OrderID     string      `json:"order_id"`
	AccountID   string      `json:"account_id"`
	InvoiceID   string      `json:"invoice_id"`
	ChargeID    string      `json:"charge_id"`
	AmountCents int64       `json:"amount_cents"`
	Lines       []orderLine `json:"lines"`
	Reason      string      `json:"reason"`
}

// handle runs one job under its own deadline and settles its lease.
//
//deadlinelint:scope
func (w *Worker) handle(ctx context.Context, job *jobsv1.Job) {
	log := w.log.With("job", job.GetJobId(), "kind", job.GetKind(), "attempt", job.GetAttempt())

	var p jobPayload
	if err := json.Unmarshal(job.GetPayload(), &p); err != nil {
		log.Error("bad payload, dropping", "err", err)
		w.settle(ctx, job, nil)
		return
	}

	if job.GetAttempt() > 1 {
		time.Sleep(time.Duration(rand.IntN(500*int(job.GetAttempt()))) * time.Millisecond) // OK: time.Sleep: a single deliberate backoff before a retried job, in no loop (ctxless reports a sleep only in a loop that can turn without checking a ctx; precision issue)
	}

	var err error
	if p.InvoiceID != "" {
		inv, lerr := w.sdk.GetInvoice(context.TODO(), p.InvoiceID) // BUG: ctxbackground
		if lerr == nil && inv.GetStatus() == "void" {
			err = errSkipped
		}
	}
	if err == nil {
		switch job.GetKind() {
		case "fulfil":
			err = w.fulfil(ctx, p) // OK
		case "refund":
			err = ops.Refund(ctx, w.sdk, p.ChargeID, p.AmountCents, p.Reason) // OK
		case "notify":
			_, err = w.sdk.EnqueueJob(ctx, "reminder", job.GetPayload()) // OK
		default:
			log.Error("unknown job kind, handing it back")
			// Give the job back: a newer worker version may know this kind.
			if rerr := w.sdk.Release(context.WithoutCancel(ctx), job.GetLeaseId()); rerr != nil {
				// ^BUG: detach
				log.Warn("release failed", "err", rerr)
			}
			return
		}
	}

	if err != nil && !errors.Is(err, errSkipped) {
		log.Warn("job failed", "err", err)
		backoff := time.Duration(job.GetAttempt()+1) * 30 * time.Second
		nctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.opts.AckTimeout)
		// ^BUG: detach
		defer cancel()
		if nerr := w.sdk.Nack(nctx, job.GetLeaseId(), backoff, err); nerr != nil { // OK
			log.Warn("nack failed", "err", nerr)
		}
		return
	}

	w.settle(ctx, job, &p)
	if job.GetKind() == "fulfil" {
		go w.enqueueReceipt(context.WithoutCancel(ctx), p)
		// ^BUG: detach
	}
}

// settle acks a finished job.
func (w *Worker) settle(ctx context.Context, job *jobsv1.Job, p *jobPayload) {
	// The ack has to reach the queue even when the job used up its whole
	// budget: an unacked job is redelivered and would run twice.
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.opts.AckTimeout) // OK
	defer cancel()
	if err := w.sdk.Ack(actx, job.GetLeaseId()); err != nil { // OK
		w.log.Warn("ack failed", "job", job.GetJobId(), "err", err)
	}
	if p != nil && p.OrderID != "" {
		w.log.Info("job done", "job", job.GetJobId(), "order", p.OrderID)
	}
}

func (w *Worker) fulfil(ctx context.Context, p jobPayload) error {
	var reserved []string
	for _, line := range p.Lines {
		r, err := w.sdk.ReserveStock(ctx, line.SKU, line.Qty, p.OrderID) // OK
		if err != nil {
			w.releaseAll(ctx, reserved)
			return err
		}
		reserved = append(reserved, r.GetReservationId())
	}
	if _, err := w.sdk.Charge(ctx, p.AccountID, p.AmountCents, "order-"+p.OrderID); err != nil { // OK
		w.releaseAll(ctx, reserved)
		return fmt.Errorf("order %s: %w", p.OrderID, err)
	}
	return nil
}

func (w *Worker) releaseAll(ctx context.Context, reservationIDs []string) {
	//deadlinelint:detach the reservations must be released even when the job ran out of time, or the stock stays held until the nightly sweep
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.opts.AckTimeout) // OK
	defer cancel()
	for _, rid := range reservationIDs {
		if _, err := w.sdk.ReleaseStock(rctx, rid); err != nil { // OK
			w.log.Warn("reservation not released", "reservation", rid, "err", err)
		}
	}
}

func (w *Worker) enqueueReceipt(ctx context.Context, p jobPayload) {
	payload, _ := json.Marshal(map[string]string{"order_id": p.OrderID, "account_id": p.AccountID, "template": "receipt"})
	if _, err := w.sdk.EnqueueJob(ctx, "notify", payload); err != nil {
		w.log.Warn("receipt not enqueued", "order", p.OrderID, "err", err)
	}
}
