package ring

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/telemetry/gen/ringpb"
	"example.test/telemetry/pkg/objstore"
	"example.test/telemetry/pkg/util/log"
	"example.test/telemetry/pkg/util/metrics"
)

var gossipReceived = metrics.NewCounter("memberlist_heartbeats_received_total")

// Memberlist serves heartbeats and answers with the ring it knows.
type Memberlist struct {
	ringpb.UnimplementedMemberlistServer

	ring      *Ring
	bucket    objstore.Bucket
	clusterID atomic.Pointer[string]
	watchers  []chan struct{}

	probesMu sync.Mutex
	probes   map[string]bool
}

// NewMemberlist returns a memberlist server over r; the cluster seed lives in
// bucket.
func NewMemberlist(r *Ring, bucket objstore.Bucket) *Memberlist {
	return &Memberlist{ring: r, bucket: bucket, probes: map[string]bool{}}
}

// Register registers the memberlist service on s.
func (m *Memberlist) Register(s *grpc.Server) { ringpb.RegisterMemberlistServer(s, m) }

// Watch returns a channel that is signalled when the ring changes.
func (m *Memberlist) Watch() <-chan struct{} {
	ch := make(chan struct{}, 1)
	m.watchers = append(m.watchers, ch)
	return ch
}

// ClusterID returns the cluster seed, read from the bucket on first use and
// kept for the life of the process.
func (m *Memberlist) ClusterID(ctx context.Context) (string, error) {
	if id := m.clusterID.Load(); id != nil {
		return *id, nil
	}
	data, err := m.bucket.Get(ctx, "cluster_seed.json")
	if err != nil && !errors.Is(err, objstore.ErrObjectNotFound) {
		return "", err
	}
	var seed struct {
		UID string `json:"UID"`
	}
	if len(data) > 0 {
		if err := json.Unmarshal(data, &seed); err != nil {
			return "", err
		}
	}
	m.clusterID.Store(&seed.UID)
	return seed.UID, nil
}

// startProbe starts probing a member the first time it is seen; the probe
// runs until the member has been unreachable for a minute.
func (m *Memberlist) startProbe(in InstanceDesc) {
	m.probesMu.Lock()
	defer m.probesMu.Unlock()
	if m.probes[in.ID] {
		return
	}
	m.probes[in.ID] = true
	go m.probeLoop(context.Background(), in) // OK: ctxbackground — not a request scope: the probe's lifetime, started by a helper
}

func (m *Memberlist) probeLoop(ctx context.Context, in InstanceDesc) {
	defer func() {
		m.probesMu.Lock()
		delete(m.probes, in.ID)
		m.probesMu.Unlock()
	}()
	d := net.Dialer{Timeout: time.Second}
	var lastOK = time.Now()
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for range t.C {
		conn, err := d.DialContext(ctx, "tcp", in.Addr)
		if err == nil {
			_ = conn.Close()
			lastOK = time.Now()
			continue
		}
		if time.Since(lastOK) > time.Minute {
			log.Warn(ctx, "member unreachable, stopping probe", "id", in.ID, "addr", in.Addr)
			return
		}
	}
}

// Heartbeat implements ringpb.MemberlistServer.
func (m *Memberlist) Heartbeat(ctx context.Context, req *ringpb.HeartbeatRequest) (*ringpb.HeartbeatResponse, error) {
	if req.GetInstance() == nil {
		return nil, status.Error(codes.InvalidArgument, "missing instance")
	}
	gossipReceived.Add(context.Background(), 1, req.GetInstance().GetId()) // OK: ctxbackground — metric record only carries values
	if _, err := m.ClusterID(context.Background()); err != nil {           // OK: ctxbackground — first use of shared state kept in an atomic field
		log.Warn(ctx, "cluster seed unavailable", "err", err)
	}
	in := fromProto([]*ringpb.InstanceDesc{req.GetInstance()})
	m.ring.Update(in)
	m.startProbe(in[0]) // OK: ctxbackground — the root is only used by a goroutine the helper starts
	for _, w := range m.watchers {
		select {
		case w <- struct{}{}:
		default:
		}
	}
	members := m.ring.Members()
	resp := &ringpb.HeartbeatResponse{Members: make([]*ringpb.InstanceDesc, 0, len(members))}
	for _, d := range members {
		resp.Members = append(resp.Members, toProto(d))
	}
	return resp, nil
}
