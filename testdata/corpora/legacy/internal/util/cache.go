package util

import (
	"context"
	"os"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is the shared cache client.
var Redis *redis.Client

const balanceTTL = 2 * time.Minute

func init() {
	addr := os.Getenv("REDIS_ADDR")
	if addr == "" {
		addr = "localhost:6379"
	}
	Redis = redis.NewClient(&redis.Options{
		Addr:         addr,
		DialTimeout:  500 * time.Millisecond,
		ReadTimeout:  300 * time.Millisecond,
		WriteTimeout: 300 * time.Millisecond,
	})
}

// PingCache is called from main to log whether the cache is up.
func PingCache() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second) // OK
	defer cancel()
	if err := Redis.Ping(ctx).Err(); err != nil {
		Log.Printf("redis not reachable, running without cache: %v", err)
	}
}

func balanceKey(memberID string) string { return "bal:" + memberID }

// CachedBalance returns the cached settled balance.
func CachedBalance(ctx context.Context, memberID string) (int64, bool) {
	v, err := Redis.Get(ctx, balanceKey(memberID)).Result()
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

// SetCachedBalance stores the settled balance.
func SetCachedBalance(ctx context.Context, memberID string, points int64) {
	if err := Redis.Set(ctx, balanceKey(memberID), points, balanceTTL).Err(); err != nil {
		Log.Printf("cache set %s: %v", memberID, err)
	}
}

// Invalidate drops everything cached for a member.
func Invalidate(memberID string) {
	if err := Redis.Del(context.Background(), balanceKey(memberID), "member:"+memberID, "tier:"+memberID).Err(); err != nil {
		Log.Printf("cache del %s: %v", memberID, err)
	}
}
