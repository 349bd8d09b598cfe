// Package catalog implements catalog.v1.CatalogService: topic metadata, retention and
// consumers. Quota checks go to the platform team's QuotaService.
package catalog

import (
	"context"
	"errors"
	"fmt"
	"log"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	catalogv1 "example.test/streams/gen/catalog/v1"
	quotav1 "example.test/streams/gen/quota/v1"
	"example.test/streams/internal/pubsub"
	"example.test/streams/internal/store"
)

var errQuotaSlow = errors.New("catalog: quota service too slow")

// Server implements catalogv1.CatalogServiceServer.
type Server struct {
	catalogv1.UnimplementedCatalogServiceServer

	store   *store.Store
	journal *store.Journal
	quota   quotav1.QuotaServiceClient
	bus     *pubsub.Bus
	cache   *topicCache
}

// New returns a Server; WarmCache should be started once the database is reachable.
func New(st *store.Store, j *store.Journal, quota quotav1.QuotaServiceClient, bus *pubsub.Bus) *Server {
	return &Server{store: st, journal: j, quota: quota, bus: bus, cache: newTopicCache()}
}

// Register adds the service to a gRPC server.
func (s *Server) Register(gs grpc.ServiceRegistrar) {
	catalogv1.RegisterCatalogServiceServer(gs, s)
}

// GetTopic returns one topic, from the cache when it can.
func (s *Server) GetTopic(ctx context.Context, req *catalogv1.GetTopicRequest) (*catalogv1.Topic, error) {
	// Right after a restart, requests wait for the warm-up instead of stampeding the database.
	for !s.cache.warm.Load() {
		<-s.cache.loaded // OK: a unary handler, not a streaming one
	}
	if t, ok := s.cache.get(req.GetName()); ok {
		return topicToProto(t), nil
	}
	t, err := s.store.GetTopic(ctx, req.GetName())
	if err != nil {
		return nil, status.Errorf(codes.Internal, "get topic %q: %v", req.GetName(), err) // BUG: statusmask
	}
	s.cache.put(t)
	return topicToProto(t), nil
}

// ListTopics pages through topics by name.
func (s *Server) ListTopics(ctx context.Context, req *catalogv1.ListTopicsRequest) (*catalogv1.ListTopicsResponse, error) {
	size := int(req.GetPageSize())
	if size <= 0 || size > 1000 {
		size = 100
	}
	topics, err := s.store.ListTopics(ctx, req.GetOwner(), req.GetPageToken(), size)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, status.FromContextError(ctxErr).Err()
		}
		return nil, status.Errorf(codes.Internal, "list topics: %v", err) // OK: ctx.Err() is checked first
	}
	resp := &catalogv1.ListTopicsResponse{}
	for _, t := range topics {
		resp.Topics = append(resp.Topics, topicToProto(t))
	}
	if len(topics) == size {
		resp.NextPageToken = topics[len(topics)-1].Name
	}
	return resp, nil
}

// CreateTopic creates a topic after checking the owner's quota.
func (s *Server) CreateTopic(ctx context.Context, req *catalogv1.CreateTopicRequest) (*catalogv1.Topic, error) {
	if err := validateTopicName(req.GetName()); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "invalid topic name: %v", err) // OK: a validation error, no call given ctx
	}
	qctx, cancel := context.WithTimeoutCause(ctx, 800, errQuotaSlow) // BUG: deadlinemath
	defer cancel()
	q, err := s.quota.GetQuota(qctx, &quotav1.GetQuotaRequest{Tenant: req.GetOwner()})
	if err != nil {
		return nil, status.Error(codes.Unavailable, "quota service: "+err.Error()) // BUG: statusmask
	}
	if q.GetUsedTopics() >= q.GetMaxTopics() {
		return nil, status.Errorf(codes.ResourceExhausted, "tenant %q already has %d of %d topics",
			req.GetOwner(), q.GetUsedTopics(), q.GetMaxTopics())
	}

	t := store.Topic{
		Name:           req.GetName(),
		Partitions:     max(req.GetPartitions(), 1),
		RetentionHours: max(req.GetRetentionHours(), 24),
		Owner:          req.GetOwner(),
	}
	err = s.store.CreateTopic(ctx, t)
	if store.IsConflict(err) {
		return nil, status.Errorf(codes.AlreadyExists, "topic %q: %v", t.Name, err) // OK: inside the branch where IsConflict recognised the error
	}
	if err != nil {
		return nil, err // OK: returned unchanged
	}
	s.cache.put(t)
	return topicToProto(t), nil
}

