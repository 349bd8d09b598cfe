// Package nodes is the control plane's node service: agents register, heartbeat and fetch
// their sidecar's bootstrap here.
package nodes

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"text/template"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/mesh/gen/nodev1"
	"example.test/mesh/internal/errs"
	"example.test/mesh/internal/store"
	"example.test/mesh/internal/telemetry"
)

type session struct {
	node     string
	lastSeen time.Time
	probes   map[string]string
}

// Server implements nodev1.NodeServiceServer.
type Server struct {
	nodev1.UnimplementedNodeServiceServer

	store   *store.Store
	version string
	adsAddr string
	peers   []string
	log     *telemetry.Logger

	mu       sync.Mutex
	sessions map[string]*session

	tmpl atomic.Pointer[template.Template]
}

// NewServer returns the node service.
func NewServer(st *store.Store, version, adsAddr string, peers []string) *Server {
	return &Server{store: st, version: version, adsAddr: adsAddr, peers: peers, log: telemetry.NewLogger("nodes"), sessions: map[string]*session{}}
}

// Register registers the server.
func (s *Server) Attach(g *grpc.Server) { nodev1.RegisterNodeServiceServer(g, s) }

func (s *Server) Register(ctx context.Context, req *nodev1.RegisterRequest) (*nodev1.RegisterResponse, error) {
	_, err := s.store.Create(ctx, store.Resource{Key: store.Key{Mesh: "system", Type: "Node", Name: req.GetNodeId()}, Labels: map[string]string{"zone": req.GetZone(), "version": req.GetVersion()}})
	if err != nil && errs.Code(err) != codes.Aborted {
		return nil, status.Error(errs.Code(err), err.Error())
	}
	id := newSessionID()
	s.mu.Lock()
	s.sessions[id] = &session{node: req.GetNodeId(), lastSeen: time.Now()}
	s.mu.Unlock()
	s.monitor(context.Background(), id) // OK: ctxbackground — monitor uses the root only in the goroutine it starts: the session's lifetime
	go s.announce(ctx, req.GetNodeId())
	return &nodev1.RegisterResponse{SessionId: id, HeartbeatIntervalMs: 5000}, nil
}

func newSessionID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// monitor drops the session when it has not been seen for a minute.
func (s *Server) monitor(ctx context.Context, id string) {
	go func() {
		t := time.NewTicker(15 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				s.mu.Lock()
				sess, ok := s.sessions[id]
				if ok && time.Since(sess.lastSeen) > time.Minute {
					delete(s.sessions, id)
					ok = false
				}
				s.mu.Unlock()
				if !ok {
					_ = s.store.Delete(ctx, store.Key{Mesh: "system", Type: "Node", Name: id}, 0)
					return
				}
			}
		}
	}()
}

// announce tells the peer control planes that a node joined, so that they drop any session
// they still hold for it.
func (s *Server) announce(ctx context.Context, node string) {
	s.log.Debug(ctx, "announce", "node", node)
	for attempt := 1; attempt <= 5; attempt++ {
		if s.notifyPeers(node) == nil {
			return
		}
		time.Sleep(time.Duration(attempt) * 200 * time.Millisecond) // BUG: ctxless — a retry backoff in a method the handler starts with go s.announce(ctx, …); no turn checks the ctx
	}
}

func (s *Server) notifyPeers(node string) error {
	var firstErr error
	for _, p := range s.peers {
		c, err := net.DialTimeout("udp", p, time.Second) // OK: ctxless — a helper of announce, not a request scope itself; ctxless looks only in scopes
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		_, err = c.Write([]byte("joined " + node))
		c.Close()
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return firstErr
}

func (s *Server) Heartbeat(ctx context.Context, req *nodev1.HeartbeatRequest) (*nodev1.HeartbeatResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[req.GetSessionId()]
	if !ok {
		return &nodev1.HeartbeatResponse{Reregister: true}, nil
	}
	sess.lastSeen = time.Now()
	sess.probes = req.GetProbeResults()
	if req.GetProbeResults()["leaving"] == "true" {
		delete(s.sessions, req.GetSessionId())
		key := store.Key{Mesh: "system", Type: "Node", Name: sess.node}
		// a node's departure is recorded even when the agent hangs up right after telling us;
		// the store bounds every statement by its own statement timeout
		go func() {
			_ = s.store.Delete(context.WithoutCancel(ctx), key, 0) // OK: detach — the reason is the comment above the enclosing go statement
		}()
	}
	return &nodev1.HeartbeatResponse{}, nil
}

func (s *Server) Ping(ctx context.Context, req *nodev1.PingRequest) (*nodev1.PingResponse, error) {
	slog.Debug("ping", "version", s.version) // OK: ctxless — slog's DebugContext only reads values from its ctx
	return &nodev1.PingResponse{Version: s.version}, nil
}

func (s *Server) GetBootstrap(ctx context.Context, req *nodev1.BootstrapRequest) (*nodev1.BootstrapResponse, error) {
	tmpl, err := s.template() // OK: ctxbackground — the template is read from the store on first use only and kept in an atomic field
	if err != nil {
		return nil, status.Errorf(codes.FailedPrecondition, "bootstrap template: %v", err) // OK: statusmask — template() takes no ctx of the request's
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, map[string]string{"Node": req.GetNodeId(), "Workload": req.GetWorkload(), "ADS": s.adsAddr}); err != nil {
		return nil, status.Errorf(codes.Internal, "render bootstrap: %v", err) // OK: statusmask — template execution takes no ctx
	}
	return &nodev1.BootstrapResponse{Config: buf.Bytes(), AdsAddress: s.adsAddr}, nil
}

func (s *Server) template() (*template.Template, error) {
	if t := s.tmpl.Load(); t != nil {
		return t, nil
	}
	r, err := s.store.Get(context.Background(), store.Key{Mesh: "system", Type: "BootstrapTemplate", Name: "default"})
	if err != nil {
		return nil, err
	}
	t, err := template.New("bootstrap").Parse(string(r.Spec))
	if err != nil {
		return nil, err
	}
	s.tmpl.Store(t)
	return t, nil
}

// ExpireSessions drops sessions not seen for ttl, until ctx is done.
func (s *Server) ExpireSessions(ctx context.Context, ttl time.Duration) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(ttl / 2):
		}
		s.mu.Lock()
		for id, sess := range s.sessions {
			if time.Since(sess.lastSeen) > ttl {
				delete(s.sessions, id)
			}
		}
		s.mu.Unlock()
	}
}
