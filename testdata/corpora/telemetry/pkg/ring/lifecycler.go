package ring

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"example.test/telemetry/gen/ringpb"
	"example.test/telemetry/pkg/util/log"
)

// LifecyclerConfig configures heartbeats.
type LifecyclerConfig struct {
	ID               string
	Addr             string
	NumTokens        int
	HeartbeatPeriod  time.Duration
	HeartbeatTimeout time.Duration
	JoinTimeout      time.Duration
}

// Lifecycler registers this instance in the ring and keeps it alive.
type Lifecycler struct {
	cfg    LifecyclerConfig
	client ringpb.MemberlistClient
	ring   *Ring

	mu     sync.Mutex
	desc   InstanceDesc
	stop   chan struct{}
	done   chan struct{}
	cancel context.CancelFunc
}

// NewLifecycler returns a lifecycler gossiping through client.
func NewLifecycler(cfg LifecyclerConfig, client ringpb.MemberlistClient, r *Ring) *Lifecycler {
	tokens := make([]uint32, cfg.NumTokens)
	for i := range tokens {
		tokens[i] = rand.Uint32()
	}
	return &Lifecycler{
		cfg:    cfg,
		client: client,
		ring:   r,
		desc:   InstanceDesc{ID: cfg.ID, Addr: cfg.Addr, Tokens: tokens, State: "JOINING"},
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
}

// Name implements services.Service.
func (l *Lifecycler) Name() string { return "lifecycler" }

// Start joins the ring and starts heartbeating.
func (l *Lifecycler) Start(ctx context.Context) error {
	ctx, l.cancel = context.WithCancel(ctx)
	// Join: the first heartbeat must answer within JoinTimeout.
	jctx, cancelJoin := context.WithCancel(ctx)
	watchdog := time.AfterFunc(l.cfg.JoinTimeout, cancelJoin)
	resp, err := l.client.Heartbeat(jctx, l.request()) // OK: missingdeadline — a timer cancels the ctx after JoinTimeout
	watchdog.Stop()
	cancelJoin()
	if err != nil {
		l.cancel()
		return err
	}
	l.ring.Update(fromProto(resp.GetMembers()))
	l.mu.Lock()
	l.desc.State = "ACTIVE"
	l.mu.Unlock()
	go l.loop(ctx)
	return nil
}

func (l *Lifecycler) loop(ctx context.Context) {
	defer close(l.done)
	t := time.NewTicker(l.cfg.HeartbeatPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.stop:
			return
		case <-t.C:
			l.heartbeat(ctx)
		}
	}
}

func (l *Lifecycler) request() *ringpb.HeartbeatRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.desc.Heartbeat = time.Now()
	return &ringpb.HeartbeatRequest{Instance: toProto(l.desc)}
}

func (l *Lifecycler) heartbeat(ctx context.Context) {
	hctx, cancel := context.WithTimeout(ctx, l.cfg.HeartbeatTimeout)
	defer cancel()
	resp, err := l.client.Heartbeat(hctx, l.request()) // OK: missingdeadline — each heartbeat gets HeartbeatTimeout
	if err != nil {
		log.Warn(ctx, "heartbeat failed", "err", err)
		return
	}
	l.ring.Update(fromProto(resp.GetMembers()))
}

// Stop leaves the ring.
func (l *Lifecycler) Stop() error {
	close(l.stop)
	<-l.done
	l.mu.Lock()
	l.desc.State = "LEAVING"
	l.mu.Unlock()
	_, err := l.client.Heartbeat(context.Background(), l.request()) // BUG: missingdeadline — the leave heartbeat on shutdown has no deadline and can hang Stop forever
	l.cancel()
	return err
}

func toProto(d InstanceDesc) *ringpb.InstanceDesc {
	return &ringpb.InstanceDesc{Id: d.ID, Addr: d.Addr, Tokens: d.Tokens, HeartbeatUnix: d.Heartbeat.Unix(), State: d.State}
}

func fromProto(ms []*ringpb.InstanceDesc) []InstanceDesc {
	out := make([]InstanceDesc, 0, len(ms))
	for _, m := range ms {
		out = append(out, InstanceDesc{ID: m.GetId(), Addr: m.GetAddr(), Tokens: m.GetTokens(), Heartbeat: time.Unix(m.GetHeartbeatUnix(), 0), State: m.GetState()})
	}
	return out
}