// DeleteTopic drops a topic and its journal.
func (s *Server) DeleteTopic(ctx context.Context, req *catalogv1.DeleteTopicRequest) (*catalogv1.DeleteTopicResponse, error) {
	name := req.GetName()
	if !req.GetForce() {
		// The consumer count runs on its own so that a slow count cannot use up the delete's budget.
		n, err := s.store.CountSubscribers(context.Background(), name)
		if err != nil {
			return nil, status.Errorf(codes.FailedPrecondition, "count consumers of %q: %v", name, err) // OK: error of a call made with context.Background(), not the request's deadline
		}
		if n > 0 {
			return nil, status.Errorf(codes.FailedPrecondition, "topic %q still has %d consumers", name, n)
		}
	}
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	dropped, err := s.journal.DeleteTopic(dctx, name)
	if err != nil {
		return nil, status.Errorf(codes.Aborted, "delete topic %q: %v", name, err) // BUG: statusmask
	}
	s.cache.drop(name)
	s.bus.AnnounceUpdate(pubsub.TopicUpdate{Topic: name, Deleted: true})
	return &catalogv1.DeleteTopicResponse{DroppedEvents: dropped}, nil
}

// UpdateRetention changes how long a topic's events are kept.
func (s *Server) UpdateRetention(ctx context.Context, req *catalogv1.UpdateRetentionRequest) (*catalogv1.Topic, error) {
	if h := req.GetRetentionHours(); h < 1 || h > 24*90 {
		return nil, status.Error(codes.InvalidArgument, "retention must be between 1 hour and 90 days")
	}
	t, err := s.store.UpdateRetention(ctx, req.GetName(), req.GetRetentionHours())
	if err != nil {
		st := status.New(codes.Internal, "update retention of "+req.GetName()+": "+err.Error()) // BUG: statusmask
		return nil, st.Err()
	}
	s.cache.put(t)
	s.bus.AnnounceUpdate(pubsub.TopicUpdate{Topic: t.Name})
	return topicToProto(t), nil
}

// GetTopicStats aggregates a topic's journal and consumers concurrently.
func (s *Server) GetTopicStats(ctx context.Context, req *catalogv1.GetTopicStatsRequest) (*catalogv1.TopicStats, error) {
	name := req.GetName()
	var (
		wg                sync.WaitGroup
		stats             store.Stats
		subs              int64
		statsErr, subsErr error
	)
	wg.Go(func() { stats, statsErr = s.store.TopicStats(ctx, name) })
	wg.Go(func() { subs, subsErr = s.store.CountSubscribers(ctx, name) })
	wg.Wait()

	if statsErr != nil {
		// The aggregate is slow on big topics; the refresher's numbers are good enough.
		cached, err := s.store.CachedStats(name)
		if err != nil {
			return nil, status.Errorf(codes.Unavailable, "no stats for %q yet: %v", name, err) // OK: CachedStats takes no ctx; its error is never the request's deadline
		}
		log.Printf("catalog: stats for %s served from cache: %v", name, statsErr)
		stats = cached
	}
	if subsErr != nil {
		return nil, status.Errorf(codes.Internal, "count subscribers of %q: %v", name, subsErr) // BUG: statusmask
	}
	return &catalogv1.TopicStats{Name: name, Events: stats.Events, Subscribers: subs, Bytes: stats.Bytes}, nil
}

// PurgeTopic deletes a topic's events before a sequence number.
func (s *Server) PurgeTopic(ctx context.Context, req *catalogv1.PurgeTopicRequest) (*catalogv1.PurgeTopicResponse, error) {
	n, err := s.journal.Purge(ctx, req.GetName(), req.GetBeforeSequence())
	if err != nil {
		return nil, status.Error(codes.Internal, fmt.Errorf("purge %s before %d: %w", req.GetName(), req.GetBeforeSequence(), err).Error()) // BUG: statusmask
	}
	return &catalogv1.PurgeTopicResponse{Purged: n}, nil
}

