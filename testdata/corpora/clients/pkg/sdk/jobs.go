package sdk

import (
	"context"
	"fmt"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	jobsv1 "example.test/clients/gen/jobs/v1"
)

// LeaseJobs long-polls the queue for up to max jobs. The poll is bounded by
// wait plus a small margin.
func (c *Client) LeaseJobs(ctx context.Context, queue string, max int32, wait time.Duration) ([]*jobsv1.Job, error) {
	ctx, cancel := context.WithTimeout(ctx, wait+5*time.Second)
	defer cancel()
	resp, err := c.jobs.Lease(ctx, &jobsv1.LeaseRequest{Queue: queue, MaxJobs: max, Wait: durationpb.New(wait)}) // OK
	if err != nil {
		return nil, fmt.Errorf("lease from %s: %w", queue, err)
	}
	return resp.GetJobs(), nil
}

// Ack marks a leased job done.
func (c *Client) Ack(ctx context.Context, leaseID string) error {
	if _, err := c.jobs.Ack(ctx, &jobsv1.AckRequest{LeaseId: leaseID}); err != nil {
		return fmt.Errorf("ack %s: %w", leaseID, err)
	}
	return nil
}

// Nack returns a leased job to the queue after retryAfter.
func (c *Client) Nack(ctx context.Context, leaseID string, retryAfter time.Duration, cause error) error {
	req := &jobsv1.NackRequest{LeaseId: leaseID, RetryAfter: durationpb.New(retryAfter)}
	if cause != nil {
		req.Error = cause.Error()
	}
	if _, err := c.jobs.Nack(ctx, req); err != nil {
		return fmt.Errorf("nack %s: %w", leaseID, err)
	}
	return nil
}

// ExtendLease pushes the expiry of a lease ttl into the future.
func (c *Client) ExtendLease(ctx context.Context, leaseID string, ttl time.Duration) error {
	if _, err := c.jobs.Extend(ctx, &jobsv1.ExtendRequest{LeaseId: leaseID, Ttl: durationpb.New(ttl)}); err != nil {
		return fmt.Errorf("extend %s: %w", leaseID, err)
	}
	return nil
}

// Release gives a lease back without counting an attempt.
func (c *Client) Release(ctx context.Context, leaseID string) error {
	if _, err := c.jobs.Release(ctx, &jobsv1.ReleaseRequest{LeaseId: leaseID}); err != nil {
		return fmt.Errorf("release lease %s: %w", leaseID, err)
	}
	return nil
}

// EnqueueJob adds a job to the default queue of its kind.
func (c *Client) EnqueueJob(ctx context.Context, kind string, payload []byte) (string, error) {
	resp, err := c.jobs.Enqueue(ctx, &jobsv1.EnqueueRequest{Queue: queueFor(kind), Kind: kind, Payload: payload})
	if err != nil {
		return "", fmt.Errorf("enqueue %s: %w", kind, err)
	}
	return resp.GetJobId(), nil
}

func queueFor(kind string) string {
	switch kind {
	case "dunning", "reminder":
		return "billing-followups"
	case "fulfil", "refund", "notify":
		return "fulfillment"
	default:
		return "default"
	}
}
