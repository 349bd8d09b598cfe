// Package store is the Postgres repository of the orders service.
package store

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"example.test/realworld/internal/store/pgtx"
)

var tracer = otel.Tracer("example.test/realworld/internal/store")

var (
	// ErrNotFound is returned when no order matches.
	ErrNotFound = errors.New("store: order not found")
	// ErrConflict is returned when an order is not in the expected state.
	ErrConflict = errors.New("store: order state conflict")
)

// Status is the lifecycle state of an order.
type Status string

const (
	StatusPending     Status = "pending"
	StatusPaid        Status = "paid"
	StatusShipped     Status = "shipped"
	StatusCancelled   Status = "cancelled"
	StatusRefunded    Status = "refunded"
	StatusBackordered Status = "backordered"
)

// Order is one customer order.
type Order struct {
	ID             string
	CustomerID     string
	Status         Status
	Lines          []Line
	TotalCents     int64
	Currency       string
	PaymentID      string
	ReservationID  string
	Carrier        string
	TrackingNumber string
	CreatedAt      time.Time
	UpdatedAt      time.Time
	Version        int
}

// Line is one order line.
type Line struct {
	SKU            string
	Quantity       int32
	UnitPriceCents int64
}

// Reservation is stock held for an unpaid order.
type Reservation struct {
	OrderID       string
	ReservationID string
	CreatedAt     time.Time
}

// AuditEntry is one row of the order audit log.
type AuditEntry struct {
	OrderID string
	Actor   string
	Action  string
	Detail  string
	TraceID string
}

// Repo is the pgx implementation of the order repository.
type Repo struct {
	pool *pgxpool.Pool
	log  *zap.Logger
}

// NewRepo returns a repository on pool.
func NewRepo(pool *pgxpool.Pool, log *zap.Logger) *Repo {
	return &Repo{pool: pool, log: log.Named("store")}
}

// start opens a span for a repository operation.
func (r *Repo) start(ctx context.Context, op string, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	if ctx == context.Background() || ctx == context.TODO() { // OK
		r.log.Debug("repository call without a request context", zap.String("op", op))
	}
	return tracer.Start(ctx, op, trace.WithAttributes(attrs...), trace.WithSpanKind(trace.SpanKindClient))
}

const orderColumns = `id, customer_id, status, total_cents, currency, coalesce(payment_id, ''),
	coalesce(reservation_id, ''), coalesce(carrier, ''), coalesce(tracking_number, ''), created_at, updated_at, version`

func scanOrder(row pgx.Row) (*Order, error) {
	var o Order
	err := row.Scan(&o.ID, &o.CustomerID, &o.Status, &o.TotalCents, &o.Currency, &o.PaymentID,
		&o.ReservationID, &o.Carrier, &o.TrackingNumber, &o.CreatedAt, &o.UpdatedAt, &o.Version)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return &o, nil
}

type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

func loadLines(ctx context.Context, q querier, orderID string) ([]Line, error) {
	rows, err := q.Query(ctx, `SELECT sku, quantity, unit_price_cents FROM order_lines WHERE order_id = $1 ORDER BY position`, orderID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Line, error) {
		var l Line
		err := row.Scan(&l.SKU, &l.Quantity, &l.UnitPriceCents)
		return l, err
	})
}

// CreateOrder inserts o, its lines and evt into the outbox in one transaction.
func (r *Repo) CreateOrder(ctx context.Context, o *Order, evt OutboxEvent) error {
	ctx, span := r.start(ctx, "store.CreateOrder", attribute.String("order.id", o.ID))
	defer span.End()
	return pgtx.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `
			INSERT INTO orders (id, customer_id, status, total_cents, currency, reservation_id, payment_id)
			VALUES ($1, $2, $3, $4, $5, nullif($6, ''), nullif($7, ''))
			RETURNING created_at, updated_at, version`,
			o.ID, o.CustomerID, o.Status, o.TotalCents, o.Currency, o.ReservationID, o.PaymentID,
		).Scan(&o.CreatedAt, &o.UpdatedAt, &o.Version)
		if pgtx.IsUniqueViolation(err) {
			return ErrConflict
		}
		if err != nil {
			return fmt.Errorf("insert order: %w", err)
		}
		batch := &pgx.Batch{}
		for i, l := range o.Lines {
			batch.Queue(`INSERT INTO order_lines (order_id, position, sku, quantity, unit_price_cents) VALUES ($1, $2, $3, $4, $5)`,
				o.ID, i, l.SKU, l.Quantity, l.UnitPriceCents)
		}
		if err := tx.SendBatch(ctx, batch).Close(); err != nil {
			return fmt.Errorf("insert lines: %w", err)
		}
		return insertOutbox(ctx, tx, evt)
	})
}

