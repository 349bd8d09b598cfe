package dispatch

// Job intake, expiry and stock holds. The per-job and per-SKU work is handed to small helpers
// (fanout.Each, withJobLock, eachSKU, eachRow, drain) as a function to run.

import (
	"context"
	"database/sql"
	"fmt"
	"log"

	invpb "example.test/shapes3/gen/inventory/v1"
	jobspb "example.test/shapes3/gen/jobs/v1"
	"example.test/shapes3/internal/fanout"
	"example.test/shapes3/internal/ledger"
)

// SubmitJobs queues the submitted jobs for the workers and marks them submitted.
func (s *Server) SubmitJobs(ctx context.Context, req *jobspb.JobsRequest) (*jobspb.BatchReply, error) {
	ids := req.GetIds()
	if err := fanout.Each(ctx, ids, s.enqueue); err != nil { // OK: enqueue inserts with the ctx fanout.Each hands it
		return nil, err
	}
	if err := fanout.Each(ctx, ids, s.markSubmitted); err != nil { // BUG: ctxbackground
		return nil, err
	}
	fanout.Go("stats", s.rebuildStats) // OK: the rebuild runs on a goroutine fanout.Go starts, not for this request
	s.afterSubmit(ctx, ids, s.announce)
	return &jobspb.BatchReply{Done: int32(len(ids))}, nil
}

func (s *Server) enqueue(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO queue (job_id, lane) VALUES ($1, 'default')`, id)
	return err
}

// markSubmitted flips the job to submitted. A batch is marked all or nothing from the
// client's point of view, so the update does not stop half-way when the client hangs up.
func (s *Server) markSubmitted(_ context.Context, id string) error {
	return s.jobs.SetState(context.Background(), id, "submitted")
}

// rebuildStats recomputes the per-lane queue statistics shown on the dashboard.
func (s *Server) rebuildStats() {
	ctx, cancel := context.WithTimeout(context.Background(), statsBudget)
	defer cancel()
	if _, err := s.db.ExecContext(ctx, `REFRESH MATERIALIZED VIEW CONCURRENTLY lane_stats`); err != nil {
		log.Printf("dispatch: rebuild stats: %v", err)
	}
}

func (s *Server) announce(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO announcements (job_id, at) VALUES ($1, now())`, id)
	return err
}

func (s *Server) afterSubmit(ctx context.Context, ids []string, fn func(context.Context, string) error) {
	bg := context.WithoutCancel(ctx)
	// ^BUG: detach
	go func() {
		for _, id := range ids {
			if err := fn(bg, id); err != nil {
				log.Printf("dispatch: after submit %s: %v", id, err)
			}
		}
	}()
}

// ExpireJobs expires the given jobs, each under its row lock, then clears their leases and
// holds.
func (s *Server) ExpireJobs(ctx context.Context, req *jobspb.JobsRequest) (*jobspb.BatchReply, error) {
	reply := &jobspb.BatchReply{}
	for _, id := range req.GetIds() {
		if err := s.withJobLock(ctx, id, s.expireOne); err != nil { // BUG: ctxbackground
			reply.Failed = append(reply.Failed, id)
			continue
		}
		reply.Done++
	}
	if err := eachRow(ctx, s.db, req.GetIds(), clearLease); err != nil { // OK: clearLease runs with the ctx eachRow gives it
		return nil, err
	}
	if err := eachRow(ctx, s.db, req.GetIds(), dropHolds); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return reply, nil
}

// RenewJobs renews the leases of the given jobs.
func (s *Server) RenewJobs(ctx context.Context, req *jobspb.JobsRequest) (*jobspb.BatchReply, error) {
	reply := &jobspb.BatchReply{}
	for _, id := range req.GetIds() {
		if err := s.withJobLock(ctx, id, s.renewOne); err != nil { // OK: renewOne works with the ctx runLocked hands it
			reply.Failed = append(reply.Failed, id)
			continue
		}
		reply.Done++
	}
	// keep the leases of the shadow copies in step; a failure here is only logged
	fanout.Collect(s.baseCtx, req.GetIds(), s.jobs.Touch) // BUG: ctxflow
	return reply, nil
}

