// Package upstream holds the clients of the services the relay depends on: the platform
// team's quota service, the metrics API, partner webhooks and replication peers.
package upstream

import (
	"context"
	"errors"
	"log"
	"time"

	quotav1 "example.test/streams2/gen/quota/v1"
)

// ErrNoBudget is returned when the caller's deadline leaves no time for the call.
var ErrNoBudget = errors.New("upstream: not enough time left for the call")

// quotaTimeout is how long a reservation may take when the caller has no deadline, in ms.
const quotaTimeout = 800

const (
	minQuotaBudget = 50 * time.Millisecond
	releaseMargin  = 20 * time.Millisecond
)

// Quota wraps the QuotaService client.
type Quota struct {
	client  quotav1.QuotaServiceClient
	timeout time.Duration
}

// NewQuota returns a Quota client spending at most timeout on a call with no deadline of its own.
func NewQuota(client quotav1.QuotaServiceClient, timeout time.Duration) *Quota {
	return &Quota{client: client, timeout: timeout}
}

// Limits returns a tenant's quota, spending at most three quarters of the caller's remaining time.
func (q *Quota) Limits(ctx context.Context, tenant string) (*quotav1.Quota, error) {
	budget := q.timeout
	if dl, ok := ctx.Deadline(); ok {
		budget = time.Until(dl) * 3 / 4 // OK: ok checked
	}
	ctx, cancel := context.WithTimeout(ctx, budget) // OK: a variable
	defer cancel()
	return q.client.GetQuota(ctx, &quotav1.GetQuotaRequest{Tenant: tenant})
}

// Reserve reserves room for new topics. It leaves half of the caller's time to the caller, who
// still has to write the topic once the reservation is made.
func (q *Quota) Reserve(ctx context.Context, tenant string, topics int32, bytes int64) (string, error) {
	dl, _ := ctx.Deadline()
	budget := time.Until(dl) / 2 // BUG: deadlinemath
	if budget < minQuotaBudget {
		budget = minQuotaBudget
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	res, err := q.client.Reserve(ctx, &quotav1.ReserveRequest{Tenant: tenant, Topics: topics, Bytes: bytes})
	if err != nil {
		return "", err
	}
	return res.GetReservationId(), nil
}

// ReserveQuick is Reserve for the admin tools, which have no deadline and must not wait long.
func (q *Quota) ReserveQuick(ctx context.Context, tenant string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, quotaTimeout) // BUG: deadlinemath
	defer cancel()
	res, err := q.client.Reserve(ctx, &quotav1.ReserveRequest{Tenant: tenant, Topics: 1})
	if err != nil {
		return "", err
	}
	return res.GetReservationId(), nil
}

// Release gives a reservation back.
func (q *Quota) Release(ctx context.Context, id string) error {
	dl, ok := ctx.Deadline()
	budget := time.Until(dl) - releaseMargin // OK: replaced below when there is no deadline
	if !ok {
		budget = q.timeout
	}
	if budget <= 0 {
		return ErrNoBudget
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	_, err := q.client.Release(ctx, &quotav1.ReleaseRequest{ReservationId: id})
	return err
}

// ReleaseAfter releases a reservation once the request has finished with it. The release must
// not be cancelled with the request, but it must not outlive the request's deadline either: the
// quota service expires unreleased reservations at that time anyway.
func (q *Quota) ReleaseAfter(ctx context.Context, id string, done <-chan struct{}) {
	dl, _ := ctx.Deadline()
	bg, cancel := context.WithDeadline(context.Background(), dl) // BUG: deadlinemath
	go func() {
		defer cancel()
		<-done
		if _, err := q.client.Release(bg, &quotav1.ReleaseRequest{ReservationId: id}); err != nil {
			log.Printf("quota: release %s: %v", id, err)
		}
	}()
}

// HasBudget reports whether ctx leaves at least min for a call. A ctx without a deadline has all
// the time in the world.
func HasBudget(ctx context.Context, min time.Duration) bool {
	dl, _ := ctx.Deadline()
	if dl.IsZero() {
		return true
	}
	return time.Until(dl) >= min // OK: zero time checked above
}
