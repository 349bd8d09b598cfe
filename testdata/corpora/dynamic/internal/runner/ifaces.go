package runner

// Family 6 — interface calls whose implementations are in sight: adapters of the generated
// inventory client behind small interfaces of this package, with one and with two
// implementations.

import (
	"context"
	"database/sql"
	"sync"

	invpb "example.test/dynamic/gen/inventory/v1"
	jobspb "example.test/dynamic/gen/jobs/v1"
	"example.test/dynamic/internal/store"
)

// stockSource tells what inventory has available. One implementation: invStock.
type stockSource interface {
	Available(ctx context.Context, sku string) (int64, error)
}

type invStock struct{ c invpb.InventoryServiceClient }

func (a invStock) Available(_ context.Context, sku string) (int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), inventoryBudget)
	defer cancel()
	it, err := a.c.GetItem(ctx, &invpb.GetItemRequest{Sku: sku})
	if err != nil {
		return 0, err
	}
	return it.GetOnHand() - it.GetReserved(), nil
}

// counter counts local holds. One implementation: storeCounter.
type counter interface {
	CountHeld(ctx context.Context, sku string) (int64, error)
}

type storeCounter struct{ stock *store.Stock }

func (c storeCounter) CountHeld(ctx context.Context, sku string) (int64, error) {
	return c.stock.Count(ctx, sku)
}

// reserver reserves stock. Two implementations: invReserver passes its ctx on to inventory,
// localReserver (no inventory configured) holds locally on a root of its own.
type reserver interface {
	Reserve(ctx context.Context, sku string, qty int64, jobID string) (string, error)
}

type invReserver struct{ c invpb.InventoryServiceClient }

func (r invReserver) Reserve(ctx context.Context, sku string, qty int64, jobID string) (string, error) {
	res, err := r.c.Reserve(ctx, &invpb.ReserveRequest{Sku: sku, Quantity: qty, JobId: jobID})
	if err != nil {
		return "", err
	}
	return res.GetId(), nil
}

type localReserver struct{ stock *store.Stock }

func (r *localReserver) Reserve(_ context.Context, sku string, qty int64, jobID string) (string, error) {
	if err := r.stock.Hold(context.Background(), sku, qty, jobID); err != nil {
		return "", err
	}
	return "local:" + jobID + ":" + sku, nil
}

// releaser gives reservations back. Two implementations: invReleaser calls inventory on a
// fresh budget, memReleaser (no inventory configured) ignores its ctx.
type releaser interface {
	ReleaseReservation(ctx context.Context, id string) error
}

type invReleaser struct{ c invpb.InventoryServiceClient }

func (r invReleaser) ReleaseReservation(_ context.Context, id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), inventoryBudget)
	defer cancel()
	_, err := r.c.Release(ctx, &invpb.ReleaseRequest{ReservationId: id})
	return err
}

type memReleaser struct {
	mu       sync.Mutex
	released map[string]bool
}

func (m *memReleaser) ReleaseReservation(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.released[id] = true
	return nil
}

// journal writes a job's journal. Two implementations, both on roots of their own.
type journal interface {
	WriteLine(ctx context.Context, jobID, line string) error
}

type pgJournal struct{ db *sql.DB }

func (j pgJournal) WriteLine(_ context.Context, jobID, line string) error {
	_, err := j.db.ExecContext(context.Background(), `INSERT INTO journal (job_id, line, at) VALUES ($1, $2, now())`, jobID, line)
	return err
}

type replicaJournal struct{ primary, replica *sql.DB }

func (j replicaJournal) WriteLine(_ context.Context, jobID, line string) error {
	ctx, cancel := context.WithTimeout(context.Background(), journalBudget)
	defer cancel()
	for _, db := range []*sql.DB{j.primary, j.replica} {
		if _, err := db.ExecContext(ctx, `INSERT INTO journal (job_id, line, at) VALUES ($1, $2, now())`, jobID, line); err != nil {
			return err
		}
	}
	return nil
}

// pricer prices SKUs. One implementation, which calls inventory on a root with no deadline.
type pricer interface {
	Price(ctx context.Context, sku string) (int64, error)
}

type invPricer struct{ c invpb.InventoryServiceClient }

func (p invPricer) Price(_ context.Context, sku string) (int64, error) {
	it, err := p.c.GetItem(context.Background(), &invpb.GetItemRequest{Sku: sku}) // BUG: missingdeadline
	if err != nil {
		return 0, err
	}
	return it.GetPriceCents(), nil
}

// quota checks a tenant's quota. One implementation, which bounds the ctx it is given.
type quota interface {
	Check(ctx context.Context, tenant string, qty int64) error
}

type sqlQuota struct{ db *sql.DB }

func (q sqlQuota) Check(ctx context.Context, tenant string, qty int64) error {
	ctx, cancel := context.WithTimeout(ctx, quotaBudget)
	defer cancel()
	var ok bool
	if err := q.db.QueryRowContext(ctx, `SELECT quota_allows($1, $2)`, tenant, qty).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return errQuota
	}
	return nil
}

type quotaError struct{}

func (quotaError) Error() string { return "quota exceeded" }

var errQuota error = quotaError{}

// CheckStock returns inventory's availability of every SKU less the local holds.
func (s *Server) CheckStock(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	out := &jobspb.StockReply{Available: map[string]int64{}}
	for _, sku := range req.GetSkus() {
		n, err := s.avail.Available(ctx, sku) // BUG: ctxbackground
		if err != nil {
			return nil, err
		}
		held, err := s.counter.CountHeld(ctx, sku) // OK: one implementation, passes its ctx on
		if err != nil {
			return nil, err
		}
		out.Available[sku] = n - held
	}
	return out, nil
}

// ReserveStock reserves every SKU for the job, within the tenant's quota.
func (s *Server) ReserveStock(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	if err := s.quota.Check(ctx, tenantOf(ctx), req.GetQuantity()*int64(len(req.GetSkus()))); err != nil { // OK: the implementation bounds the request ctx
		return nil, err
	}
	out := &jobspb.StockReply{}
	for _, sku := range req.GetSkus() {
		id, err := s.reserver.Reserve(ctx, sku, req.GetQuantity(), req.GetJobId()) // OK: invReserver passes its ctx on
		if err != nil {
			return nil, err
		}
		out.ReservationIds = append(out.ReservationIds, id)
	}
	return out, nil
}

// ReleaseReservations gives the listed reservations back and journals it.
func (s *Server) ReleaseReservations(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	for _, id := range req.GetReservationIds() {
		if err := s.releaser.ReleaseReservation(ctx, id); err != nil { // BUG: ctxbackground
			return nil, err
		}
	}
	if err := s.journal.WriteLine(ctx, req.GetJobId(), "reservations released"); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &jobspb.StockReply{ReservationIds: req.GetReservationIds()}, nil
}

// QuoteItems prices every SKU.
func (s *Server) QuoteItems(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	out := &jobspb.StockReply{Prices: map[string]int64{}}
	for _, sku := range req.GetSkus() {
		p, err := s.pricer.Price(ctx, sku) // OK: the root in invPricer is missingdeadline's, at its RPC (one root, one rule)
		if err != nil {
			return nil, err
		}
		out.Prices[sku] = p
	}
	return out, nil
}
