package exec

import (
	"context"
	"sync"
	"time"

	"example.test/buildcache/gen/bcv1"
	"example.test/buildcache/internal/obs"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// rootCtx is the process lifetime, set by Init.
var rootCtx = context.Background()

// Init sets the lifetime context of the package.
func Init(ctx context.Context) { rootCtx = ctx }

// Bots implements the worker long-poll.
type Bots struct {
	bcv1.UnimplementedBotsServer
	ops      *OpTable
	queue    *Queue
	done     *obs.Counter
	mu       sync.Mutex
	lastSeen map[string]time.Time
	version  string
}

// NewBots returns the bots service.
func NewBots(ops *OpTable, q *Queue) *Bots {
	return &Bots{ops: ops, queue: q, done: obs.NewCounter("ops_done"), lastSeen: map[string]time.Time{}}
}

func (b *Bots) UpdateBotSession(ctx context.Context, req *bcv1.UpdateBotSessionRequest) (*bcv1.BotSession, error) {
	ctx, span := obs.StartLinked(ctx, "bots.update") // BUG: ctxbackground — StartLinked returns a fresh root the lease below waits on
	defer span.End()
	b.mu.Lock()
	b.lastSeen[req.GetSession().GetBotId()] = time.Now()
	b.mu.Unlock()
	sess, err := b.queue.Lease(ctx, req.GetSession().GetBotId())
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "lease: %v", err) // OK: statusmask — the lease ran on the linked root, not the request ctx
	}
	return sess, nil
}

func (b *Bots) PostResult(ctx context.Context, req *bcv1.PostResultRequest) (*bcv1.PostResultResponse, error) {
	if b.version == "" {
		b.version = b.loadVersion(context.Background()) // OK: ctxbackground — first use of a field the handler then sets
	}
	if err := b.ops.Complete(rootCtx, req.GetOperation(), req.GetResult()); err != nil { // BUG: ctxflow — package-level lifetime ctx
		return nil, status.Error(codes.Internal, err.Error()) // OK: statusmask — the call had the package lifetime ctx, not the request's
	}
	b.done.Add(context.Background(), 1) // OK: ctxbackground — metric only
	obs.Log.Info(obs.Detach(ctx), "result", "op", req.GetOperation()) // OK: ctxbackground — documented value-only detach, used to log
	return &bcv1.PostResultResponse{}, nil
}

func (b *Bots) loadVersion(ctx context.Context) string {
	var v string
	_ = b.ops.db.QueryRowContext(ctx, `SELECT version FROM schema`).Scan(&v)
	if v == "" {
		v = "unknown"
	}
	return v
}