// RenameTopic renames a topic in place; subscribers of the old name keep their positions.
func (s *Server) RenameTopic(ctx context.Context, req *catalogv1.RenameTopicRequest) (*catalogv1.Topic, error) {
	if err := validateTopicName(req.GetNewName()); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "invalid new name: %v", err) // OK: a validation error, no call given ctx
	}
	err := s.store.RenameTopic(ctx, req.GetName(), req.GetNewName())
	switch {
	case err == nil:
	case store.IsConflict(err):
		return nil, status.Errorf(codes.AlreadyExists, "topic %q already exists: %v", req.GetNewName(), err) // OK: the case where IsConflict recognised the error
	default:
		return nil, status.Newf(codes.Aborted, "rename %q: %v", req.GetName(), err).Err() // BUG: statusmask
	}
	s.cache.drop(req.GetName())
	t, err := s.store.GetTopic(ctx, req.GetNewName())
	if err != nil {
		return nil, err
	}
	return topicToProto(t), nil
}

// TransferOwnership hands a topic to another tenant, which must have room for it.
func (s *Server) TransferOwnership(ctx context.Context, req *catalogv1.TransferOwnershipRequest) (*catalogv1.Topic, error) {
	checkOwner := func(owner string) error {
		q, err := s.quota.GetQuota(ctx, &quotav1.GetQuotaRequest{Tenant: owner})
		if err != nil {
			return status.Errorf(codes.FailedPrecondition, "quota of new owner %q: %v", owner, err) // BUG: statusmask
		}
		if q.GetUsedTopics() >= q.GetMaxTopics() {
			return status.Errorf(codes.ResourceExhausted, "new owner %q is at its topic quota", owner)
		}
		return nil
	}
	if err := checkOwner(req.GetNewOwner()); err != nil {
		return nil, err
	}
	if err := s.store.SetOwner(ctx, req.GetName(), req.GetNewOwner()); err != nil {
		return nil, err
	}
	t, err := s.store.GetTopic(ctx, req.GetName())
	if err != nil {
		return nil, err
	}
	s.cache.put(t)
	return topicToProto(t), nil
}

// DescribeTopic returns a topic with its consumer count.
func (s *Server) DescribeTopic(ctx context.Context, req *catalogv1.DescribeTopicRequest) (*catalogv1.TopicDescription, error) {
	t, err := s.store.GetTopic(ctx, req.GetName())
	if err != nil {
		return nil, toStatus("describe topic", err)
	}
	n, err := s.store.CountSubscribers(ctx, req.GetName())
	if err != nil {
		// In practice the only way this count fails is the statement timeout on huge topics.
		return nil, status.Errorf(codes.DeadlineExceeded, "count subscribers of %q: %v", req.GetName(), err) // OK: DeadlineExceeded keeps the code
	}
	return &catalogv1.TopicDescription{Topic: topicToProto(t), Subscribers: n}, nil
}

// ListConsumers lists a topic's durable consumers.
func (s *Server) ListConsumers(ctx context.Context, req *catalogv1.ListConsumersRequest) (*catalogv1.ListConsumersResponse, error) {
	cs, err := s.store.ListConsumers(ctx, req.GetTopic())
	if err != nil {
		return nil, status.Errorf(codeOf(err), "list consumers of %q: %v", req.GetTopic(), err) // OK: the code comes from the module's mapping helper, not a constant
	}
	resp := &catalogv1.ListConsumersResponse{}
	for _, c := range cs {
		resp.Consumers = append(resp.Consumers, &catalogv1.Consumer{Name: c.Name, Topic: c.Topic, AckedSequence: c.AckedSequence})
	}
	return resp, nil
}

