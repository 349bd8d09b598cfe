// Package api serves catalog.v1.CatalogService, the topic administration API used by the
// console and by tenants' provisioning scripts.
package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	catalogv1 "example.test/streams2/gen/catalog/v1"
	quotav1 "example.test/streams2/gen/quota/v1"
	"example.test/streams2/internal/auth"
	"example.test/streams2/internal/store"
	"example.test/streams2/internal/upstream"
)

const (
	maxPageSize    = 500
	dropTimeout    = 3 * time.Second
	minPurgeBudget = 2 * time.Second
	auditTimeout   = 5 * time.Second
)

// Catalog implements catalogv1.CatalogServiceServer.
type Catalog struct {
	catalogv1.UnimplementedCatalogServiceServer

	store       *store.Store
	journal     *store.Journal
	quota       *upstream.Quota
	quotaClient quotav1.QuotaServiceClient
	metrics     *upstream.Metrics
}

// NewCatalog returns the catalog service.
func NewCatalog(st *store.Store, journal *store.Journal, quota *upstream.Quota, quotaClient quotav1.QuotaServiceClient, metrics *upstream.Metrics) *Catalog {
	return &Catalog{store: st, journal: journal, quota: quota, quotaClient: quotaClient, metrics: metrics}
}

func topicProto(t *store.Topic) *catalogv1.Topic {
	return &catalogv1.Topic{Name: t.Name, Partitions: t.Partitions, RetentionHours: t.RetentionHours, Owner: t.Owner}
}

// GetTopic returns one topic.
func (c *Catalog) GetTopic(ctx context.Context, req *catalogv1.GetTopicRequest) (*catalogv1.Topic, error) {
	t, err := c.store.Topic(ctx, req.GetName())
	if errors.Is(err, store.ErrNotFound) {
		return nil, status.Errorf(codes.NotFound, "topic %q not found", req.GetName())
	}
	if err != nil {
		return nil, status.Errorf(codes.Internal, "get topic: %v", err) // BUG: statusmask
	}
	return topicProto(t), nil
}

// ListTopics lists an owner's topics, a page at a time.
func (c *Catalog) ListTopics(ctx context.Context, req *catalogv1.ListTopicsRequest) (*catalogv1.ListTopicsResponse, error) {
	size := req.GetPageSize()
	if size <= 0 || size > maxPageSize {
		size = maxPageSize
	}
	rows, err := c.store.DB().QueryContext(ctx,
		`SELECT name, partitions, retention_hours FROM topics WHERE owner = $1 AND name > $2 ORDER BY name LIMIT $3`,
		req.GetOwner(), req.GetPageToken(), size)
	if err != nil {
		return nil, status.Error(codes.Unavailable, err.Error()) // BUG: statusmask
	}
	defer rows.Close()
	out := &catalogv1.ListTopicsResponse{}
	for rows.Next() {
		t := &catalogv1.Topic{Owner: req.GetOwner()}
		if err := rows.Scan(&t.Name, &t.Partitions, &t.RetentionHours); err != nil {
			return nil, err
		}
		out.Topics = append(out.Topics, t)
	}
	if err := rows.Err(); err != nil {
		return nil, err // OK: returned unchanged
	}
	if int32(len(out.Topics)) == size {
		out.NextPageToken = out.Topics[len(out.Topics)-1].GetName()
	}
	return out, nil
}

// CreateTopic creates a topic after reserving room for it in the tenant's quota.
func (c *Catalog) CreateTopic(ctx context.Context, req *catalogv1.CreateTopicRequest) (*catalogv1.Topic, error) {
	tenant, err := auth.TenantFrom(ctx)
	if err != nil {
		return nil, status.Error(codes.Unauthenticated, err.Error()) // OK: TenantFrom only reads a ctx value
	}
	if err := validateTopic(req.GetName(), req.GetPartitions()); err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error()) // OK: validation, no ctx
	}
	reservation, err := c.quota.Reserve(ctx, tenant, 1, 0)
	if err != nil {
		return nil, status.Errorf(codes.ResourceExhausted, "reserve quota for %s: %v", tenant, err) // BUG: statusmask
	}
	t := &store.Topic{Name: req.GetName(), Partitions: req.GetPartitions(), RetentionHours: req.GetRetentionHours(), Owner: req.GetOwner()}
	if err := c.store.CreateTopic(ctx, t); err != nil {
		c.quota.Release(ctx, reservation)
		return nil, err
	}
	return topicProto(t), nil
}