// withJobLock runs fn while holding the job's row lock.
func (s *Server) withJobLock(ctx context.Context, id string, fn func(context.Context, string) error) error {
	key, owner := "job/"+id, ownerFrom(ctx)
	if err := s.locks.Acquire(ctx, key, owner); err != nil {
		return err
	}
	err := s.runLocked(ctx, id, fn)
	if rerr := s.locks.Release(ctx, key, owner); err == nil {
		err = rerr
	}
	return err
}

func (s *Server) runLocked(ctx context.Context, id string, fn func(context.Context, string) error) error {
	if err := fn(ctx, id); err != nil {
		return fmt.Errorf("job %s: %w", id, err)
	}
	return nil
}

func (s *Server) expireOne(ctx context.Context, id string) error {
	job, err := s.jobs.Load(ctx, id)
	if err != nil {
		return err
	}
	if job.State == "done" {
		return nil
	}
	// expiry is bookkeeping: finish it even if the caller stopped waiting
	return s.jobs.SetState(context.Background(), id, "expired")
}

func (s *Server) renewOne(ctx context.Context, id string) error {
	if err := s.jobs.Touch(ctx, id); err != nil {
		return err
	}
	return s.jobs.AppendNote(ctx, id, "lease renewed")
}

func eachRow(ctx context.Context, db *sql.DB, ids []string, fn func(context.Context, *sql.DB, string) error) error {
	for _, id := range ids {
		if err := fn(ctx, db, id); err != nil {
			return err
		}
	}
	return nil
}

func clearLease(ctx context.Context, db *sql.DB, id string) error {
	_, err := db.ExecContext(ctx, `UPDATE jobs SET lease_until = NULL WHERE id = $1`, id)
	return err
}

// dropHolds deletes every stock hold of an expired job. The holds block stock for everybody,
// so the delete always runs to the end.
func dropHolds(_ context.Context, db *sql.DB, id string) error {
	_, err := db.ExecContext(context.Background(), `DELETE FROM holds WHERE job_id = $1`, id)
	return err
}

// holder holds or releases stock for one job.
type holder struct {
	stock *ledger.Stock
	job   string
	qty   int64
}

func (h *holder) hold(ctx context.Context, sku string) error {
	return h.stock.Hold(ctx, sku, h.qty, h.job)
}

// release gives the hold back. A lost release blocks the stock until the nightly sweep, so it
// is not tied to the caller.
func (h *holder) release(_ context.Context, sku string) error {
	return h.stock.Unhold(context.Background(), sku, h.job)
}

func eachSKU(ctx context.Context, h *holder, skus []string, op func(*holder, context.Context, string) error) error {
	for _, sku := range skus {
		if err := op(h, ctx, sku); err != nil {
			return fmt.Errorf("sku %s: %w", sku, err)
		}
	}
	return nil
}

// HoldStock holds the requested quantity of every SKU for the job.
func (s *Server) HoldStock(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	h := &holder{stock: s.stock, job: req.GetJobId(), qty: req.GetQuantity()}
	if err := eachSKU(ctx, h, req.GetSkus(), (*holder).hold); err != nil { // OK: hold works with the ctx eachSKU passes
		return nil, err
	}
	if err := s.recordHolds(ctx, h, req.GetSkus()); err != nil { // OK: the fresh ctx only undoes the holds after a failure
		return nil, err
	}
	return &jobspb.StockReply{}, nil
}

// recordHolds writes the job's hold summary. When that fails the holds are given back,
// whether or not the request is still live, and the error is returned.
func (s *Server) recordHolds(ctx context.Context, h *holder, skus []string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO hold_summary (job_id, skus, qty) VALUES ($1, $2, $3)`,
		h.job, len(skus), h.qty)
	if err != nil {
		for _, sku := range skus {
			if uerr := h.stock.Unhold(context.Background(), sku, h.job); uerr != nil {
				log.Printf("dispatch: give back hold of %s on %s: %v", h.job, sku, uerr)
			}
		}
		return fmt.Errorf("record holds: %w", err)
	}
	return nil
}

// ReleaseStock releases the job's holds and records the release in the outbox.
func (s *Server) ReleaseStock(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	h := &holder{stock: s.stock, job: req.GetJobId()}
	if err := eachSKU(ctx, h, req.GetSkus(), (*holder).release); err != nil { // BUG: ctxbackground
		return nil, err
	}
	s.outbox(ctx, req.GetJobId(), s.writeReleased)
	return &jobspb.StockReply{}, nil
}

func (s *Server) writeReleased(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO outbox (topic, key) VALUES ('holds.released', $1)`, id)
	return err
}

