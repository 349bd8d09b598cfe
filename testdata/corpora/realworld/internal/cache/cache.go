// Package cache is the Redis layer of the orders service: the order read
// cache, idempotency keys, rate limits, carts and order change notifications.
package cache

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"example.test/realworld/internal/store"
)

var tracer = otel.Tracer("example.test/realworld/internal/cache")

// Cache wraps a Redis client.
type Cache struct {
	rdb *redis.Client
	ttl time.Duration
	log *zap.Logger
}

// New returns a cache on rdb; cached orders live for ttl.
func New(rdb *redis.Client, ttl time.Duration, log *zap.Logger) *Cache {
	return &Cache{rdb: rdb, ttl: ttl, log: log.Named("cache")}
}

// Cart is a shopping cart kept in Redis.
type Cart struct {
	ID        string           `json:"id"`
	Lines     map[string]int32 `json:"lines"`
	UpdatedAt time.Time        `json:"updated_at"`
}

func orderKey(id string) string             { return "orders:v2:" + id }
func historyKey(customer string) string     { return "orders:history:" + customer }
func idemKey(key string) string             { return "orders:idem:" + key }
func respKey(key, method string) string     { return "orders:resp:" + method + ":" + key }
func cartKey(id string) string              { return "carts:" + id }
func rateKey(bucket string, n int64) string { return fmt.Sprintf("orders:rl:%s:%d", bucket, n) }

// OrderChannel is the pub/sub channel on which changes of an order are announced.
func OrderChannel(id string) string { return "orders:changes:" + id }

// GetOrder returns the cached order, if any.
func (c *Cache) GetOrder(ctx context.Context, id string) (*store.Order, bool, error) {
	ctx, span := tracer.Start(ctx, "cache.GetOrder", trace.WithAttributes(attribute.String("order.id", id)))
	defer span.End()
	b, err := c.rdb.Get(ctx, orderKey(id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	var o store.Order
	if err := json.Unmarshal(b, &o); err != nil {
		return nil, false, fmt.Errorf("cache: decode order %s: %w", id, err)
	}
	return &o, true, nil
}

// PutOrder caches o.
func (c *Cache) PutOrder(ctx context.Context, o *store.Order) error {
	ctx, span := tracer.Start(ctx, "cache.PutOrder")
	defer span.End()
	b, err := json.Marshal(o)
	if err != nil {
		return err
	}
	return c.rdb.Set(ctx, orderKey(o.ID), b, c.ttl).Err()
}

// InvalidateOrder drops a cached order and tells watchers that it changed.
func (c *Cache) InvalidateOrder(ctx context.Context, id string) error {
	_, span := tracer.Start(ctx, "cache.InvalidateOrder", trace.WithAttributes(attribute.String("order.id", id)))
	defer span.End()
	_, err := c.rdb.TxPipelined(context.TODO(), func(p redis.Pipeliner) error {
		p.Del(ctx, orderKey(id))
		p.Publish(ctx, OrderChannel(id), "invalidated")
		return nil
	})
	if err != nil {
		span.RecordError(err)
		return fmt.Errorf("cache: invalidate %s: %w", id, err)
	}
	return nil
}

// InvalidateCustomer drops the cached order history of a customer. Errors are
// logged: a stale history page is not worth failing a request for.
func (c *Cache) InvalidateCustomer(customerID string) {
	ctx, span := tracer.Start(context.Background(), "cache.InvalidateCustomer")
	defer span.End()
	if err := c.rdb.Del(ctx, historyKey(customerID)).Err(); err != nil {
		c.log.Warn("invalidate customer history", zap.String("customer_id", customerID), zap.Error(err))
	}
}

// ClaimIdempotencyKey returns true the first time key is seen within ttl.
func (c *Cache) ClaimIdempotencyKey(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	ctx, span := tracer.Start(ctx, "cache.ClaimIdempotencyKey")
	defer span.End()
	return c.rdb.SetNX(ctx, idemKey(key), time.Now().Unix(), ttl).Result()
}

// StoreResponse keeps the serialized response of method for key, so that a
// retried request gets the same answer.
func (c *Cache) StoreResponse(ctx context.Context, key, method string, payload []byte) error {
	ctx, span := tracer.Start(ctx, "cache.StoreResponse")
	defer span.End()
	return c.rdb.Set(ctx, respKey(key, method), payload, 24*time.Hour).Err()
}

// LoadResponse returns a response stored by StoreResponse.
func (c *Cache) LoadResponse(ctx context.Context, key, method string) ([]byte, bool, error) {
	ctx, span := tracer.Start(ctx, "cache.LoadResponse")
	defer span.End()
	b, err := c.rdb.Get(ctx, respKey(key, method)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, false, nil
	}
	return b, err == nil, err
}

// Allow is a fixed-window rate limiter: at most limit calls per window for bucket.
func (c *Cache) Allow(ctx context.Context, bucket string, limit int, window time.Duration) (bool, error) {
	ctx, span := tracer.Start(ctx, "cache.Allow")
	defer span.End()
	key := rateKey(bucket, time.Now().UnixNano()/int64(window))
	var incr *redis.IntCmd
	_, err := c.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		incr = p.Incr(ctx, key)
		p.Expire(ctx, key, window)
		return nil
	})
	if err != nil {
		return false, err
	}
	return incr.Val() <= int64(limit), nil
}

// Publish announces payload on channel.
func (c *Cache) Publish(ctx context.Context, channel string, payload []byte) error {
	ctx, span := tracer.Start(ctx, "cache.Publish")
	defer span.End()
	return c.rdb.Publish(ctx, channel, payload).Err()
}

// Subscribe subscribes to channel. The caller closes the subscription.
func (c *Cache) Subscribe(ctx context.Context, channel string) *redis.PubSub {
	return c.rdb.Subscribe(ctx, channel)
}

// LoadCart returns a cart, or an empty one when it does not exist yet.
func (c *Cache) LoadCart(ctx context.Context, id string) (*Cart, error) {
	ctx, span := tracer.Start(ctx, "cache.LoadCart")
	defer span.End()
	b, err := c.rdb.Get(ctx, cartKey(id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return &Cart{ID: id, Lines: map[string]int32{}}, nil
	}
	if err != nil {
		return nil, err
	}
	var cart Cart
	if err := json.Unmarshal(b, &cart); err != nil {
		return nil, err
	}
	if cart.Lines == nil {
		cart.Lines = map[string]int32{}
	}
	return &cart, nil
}

// SaveCart stores a cart for a week.
func (c *Cache) SaveCart(ctx context.Context, cart *Cart) error {
	ctx, span := tracer.Start(ctx, "cache.SaveCart")
	defer span.End()
	cart.UpdatedAt = time.Now()
	b, err := json.Marshal(cart)
	if err != nil {
		return err
	}
	return c.rdb.Set(ctx, cartKey(cart.ID), b, 7*24*time.Hour).Err()
}

// IsRevoked reports whether the token with id tokenID was revoked before it expired.
func (c *Cache) IsRevoked(ctx context.Context, tokenID string) (bool, error) {
	n, err := c.rdb.Exists(ctx, "auth:revoked:"+tokenID).Result()
	return n > 0, err
}

// Ping checks the Redis connection.
func (c *Cache) Ping(ctx context.Context) error {
	return c.rdb.Ping(ctx).Err()
}