// ResetConsumer moves a consumer's position, e.g. to skip a poison event.
func (s *Server) ResetConsumer(ctx context.Context, req *catalogv1.ResetConsumerRequest) (*catalogv1.Consumer, error) {
	c, err := s.store.ResetConsumer(ctx, req.GetTopic(), req.GetConsumer(), req.GetToSequence())
	if err != nil {
		var ce *store.ConstraintError
		if errors.As(err, &ce) {
			return nil, status.Errorf(codes.FailedPrecondition, "cannot reset %q: %s", req.GetConsumer(), ce.Constraint) // OK: recognised by errors.As
		}
		return nil, status.Errorf(codes.Internal, "reset consumer %q: %v", req.GetConsumer(), err) // OK: the handler inspects this error with errors.As
	}
	return &catalogv1.Consumer{Name: c.Name, Topic: c.Topic, AckedSequence: c.AckedSequence}, nil
}

// GetTenantQuota proxies the quota service for the console.
func (s *Server) GetTenantQuota(ctx context.Context, req *catalogv1.GetTenantQuotaRequest) (*catalogv1.TenantQuota, error) {
	q, err := s.quota.GetQuota(ctx, &quotav1.GetQuotaRequest{Tenant: req.GetTenant()})
	if err != nil {
		switch status.Code(err) {
		case codes.DeadlineExceeded, codes.Canceled, codes.NotFound, codes.PermissionDenied:
			return nil, err
		}
		return nil, status.Errorf(codes.Unavailable, "quota service: %v", err) // OK: status.Code of the error is looked at first
	}
	return &catalogv1.TenantQuota{Tenant: q.GetTenant(), MaxTopics: q.GetMaxTopics(), UsedTopics: q.GetUsedTopics()}, nil
}

func topicToProto(t store.Topic) *catalogv1.Topic {
	return &catalogv1.Topic{Name: t.Name, Partitions: t.Partitions, RetentionHours: t.RetentionHours, Owner: t.Owner}
}

// topicCache keeps every topic in memory; the catalog is small and read on every subscribe.
type topicCache struct {
	mu     sync.RWMutex
	topics map[string]store.Topic
	warm   atomic.Bool
	loaded chan struct{}
}

func newTopicCache() *topicCache {
	return &topicCache{topics: map[string]store.Topic{}, loaded: make(chan struct{})}
}

func (c *topicCache) get(name string) (store.Topic, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, ok := c.topics[name]
	return t, ok
}

func (c *topicCache) put(t store.Topic) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.topics[t.Name] = t
}

func (c *topicCache) drop(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.topics, name)
}

// WarmCache loads every topic once at start-up; main retries it until it succeeds.
func (s *Server) WarmCache(ctx context.Context) error {
	after := ""
	for {
		page, err := s.store.ListTopics(ctx, "", after, 1000)
		if err != nil {
			return err
		}
		for _, t := range page {
			s.cache.put(t)
		}
		if len(page) < 1000 {
			break
		}
		after = page[len(page)-1].Name
	}
	if s.cache.warm.CompareAndSwap(false, true) {
		close(s.cache.loaded)
	}
	return nil
}

var topicName = regexp.MustCompile(`^[a-z][a-z0-9._-]{2,127}$`)

// validateTopicName checks a topic name against the naming rules.
func validateTopicName(name string) error {
	if len(name) > 1 && name[0] == '_' {
		return errors.New("names starting with _ are reserved for system topics")
	}
	if !topicName.MatchString(name) {
		return fmt.Errorf("%q must match %s", name, topicName)
	}
	return nil
}

// codeOf maps a store error to a gRPC code, keeping deadlines and cancellations as they are.
func codeOf(err error) codes.Code {
	switch {
	case err == nil:
		return codes.OK
	case errors.Is(err, context.DeadlineExceeded):
		return codes.DeadlineExceeded
	case errors.Is(err, context.Canceled):
		return codes.Canceled
	case errors.Is(err, store.ErrNotFound):
		return codes.NotFound
	case store.IsConflict(err):
		return codes.AlreadyExists
	default:
		return codes.Internal
	}
}

// toStatus turns a store error into a status error with codeOf's code.
func toStatus(op string, err error) error {
	if err == nil {
		return nil
	}
	return status.Errorf(codeOf(err), "%s: %v", op, err)
}