// outbox runs fn after the handler returns: the outbox row must be written even when the
// client has gone away, but never for longer than outboxBudget.
func (s *Server) outbox(ctx context.Context, id string, fn func(context.Context, string) error) {
	octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), outboxBudget) // OK: bounded, and the doc comment gives the reason
	go func() {
		defer cancel()
		if err := fn(octx, id); err != nil {
			log.Printf("dispatch: outbox %s: %v", id, err)
		}
	}()
}

// journalWriter buffers history lines of one job and writes them in one transaction.
type journalWriter struct {
	db    *sql.DB
	job   string
	lines []string
}

func (w *journalWriter) add(line string) { w.lines = append(w.lines, line) }

func (w *journalWriter) flush(ctx context.Context) (int, error) {
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	for _, l := range w.lines {
		if _, err := tx.ExecContext(ctx, `INSERT INTO journal (job_id, line) VALUES ($1, $2)`, w.job, l); err != nil {
			return 0, err
		}
	}
	return len(w.lines), tx.Commit()
}

// spoolWriter copies a job's history to the archive table.
type spoolWriter struct {
	db    *sql.DB
	job   string
	lines []string
}

// flush copies the spooled lines to the archive. The archive is append-only, so a copy that
// started runs to its end.
func (w *spoolWriter) flush(_ context.Context) (int, error) {
	ctx := context.Background()
	n := 0
	for _, l := range w.lines {
		if _, err := w.db.ExecContext(ctx, `INSERT INTO journal_archive (job_id, line) VALUES ($1, $2)`, w.job, l); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func (s *Server) drain(ctx context.Context, flush func(context.Context) (int, error)) (int32, error) {
	n, err := flush(ctx)
	if err != nil {
		return 0, fmt.Errorf("flush journal: %w", err)
	}
	return int32(n), nil
}

// FlushJournal writes the job's buffered history to the journal, and with full set also to
// the archive.
func (s *Server) FlushJournal(ctx context.Context, req *jobspb.JobRequest) (*jobspb.BatchReply, error) {
	job, err := s.jobs.Load(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	w := &journalWriter{db: s.db, job: job.ID}
	for _, h := range job.History {
		w.add(h)
	}
	done, err := s.drain(ctx, w.flush) // OK: the journal writer flushes with the ctx drain hands it
	if err != nil {
		return nil, err
	}
	if !req.GetFull() {
		return &jobspb.BatchReply{Done: done}, nil
	}
	sp := &spoolWriter{db: s.db, job: job.ID, lines: job.History}
	archived, err := s.drain(ctx, sp.flush) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	return &jobspb.BatchReply{Done: done + archived}, nil
}

// LookupItems returns what the inventory service has on hand for each SKU.
func (s *Server) LookupItems(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	reply := &jobspb.StockReply{Available: make(map[string]int64)}
	err := fanout.Each(ctx, req.GetSkus(), func(_ context.Context, sku string) error {
		item, err := s.inv.GetItem(context.Background(), &invpb.GetItemRequest{Sku: sku}) // BUG: ctxbackground
		if err != nil {
			return err
		}
		reply.Available[sku] = item.GetOnHand() - item.GetReserved()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return reply, nil
}

// PriceItems returns the price of each SKU, with local overrides applied.
func (s *Server) PriceItems(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	reply := &jobspb.StockReply{Prices: make(map[string]int64)}
	err := fanout.Each(ctx, req.GetSkus(), func(ctx context.Context, sku string) error {
		item, err := s.inv.GetItem(ctx, &invpb.GetItemRequest{Sku: sku}) // OK: the literal calls with the ctx fanout.Each gives it
		if err != nil {
			return err
		}
		price := item.GetPriceCents()
		var override sql.NullInt64
		err = s.db.QueryRow(`SELECT cents FROM price_overrides WHERE sku = $1`, sku).Scan(&override) // BUG: ctxless
		if err != nil && err != sql.ErrNoRows {
			return err
		}
		if override.Valid {
			price = override.Int64
		}
		reply.Prices[sku] = price
		return nil
	})
	if err != nil {
		return nil, err
	}
	return reply, nil
}
