package decided

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc/metadata"
)

type tenantKey struct{}

// tenantOf reads the caller's tenant out of its ctx.
func tenantOf(ctx context.Context) string {
	t, _ := ctx.Value(tenantKey{}).(string)
	return t
}

// Lenders give work a fresh budget of its own, some keeping the caller's values on it.
type Lenders struct{ db db }

// Tagged keeps the caller's tenant on the fresh budget: a detach decided and bounded.
func (l *Lenders) Tagged(ctx context.Context, id string) error {
	tctx, cancel := context.WithTimeout(context.WithValue(context.Background(), tenantKey{}, tenantOf(ctx)), time.Second)
	defer cancel()
	return l.db.Exec(tctx, "tag "+id)
}

// Discarded builds a ctx with the caller's span and throws it away: the work runs on the bare
// root, and nothing was lent to it.
func (l *Lenders) Discarded(ctx context.Context, id string) error { // want Discarded:"drops ctx"
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = trace.ContextWithSpan(c, trace.SpanFromContext(ctx))
	return l.db.Exec(c, "discard "+id)
}

// Swapped picks the root or its ctx, then puts the span back: lending decides nothing when the
// ctx may be the caller's own.
func (l *Lenders) Swapped(ctx context.Context, id string, long bool) error { // want Swapped:"drops ctx"
	c := ctx
	if long {
		var cancel context.CancelFunc
		c, cancel = context.WithTimeout(context.Background(), time.Hour)
		defer cancel()
	}
	c = trace.ContextWithSpan(c, trace.SpanFromContext(ctx))
	return l.db.Exec(c, "swap "+id)
}

// Forwarded copies the caller's incoming metadata onto a fresh budget: the outgoing call needs
// that copy whatever its ctx derives from, so it decides no detach.
func (l *Lenders) Forwarded(ctx context.Context, id string) error { // want Forwarded:"drops ctx"
	md, _ := metadata.FromIncomingContext(ctx)
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return l.db.Exec(metadata.NewOutgoingContext(c, md), "forward "+id)
}

// Proposed overwrites its ctx with the root lent its span, so that a proposal the log may still
// apply is not abandoned with the caller, and bounds each attempt in a literal that captures it.
func (l *Lenders) Proposed(ctx context.Context, id string) error {
	span := trace.SpanFromContext(ctx)
	ctx = trace.ContextWithSpan(context.Background(), span)
	propose := func(timeout time.Duration) error {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return l.db.Exec(cctx, "propose "+id)
	}
	return propose(4 * time.Second)
}

// store is what a Keeper writes to; the one in sight keeps items in memory, the one main wires
// in is out of sight.
type store interface {
	Put(ctx context.Context, id string) error
}

type memStore struct{ items map[string]bool }

func (m *memStore) Put(_ context.Context, id string) error { m.items[id] = true; return nil }

// Keeper puts with its ctx, then indexes on a fresh budget: a store out of sight may work with
// the ctx, so the fresh budget beside it was chosen.
type Keeper struct {
	st store
	db db
}

func (k *Keeper) Keep(ctx context.Context, id string) error {
	if err := k.st.Put(ctx, id); err != nil {
		return err
	}
	ictx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return k.db.Exec(ictx, "index "+id)
}

// LendServer calls them.
type LendServer struct {
	catalogpb.UnimplementedCatalogServer
	l *Lenders
	k *Keeper
}

func (s *LendServer) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = s.l.Tagged(ctx, req.GetId())        // the caller's tenant on a bounded budget: silent
	_ = s.l.Discarded(ctx, req.GetId())     // want `decided\.Lenders\.Discarded, called in handler LendServer\.GetItem, works with context\.Background\(\)`
	_ = s.l.Swapped(ctx, req.GetId(), true) // want `decided\.Lenders\.Swapped, called in handler LendServer\.GetItem, works with context\.Background\(\)`
	_ = s.l.Forwarded(ctx, req.GetId())     // want `decided\.Lenders\.Forwarded, called in handler LendServer\.GetItem, works with context\.Background\(\)`
	_ = s.l.Proposed(ctx, req.GetId())      // the span lent, each attempt bounded: silent
	_ = s.k.Keep(ctx, req.GetId())          // work with its ctx beside the fresh budget: silent
	return &catalogpb.Item{Id: req.GetId()}, nil
}