// GetOrder loads one order with its lines.
func (r *Repo) GetOrder(ctx context.Context, id string) (*Order, error) {
	ctx, span := r.start(ctx, "store.GetOrder", attribute.String("order.id", id))
	defer span.End()
	o, err := scanOrder(r.pool.QueryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE id = $1`, id))
	if err != nil {
		return nil, err
	}
	if o.Lines, err = loadLines(ctx, r.pool, id); err != nil {
		return nil, fmt.Errorf("load lines: %w", err)
	}
	return o, nil
}

// GetOrderByPayment loads the order a payment belongs to (without lines).
func (r *Repo) GetOrderByPayment(ctx context.Context, paymentID string) (*Order, error) {
	ctx, span := r.start(ctx, "store.GetOrderByPayment")
	defer span.End()
	return scanOrder(r.pool.QueryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE payment_id = $1`, paymentID))
}

// ListOrders returns up to limit orders of a customer, newest first, after the
// cursor; the returned cursor is empty on the last page.
func (r *Repo) ListOrders(ctx context.Context, customerID string, limit int, after string) ([]Order, string, error) {
	ctx, span := r.start(ctx, "store.ListOrders", attribute.String("customer.id", customerID))
	defer span.End()
	rows, err := r.pool.Query(ctx, `
		SELECT `+orderColumns+` FROM orders
		WHERE customer_id = $1 AND ($2 = '' OR id < $2)
		ORDER BY id DESC LIMIT $3`, customerID, after, limit+1)
	if err != nil {
		return nil, "", err
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Order, error) {
		o, err := scanOrder(row)
		if err != nil {
			return Order{}, err
		}
		return *o, nil
	})
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(out) > limit {
		out = out[:limit]
		next = out[limit-1].ID
	}
	return out, next, nil
}

// UpdateStatus moves an order from one of the from states to to and writes
// evt into the outbox in the same transaction.
func (r *Repo) UpdateStatus(ctx context.Context, id string, from []Status, to Status, evt OutboxEvent) (*Order, error) {
	ctx, span := r.start(ctx, "store.UpdateStatus", attribute.String("order.id", id), attribute.String("order.status", string(to)))
	defer span.End()
	var out *Order
	err := pgtx.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		o, err := scanOrder(tx.QueryRow(ctx, `
			UPDATE orders SET status = $2, updated_at = now(), version = version + 1
			WHERE id = $1 AND status = ANY($3)
			RETURNING `+orderColumns, id, to, from))
		if errors.Is(err, ErrNotFound) {
			return ErrConflict
		}
		if err != nil {
			return err
		}
		out = o
		return insertOutbox(ctx, tx, evt)
	})
	return out, err
}

// SetPayment stores the payment of an order.
func (r *Repo) SetPayment(ctx context.Context, orderID, paymentID string) error {
	ctx, span := tracer.Start(context.Background(), "store.SetPayment", trace.WithAttributes(attribute.String("order.id", orderID)))
	defer span.End()
	tag, err := r.pool.Exec(ctx, `UPDATE orders SET payment_id = $2, updated_at = now() WHERE id = $1`, orderID, paymentID)
	if err != nil {
		return fmt.Errorf("store: set payment: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}

// RecordShipment stores the carrier booking of an order and marks it shipped.
func (r *Repo) RecordShipment(ctx context.Context, orderID, carrier, tracking string) error {
	ctx, span := r.start(ctx, "store.RecordShipment", attribute.String("order.id", orderID))
	defer span.End()
	evt := OutboxEvent{Topic: "orders.shipped", Key: orderID, Payload: []byte(`{"order_id":"` + orderID + `"}`)}
	return pgtx.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `
			UPDATE orders SET status = $2, carrier = $3, tracking_number = $4, updated_at = now(), version = version + 1
			WHERE id = $1 AND status = $5`, orderID, StatusShipped, carrier, tracking, StatusPaid)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return ErrConflict
		}
		return insertOutbox(ctx, tx, evt)
	})
}

