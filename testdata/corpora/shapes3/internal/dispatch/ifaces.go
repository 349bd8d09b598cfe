package dispatch

// Stock checks, reservations, quotes and job bookkeeping go through small interfaces, each
// with the implementations NewServer picks from.

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"sync"
	"time"

	invpb "example.test/shapes3/gen/inventory/v1"
	jobspb "example.test/shapes3/gen/jobs/v1"
	"example.test/shapes3/internal/ledger"
)

// stockSource tells how much of a SKU is on hand.
type stockSource interface {
	OnHand(ctx context.Context, sku string) (int64, error)
}

// invStock asks the inventory service.
type invStock struct{ c invpb.InventoryServiceClient }

func (a invStock) OnHand(ctx context.Context, sku string) (int64, error) {
	item, err := a.c.GetItem(ctx, &invpb.GetItemRequest{Sku: sku})
	if err != nil {
		return 0, err
	}
	return item.GetOnHand() - item.GetReserved(), nil
}

// CheckStock returns what is available of each SKU.
func (s *Server) CheckStock(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	reply := &jobspb.StockReply{Available: make(map[string]int64)}
	for _, sku := range req.GetSkus() {
		n, err := s.avail.OnHand(ctx, sku) // OK: the only implementation passes ctx to the inventory service
		if err != nil {
			return nil, err
		}
		reply.Available[sku] = n
	}
	return reply, nil
}

// reserver reserves stock for a job.
type reserver interface {
	Reserve(ctx context.Context, sku string, qty int64, job string) (string, error)
}

// invReserver reserves at the inventory service.
type invReserver struct{ c invpb.InventoryServiceClient }

func (r invReserver) Reserve(ctx context.Context, sku string, qty int64, job string) (string, error) {
	res, err := r.c.Reserve(ctx, &invpb.ReserveRequest{Sku: sku, Quantity: qty, JobId: job})
	if err != nil {
		return "", err
	}
	return res.GetId(), nil
}

// sqlReserver reserves in our own holds table, for regions without an inventory service.
type sqlReserver struct{ db *sql.DB }

func (r sqlReserver) Reserve(_ context.Context, sku string, qty int64, job string) (string, error) {
	var id string
	err := r.db.QueryRowContext(context.Background(),
		`INSERT INTO holds (sku, qty, job_id) VALUES ($1, $2, $3) RETURNING id`, sku, qty, job).Scan(&id)
	return id, err
}

// ReserveStock reserves the quantity of every SKU for the job.
func (s *Server) ReserveStock(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	reply := &jobspb.StockReply{}
	for _, sku := range req.GetSkus() {
		id, err := s.reserver.Reserve(ctx, sku, req.GetQuantity(), req.GetJobId()) // OK: one implementation passes its ctx on, so no drop
		if err != nil {
			return nil, err
		}
		reply.ReservationIds = append(reply.ReservationIds, id)
	}
	return reply, nil
}

// releaser gives reservations back.
type releaser interface {
	Release(ctx context.Context, id string) error
}

// sqlReleaser deletes holds from our own table.
type sqlReleaser struct{ db *sql.DB }

// Release deletes the hold. Holds block stock for everybody, so the delete is not tied to the
// caller.
func (r sqlReleaser) Release(_ context.Context, id string) error {
	_, err := r.db.ExecContext(context.Background(), `DELETE FROM holds WHERE id = $1`, id)
	return err
}

// nopReleaser is used with the inventory service, whose reservations expire on their own.
type nopReleaser struct{}

func (nopReleaser) Release(context.Context, string) error { return nil }

// ReleaseReservations gives the reservations back.
func (s *Server) ReleaseReservations(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	for _, id := range req.GetReservationIds() {
		if err := s.releaser.Release(ctx, id); err != nil { // BUG: ctxbackground
			return nil, err
		}
	}
	return &jobspb.StockReply{}, nil
}

// pricer prices SKUs.
type pricer interface {
	Price(ctx context.Context, sku string) (int64, error)
}

// invPricer asks the inventory service for the list price.
type invPricer struct{ c invpb.InventoryServiceClient }

func (p invPricer) Price(_ context.Context, sku string) (int64, error) {
	item, err := p.c.GetItem(context.Background(), &invpb.GetItemRequest{Sku: sku}) // BUG: missingdeadline
	if err != nil {
		return 0, err
	}
	return item.GetPriceCents(), nil
}

// QuoteItems prices the SKUs for the requested quantity.
func (s *Server) QuoteItems(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	reply := &jobspb.StockReply{Prices: make(map[string]int64)}
	for _, sku := range req.GetSkus() {
		p, err := s.pricer.Price(ctx, sku)
		if err != nil {
			return nil, err
		}
		reply.Prices[sku] = p * max(req.GetQuantity(), 1)
	}
	return reply, nil
}

// jobSource reads jobs: from the other region's dispatcher when there is one, else from the
// local tables.
type jobSource interface {
	Job(ctx context.Context, id string) (ledger.Job, error)
}

// peerJobs reads from the other region's dispatcher.
type peerJobs struct{ c jobspb.JobServiceClient }

func (p peerJobs) Job(ctx context.Context, id string) (ledger.Job, error) {
	j, err := p.c.GetJob(ctx, &jobspb.JobRequest{Id: id})
	if err != nil {
		return ledger.Job{}, err
	}
	return ledger.Job{ID: j.GetId(), Kind: j.GetKind(), State: j.GetState(), SKUs: j.GetSkus(), Shard: j.GetShard()}, nil
}

// sqlJobs reads the local copy.
type sqlJobs struct{ db *sql.DB }