// DeleteTopic drops a topic and its events.
func (c *Catalog) DeleteTopic(ctx context.Context, req *catalogv1.DeleteTopicRequest) (*catalogv1.DeleteTopicResponse, error) {
	// Dropping a large topic locks the events partition; give up rather than hold it long.
	dctx, cancel := context.WithTimeout(ctx, dropTimeout) // OK: has a unit
	defer cancel()
	n, err := c.store.DropTopic(dctx, req.GetName(), req.GetForce())
	if err != nil {
		return nil, status.Errorf(codes.Internal, "drop topic %s: %v", req.GetName(), err) // BUG: statusmask
	}
	return &catalogv1.DeleteTopicResponse{DroppedEvents: n}, nil
}

// UpdateRetention changes how long a topic keeps its events.
func (c *Catalog) UpdateRetention(ctx context.Context, req *catalogv1.UpdateRetentionRequest) (*catalogv1.Topic, error) {
	if req.GetRetentionHours() <= 0 {
		return nil, status.Error(codes.InvalidArgument, "retention_hours must be positive")
	}
	t, err := c.store.SetRetention(ctx, req.GetName(), req.GetRetentionHours())
	if err != nil {
		msg := fmt.Sprintf("update retention of %s: %v", req.GetName(), err)
		return nil, status.Error(codes.Aborted, msg) // BUG: statusmask
	}
	return topicProto(t), nil
}

// GetTopicStats combines the event count from the database with the byte count the metrics
// API keeps.
func (c *Catalog) GetTopicStats(ctx context.Context, req *catalogv1.GetTopicStatsRequest) (*catalogv1.TopicStats, error) {
	events, _, err := c.store.Stats(ctx, req.GetName())
	if err != nil {
		return nil, err // OK: returned unchanged
	}
	q := url.Values{"topic": {req.GetName()}}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, c.metrics.URL("/v1/bytes", q), nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.metrics.HTTP().Do(hreq)
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "metrics api: %v", err) // BUG: statusmask
	}
	defer resp.Body.Close()
	var bytes int64
	if _, err := fmt.Fscan(resp.Body, &bytes); err != nil {
		return nil, status.Error(codes.DataLoss, "metrics api answered garbage") // OK: constant message
	}
	return &catalogv1.TopicStats{Name: req.GetName(), Events: events, Bytes: bytes}, nil
}

// PurgeTopic deletes a topic's events before a sequence number.
func (c *Catalog) PurgeTopic(ctx context.Context, req *catalogv1.PurgeTopicRequest) (*catalogv1.PurgeTopicResponse, error) {
	dl, _ := ctx.Deadline()
	if dl.Compare(time.Now().Add(minPurgeBudget)) < 0 { // BUG: deadlinemath
		return nil, status.Error(codes.DeadlineExceeded, "purging needs at least 2s, retry with a longer deadline")
	}
	n, err := c.journal.Purge(ctx, req.GetName(), req.GetBeforeSequence())
	if err != nil {
		return nil, status.Error(codes.Internal, "purge failed: "+err.Error()) // BUG: statusmask
	}
	return &catalogv1.PurgeTopicResponse{Purged: n}, nil
}

// RenameTopic renames a topic and moves its events and consumers.
func (c *Catalog) RenameTopic(ctx context.Context, req *catalogv1.RenameTopicRequest) (*catalogv1.Topic, error) {
	tx, err := c.store.DB().BeginTx(ctx, nil)
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "begin rename: %v", err) // BUG: statusmask
	}
	defer tx.Rollback()
	for _, q := range []string{
		`UPDATE topics SET name = $2 WHERE name = $1`,
		`UPDATE events SET topic = $2 WHERE topic = $1`,
		`UPDATE consumers SET topic = $2 WHERE topic = $1`,
	} {
		if _, err := tx.ExecContext(ctx, q, req.GetName(), req.GetNewName()); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return c.GetTopic(ctx, &catalogv1.GetTopicRequest{Name: req.GetNewName()})
}

