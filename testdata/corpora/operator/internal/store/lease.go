package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// ErrLeaseHeld is returned when another holder owns an unexpired lease.
var ErrLeaseHeld = errors.New("store: lease held by another candidate")

// Lease is a leader-election record.
type Lease struct {
	Name      string
	Holder    string
	ExpiresAt time.Time
	Epoch     int64
}

// AcquireLease takes the lease if it is free, expired, or already ours.
func (s *Store) AcquireLease(ctx context.Context, name, holder string, ttl time.Duration) (*Lease, error) {
	var l Lease
	err := s.db.QueryRowContext(ctx, `
		INSERT INTO leases (name, holder, expires_at, epoch) VALUES ($1, $2, now() + $3::interval, 1)
		ON CONFLICT (name) DO UPDATE SET holder = $2, expires_at = now() + $3::interval,
			epoch = CASE WHEN leases.holder = $2 THEN leases.epoch ELSE leases.epoch + 1 END
		WHERE leases.holder = $2 OR leases.expires_at < now()
		RETURNING name, holder, expires_at, epoch`, name, holder, ttl.String()).
		Scan(&l.Name, &l.Holder, &l.ExpiresAt, &l.Epoch)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrLeaseHeld
	}
	return &l, err
}

// RenewLease extends a lease we hold.
func (s *Store) RenewLease(ctx context.Context, name, holder string, epoch int64, ttl time.Duration) error {
	res, err := s.db.ExecContext(ctx, `
		UPDATE leases SET expires_at = now() + $4::interval
		WHERE name = $1 AND holder = $2 AND epoch = $3`, name, holder, epoch, ttl.String())
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrLeaseHeld
	}
	return nil
}

// ReleaseLease gives up a lease we hold.
func (s *Store) ReleaseLease(ctx context.Context, name, holder string) error {
	_, err := s.db.ExecContext(ctx,
		`UPDATE leases SET expires_at = now() WHERE name = $1 AND holder = $2`, name, holder)
	return err
}