func (q sqlJobs) Job(_ context.Context, id string) (ledger.Job, error) {
	return ledger.NewJobs(q.db).Load(context.Background(), id)
}

// CompareJob compares the local job with the reference copy and reports the differences.
func (s *Server) CompareJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	local, err := s.jobs.Load(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	ref, err := s.source.Job(ctx, req.GetId()) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	if ref.State != local.State {
		local.History = append(local.History, fmt.Sprintf("state differs: %s vs %s", local.State, ref.State))
	}
	if ref.Shard != local.Shard {
		local.History = append(local.History, fmt.Sprintf("shard differs: %s vs %s", local.Shard, ref.Shard))
	}
	return toProto(local), nil
}

// notifier tells a job's owner about an event.
type notifier interface {
	Notify(ctx context.Context, id, event string) error
}

// sqlNotifier writes the notification to the notifications table the mailer reads.
type sqlNotifier struct{ db *sql.DB }

func (n sqlNotifier) Notify(_ context.Context, id, event string) error {
	_, err := n.db.ExecContext(context.Background(),
		`INSERT INTO notifications (job_id, event, at) VALUES ($1, $2, now())`, id, event)
	return err
}

// logNotifier only logs, for staging.
type logNotifier struct{}

func (logNotifier) Notify(ctx context.Context, id, event string) error {
	log.Printf("dispatch: notify %s: %s (tenant %s)", id, event, tenantOf(ctx))
	return nil
}

// MoveJobs moves jobs to another lane and tells their owners.
func (s *Server) MoveJobs(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	var moved int64
	for _, id := range req.GetIds() {
		res, err := s.db.ExecContext(ctx, `UPDATE queue SET lane = $2 WHERE job_id = $1`, id, req.GetArg())
		if err != nil {
			return nil, err
		}
		n, _ := res.RowsAffected()
		moved += n
		if err := s.notifier.Notify(ctx, id, "moved to "+req.GetArg()); err != nil { // BUG: ctxbackground
			return nil, err
		}
	}
	return &jobspb.CommandReply{Count: moved}, nil
}

// TagJob adds a tag to a job's history.
func (s *Server) TagJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	if req.GetKind() == "" {
		return nil, fmt.Errorf("tag: empty tag")
	}
	if err := s.jobs.AppendNote(s.life.Context(), req.GetId(), "tag:"+req.GetKind()); err != nil { // BUG: ctxflow
		return nil, err
	}
	job, err := s.jobs.Load(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return toProto(job), nil
}

// saver writes a job.
type saver interface {
	Save(ctx context.Context, job ledger.Job) error
}

// ledgerSaver writes through to the ledger.
type ledgerSaver struct{ jobs *ledger.Jobs }

func (l ledgerSaver) Save(ctx context.Context, job ledger.Job) error { return l.jobs.Save(ctx, job) }

// boundedSaver caps every write at budget, for regions with a slow primary.
type boundedSaver struct {
	jobs   *ledger.Jobs
	budget time.Duration
}

func (b boundedSaver) Save(ctx context.Context, job ledger.Job) error {
	ctx, cancel := context.WithTimeout(ctx, b.budget)
	defer cancel()
	return b.jobs.Save(ctx, job)
}

// SaveJob stores a job as given.
func (s *Server) SaveJob(ctx context.Context, req *jobspb.Job) (*jobspb.Job, error) {
	job := ledger.Job{
		ID: req.GetId(), Kind: req.GetKind(), State: req.GetState(), SKUs: req.GetSkus(),
		Tenant: req.GetTenant(), Shard: req.GetShard(), Attempts: int(req.GetAttempts()),
	}
	if err := s.saver.Save(ctx, job); err != nil { // OK: both savers write with the request ctx (one bounds it further)
		return nil, err
	}
	return req, nil
}

// deduper remembers keys it has seen recently.
type deduper interface {
	Seen(ctx context.Context, key string) bool
}

// memDedup keeps the keys in memory for ten minutes.
type memDedup struct {
	mu   sync.Mutex
	seen map[string]time.Time
}

func (d *memDedup) Seen(_ context.Context, key string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if t, ok := d.seen[key]; ok && time.Since(t) < 10*time.Minute {
		return true
	}
	d.seen[key] = time.Now()
	return false
}

// EnqueueJob queues job Arg on lane Op unless the same request was queued in the last ten
// minutes.
func (s *Server) EnqueueJob(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	key := req.GetArg() + "/" + req.GetOp()
	if s.dedup.Seen(ctx, key) { // OK: the in-memory implementation ignores its ctx
		return &jobspb.CommandReply{Output: "duplicate"}, nil
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO queue (job_id, lane) VALUES ($1, $2)`, req.GetArg(), req.GetOp()); err != nil {
		return nil, err
	}
	return &jobspb.CommandReply{Output: "queued", Count: 1}, nil
}

// WaitIdle waits until no pipeline runs on this instance; with a worker number set, until the
// worker's lane is empty.
func (s *Server) WaitIdle(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	if req.GetWorker() > 0 {
		t := time.NewTicker(idlePoll)
		defer t.Stop()
		for {
			var n int64
			if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM queue WHERE worker = $1`, req.GetWorker()).Scan(&n); err != nil {
				return nil, err
			}
			if n == 0 {
				return &jobspb.CommandReply{Output: "idle"}, nil
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-t.C:
			}
		}
	}
	for s.inflight.Load() > 0 {
		time.Sleep(idlePoll) // BUG: ctxless
	}
	return &jobspb.CommandReply{Output: "idle"}, nil
}