// MarkRefunded records a refund. The order row is locked with an advisory
// lock so that concurrent partial refunds are applied one after the other.
func (r *Repo) MarkRefunded(ctx context.Context, orderID, refundID string, amountCents int64, evt OutboxEvent) (*Order, error) {
	ctx, span := r.start(ctx, "store.MarkRefunded", attribute.String("order.id", orderID))
	defer span.End()
	tx, err := r.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback(ctx) }()

	if err := pgtx.AdvisoryLock(ctx, tx, lockKey(orderID)); err != nil {
		return nil, err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO refunds (order_id, refund_id, amount_cents) VALUES ($1, $2, $3)`,
		orderID, refundID, amountCents); err != nil {
		return nil, fmt.Errorf("insert refund: %w", err)
	}
	o, err := scanOrder(tx.QueryRow(ctx, `
		UPDATE orders SET status = $2, updated_at = now(), version = version + 1
		WHERE id = $1 RETURNING `+orderColumns, orderID, StatusRefunded))
	if err != nil {
		return nil, err
	}
	if err := insertOutbox(ctx, tx, evt); err != nil {
		return nil, err
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, fmt.Errorf("commit refund: %w", err)
	}
	return o, nil
}

// OrdersWithSKU returns the ids of orders in one of statuses that contain sku.
func (r *Repo) OrdersWithSKU(ctx context.Context, sku string, statuses ...Status) ([]string, error) {
	ctx, span := r.start(ctx, "store.OrdersWithSKU", attribute.String("sku", sku))
	defer span.End()
	rows, err := r.pool.Query(ctx, `
		SELECT DISTINCT o.id FROM orders o JOIN order_lines l ON l.order_id = o.id
		WHERE l.sku = $1 AND o.status = ANY($2)`, sku, statuses)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// ExpiredReservations returns reservations of unpaid orders created before
// cutoff.
func (r *Repo) ExpiredReservations(ctx context.Context, cutoff time.Time, limit int) ([]Reservation, error) {
	ctx, span := r.start(ctx, "store.ExpiredReservations")
	defer span.End()
	rows, err := r.pool.Query(ctx, `
		SELECT id, reservation_id, created_at FROM orders
		WHERE status = 'pending' AND reservation_id IS NOT NULL AND created_at < $1
		ORDER BY created_at LIMIT $2`, cutoff, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Reservation, error) {
		var res Reservation
		err := row.Scan(&res.OrderID, &res.ReservationID, &res.CreatedAt)
		return res, err
	})
}

// ClearReservation forgets the reservation of an order after it was released.
func (r *Repo) ClearReservation(ctx context.Context, orderID string) error {
	ctx, span := r.start(ctx, "store.ClearReservation")
	defer span.End()
	_, err := r.pool.Exec(ctx, `UPDATE orders SET reservation_id = NULL WHERE id = $1`, orderID)
	return err
}

// AppendAudit writes one audit row.
func (r *Repo) AppendAudit(ctx context.Context, e AuditEntry) error {
	ctx, span := r.start(ctx, "store.AppendAudit")
	defer span.End()
	_, err := r.pool.Exec(ctx, `INSERT INTO order_audit (order_id, actor, action, detail, trace_id) VALUES ($1, $2, $3, $4, $5)`,
		e.OrderID, e.Actor, e.Action, e.Detail, e.TraceID)
	return err
}

// Ping checks the database connection.
func (r *Repo) Ping(ctx context.Context) error {
	return r.pool.Ping(ctx)
}

// IsRetryable reports whether a write failed for a reason worth retrying.
func IsRetryable(err error) bool {
	return pgtx.IsSerializationFailure(err) || pgconn.SafeToRetry(err)
}

func lockKey(orderID string) int64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte("order:" + orderID))
	return int64(h.Sum64() & 0x7fffffffffffffff)
}