// TransferOwnership gives a topic to another tenant, who must have room for it.
func (c *Catalog) TransferOwnership(ctx context.Context, req *catalogv1.TransferOwnershipRequest) (*catalogv1.Topic, error) {
	q, err := c.quotaClient.GetQuota(ctx, &quotav1.GetQuotaRequest{Tenant: req.GetNewOwner()})
	if err != nil {
		return nil, status.Errorf(codes.FailedPrecondition, "quota of %s: %v", req.GetNewOwner(), err) // BUG: statusmask
	}
	if q.GetUsedTopics() >= q.GetMaxTopics() {
		return nil, status.Errorf(codes.FailedPrecondition, "%s has no room for another topic", req.GetNewOwner())
	}
	if _, err := c.store.DB().ExecContext(ctx,
		`UPDATE topics SET owner = $2 WHERE name = $1`, req.GetName(), req.GetNewOwner()); err != nil {
		return nil, err
	}
	// The audit row must be written even if the caller hangs up now.
	actx, cancel := context.WithTimeout(context.Background(), auditTimeout)
	defer cancel()
	if err := c.store.Audit(actx, req.GetNewOwner(), "transfer", req.GetName()); err != nil {
		return nil, status.Errorf(codes.Internal, "audit transfer: %v", err) // OK: error of a call made with a fresh context
	}
	return &catalogv1.Topic{Name: req.GetName(), Owner: req.GetNewOwner()}, nil
}

// DescribeTopic returns a topic with its fleet-wide subscriber count, fetched concurrently.
func (c *Catalog) DescribeTopic(ctx context.Context, req *catalogv1.DescribeTopicRequest) (*catalogv1.TopicDescription, error) {
	type subsResult struct {
		n   int64
		err error
	}
	subs := make(chan subsResult, 1)
	go func() {
		n, err := c.metrics.Subscribers(ctx, req.GetName())
		if err != nil {
			subs <- subsResult{err: status.Errorf(codes.Unavailable, "subscriber count: %v", err)} // BUG: statusmask
			return
		}
		subs <- subsResult{n: n}
	}()
	t, err := c.store.Topic(ctx, req.GetName())
	if err != nil {
		return nil, err // OK: returned unchanged
	}
	r := <-subs
	if r.err != nil {
		return nil, r.err
	}
	return &catalogv1.TopicDescription{Topic: topicProto(t), Subscribers: r.n}, nil
}

// ListConsumers lists a topic's consumers.
func (c *Catalog) ListConsumers(ctx context.Context, req *catalogv1.ListConsumersRequest) (*catalogv1.ListConsumersResponse, error) {
	cs, err := c.store.Consumers(ctx, req.GetTopic())
	if err != nil {
		if ctx.Err() != nil {
			return nil, status.FromContextError(ctx.Err()).Err()
		}
		return nil, status.Errorf(codes.Internal, "list consumers: %v", err) // OK: ctx.Err() checked first
	}
	out := &catalogv1.ListConsumersResponse{}
	for _, x := range cs {
		out.Consumers = append(out.Consumers, &catalogv1.Consumer{Name: x.Name, Topic: x.Topic, AckedSequence: x.Acked})
	}
	return out, nil
}

// ResetConsumer moves a consumer back or forward.
func (c *Catalog) ResetConsumer(ctx context.Context, req *catalogv1.ResetConsumerRequest) (*catalogv1.Consumer, error) {
	if err := c.store.ResetConsumer(ctx, req.GetTopic(), req.GetConsumer(), req.GetToSequence()); err != nil {
		return nil, status.Error(codeFor(err), err.Error()) // OK: mapping helper picks the code
	}
	return &catalogv1.Consumer{Name: req.GetConsumer(), Topic: req.GetTopic(), AckedSequence: req.GetToSequence()}, nil
}

// GetTenantQuota returns a tenant's topic quota, as the quota service knows it.
func (c *Catalog) GetTenantQuota(ctx context.Context, req *catalogv1.GetTenantQuotaRequest) (*catalogv1.TenantQuota, error) {
	q, err := c.quota.Limits(ctx, req.GetTenant())
	if err != nil {
		if st, ok := status.FromError(err); ok && st.Code() != codes.Unknown {
			return nil, st.Err()
		}
		return nil, status.Errorf(codes.Unavailable, "quota service: %v", err) // OK: status.FromError of the error first
	}
	return &catalogv1.TenantQuota{Tenant: q.GetTenant(), MaxTopics: q.GetMaxTopics(), UsedTopics: q.GetUsedTopics()}, nil
}
