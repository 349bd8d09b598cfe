package reconciler

import (
	"context"
	"strconv"
	"sync"
	"time"

	"example.test/mesh/gen/cav1"
	"example.test/mesh/gen/discoveryv1"
	"example.test/mesh/internal/store"
	"example.test/mesh/internal/telemetry"
	"example.test/mesh/internal/xds"
)

// Reconciler builds snapshots for every node of a mesh when the mesh changes.
type Reconciler struct {
	store   *store.Store
	cache   *xds.SnapshotCache
	gen     *xds.Generator
	ca      cav1.CertificateAuthorityClient
	elector *LeaderElector
	log     *telemetry.Logger
	queue   chan string

	mu         sync.Mutex
	identities map[string]map[string]string // mesh → identity → serial
}

// New returns a reconciler campaigning as id.
func New(st *store.Store, cache *xds.SnapshotCache, gen *xds.Generator, ca cav1.CertificateAuthorityClient, id string) *Reconciler {
	log := telemetry.NewLogger("reconciler")
	return &Reconciler{
		store:      st,
		cache:      cache,
		gen:        gen,
		ca:         ca,
		elector:    &LeaderElector{store: st, id: id, lease: 15 * time.Second, retry: 2 * time.Second, log: log},
		log:        log,
		queue:      make(chan string, 256),
		identities: map[string]map[string]string{},
	}
}

// Trigger asks for a mesh to be reconciled; the work happens on the leader's loop.
func (r *Reconciler) Trigger(mesh string) {
	select {
	case r.queue <- mesh:
	default:
		r.log.Warn(context.Background(), "reconcile queue full", "mesh", mesh)
	}
}

// Run campaigns for leadership and reconciles while leading, until ctx is done.
func (r *Reconciler) Run(ctx context.Context) {
	r.elector.Run(ctx, r.lead)
}

func (r *Reconciler) lead(ctx context.Context) {
	r.log.Info(ctx, "leading")
	for {
		select {
		case <-ctx.Done():
			// leadership lost or shutting down: record the hand-over so the next leader
			// starts with a full resync
			r.recordHandover(context.WithoutCancel(ctx)) // OK: detach — detaches the leader's lifetime ctx, not a request's
			return
		case mesh := <-r.queue:
			rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			if err := r.Reconcile(rctx, mesh); err != nil {
				r.log.Warn(rctx, "reconcile", "mesh", mesh, "err", err)
			}
			cancel()
		}
	}
}

func (r *Reconciler) recordHandover(ctx context.Context) {
	_, _ = r.store.Create(ctx, store.Resource{Key: store.Key{Mesh: "system", Type: "Handover", Name: strconv.FormatInt(time.Now().UnixNano(), 10)}})
}

// Reconcile rebuilds the snapshots of every node of mesh.
func (r *Reconciler) Reconcile(ctx context.Context, mesh string) error {
	policies, rev, err := r.store.List(ctx, mesh, "TrafficPolicy")
	if err != nil {
		return err
	}
	r.gen.Update(mesh, policies)
	idents, _, err := r.store.List(ctx, mesh, "WorkloadIdentity")
	if err != nil {
		return err
	}
	removed := r.diffIdentities(mesh, idents)
	snap := &xds.Snapshot{Version: strconv.FormatInt(rev, 10), Resources: map[string][]*discoveryv1.Resource{}}
	for _, p := range policies {
		snap.Resources[xds.TypeTrafficPolicy] = append(snap.Resources[xds.TypeTrafficPolicy],
			&discoveryv1.Resource{Name: p.Name, TypeUrl: xds.TypeTrafficPolicy, Version: strconv.FormatInt(p.Version, 10), Body: p.Spec})
	}
	for _, node := range r.cache.Nodes() {
		r.cache.SetSnapshot(node, snap)
	}
	r.cache.MarkReady()
	r.revokeRemoved(removed)
	return nil
}

func (r *Reconciler) diffIdentities(mesh string, idents []store.Resource) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := map[string]string{}
	for _, id := range idents {
		seen[id.Name] = id.Labels["serial"]
	}
	var removed []string
	for name, serial := range r.identities[mesh] {
		if _, ok := seen[name]; !ok && serial != "" {
			removed = append(removed, serial)
		}
	}
	r.identities[mesh] = seen
	return removed
}

func (r *Reconciler) revokeRemoved(serials []string) {
	for _, serial := range serials {
		if _, err := r.ca.RevokeCertificate(context.TODO(), &cav1.RevokeRequest{Serial: serial, Reason: "workload removed"}); err != nil { // BUG: missingdeadline — a unary call to the CA on TODO, no deadline
			r.log.Warn(context.TODO(), "revoke", "serial", serial, "err", err)
		}
	}
}

// Close gives up leadership.
func (r *Reconciler) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK: ctxbackground — Close is not a request scope; bounded
	defer cancel()
	return r.elector.Release(ctx)
}
