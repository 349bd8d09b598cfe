// Package resourceapi is the mesh's resource API: CRUD and watches over the resource store,
// with admission webhooks and an audit trail.
package resourceapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/mesh/gen/resourcev1"
	"example.test/mesh/internal/audit"
	"example.test/mesh/internal/store"
	"example.test/mesh/internal/telemetry"
)

const debugAdmission = false

// Server implements resourcev1.ResourceServiceServer.
type Server struct {
	resourcev1.UnimplementedResourceServiceServer

	store   *store.Store
	admit   admitter
	schemas schemaRegistry
	quota   *quota
	audit   *audit.Log
	log     *telemetry.Logger
	jobs    *workPool

	meshCtx     map[string]context.Context // per-mesh ctx, cancelled when the mesh is deleted
	clusterName string
}

// NewServer returns the resource API. meshes maps each mesh to a ctx cancelled when the mesh is
// deleted.
func NewServer(st *store.Store, webhookURL string, al *audit.Log, meshes map[string]context.Context) *Server {
	log := telemetry.NewLogger("resourceapi")
	return &Server{
		store:   st,
		admit:   &httpAdmitter{url: webhookURL, client: &http.Client{}, log: log},
		schemas: builtinSchemas,
		quota:   &quota{limits: map[string]int{}},
		audit:   al,
		log:     log,
		jobs:    newWorkPool(4, 1024),
		meshCtx: meshes,
	}
}

// Register registers the server.
func (s *Server) Register(g *grpc.Server) { resourcev1.RegisterResourceServiceServer(g, s) }

func toStore(o *resourcev1.Object) store.Resource {
	m := o.GetMeta()
	return store.Resource{Key: store.Key{Mesh: m.GetMesh(), Type: m.GetType(), Name: m.GetName()}, Version: m.GetVersion(), Labels: m.GetLabels(), Spec: o.GetSpec()}
}

func toProto(r store.Resource) *resourcev1.Object {
	return &resourcev1.Object{Meta: &resourcev1.Meta{Mesh: r.Mesh, Type: r.Type, Name: r.Name, Version: r.Version, Labels: r.Labels}, Spec: r.Spec}
}

func (s *Server) Get(ctx context.Context, req *resourcev1.GetRequest) (*resourcev1.Object, error) {
	key := store.Key{Mesh: req.GetMesh(), Type: req.GetType(), Name: req.GetName()}
	r, err := s.store.Get(context.Background(), key) // BUG: ctxbackground — the store read runs on Background, not the request's ctx
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, status.Errorf(codes.NotFound, "%s not found", key)
		}
		return nil, status.Errorf(codes.Internal, "get %s: %v", key, err) // OK: statusmask — the read was made with a fresh ctx: its error is not the request's deadline
	}
	return toProto(r), nil
}

func (s *Server) List(ctx context.Context, req *resourcev1.ListRequest) (*resourcev1.ListResponse, error) {
	if s.clusterName == "" {
		s.clusterName, _ = s.store.ClusterID(context.Background()) // OK: ctxbackground — one-time init in the handler's branch on a field it then sets
	}
	if _, ok := s.schemas.Lookup(context.Background(), req.GetType()); !ok { // OK: ctxbackground — the only registry in sight answers from a compiled-in map and ignores its ctx
		return nil, status.Errorf(codes.InvalidArgument, "unknown type %q", req.GetType())
	}
	info, err := s.meshInfo(ctx, req.GetMesh(), false) // OK: ctxbackground — the Background load is only on meshInfo's warm branch, and this call passes false
	if err != nil {
		return nil, err
	}
	items, rev, err := s.store.List(ctx, req.GetMesh(), req.GetType())
	if err != nil {
		if ctx.Err() != nil {
			return nil, status.FromContextError(ctx.Err()).Err()
		}
		return nil, status.Errorf(codes.Unavailable, "list %s/%s: %v", info.mesh, req.GetType(), err) // OK: statusmask — ctx.Err() is checked first
	}
	out := &resourcev1.ListResponse{Revision: rev}
	for _, it := range items {
		if matches(it.Labels, req.GetLabelSelector()) {
			out.Items = append(out.Items, toProto(it))
		}
	}
	return out, nil
}

type meshInfo struct {
	mesh    string
	objects int
}

func (s *Server) meshInfo(ctx context.Context, mesh string, warm bool) (meshInfo, error) {
	info := meshInfo{mesh: mesh}
	if !warm {
		return info, nil
	}
	items, _, err := s.store.List(context.Background(), mesh, "")
	if err != nil {
		return info, err
	}
	info.objects = len(items)
	s.log.Info(ctx, "mesh warmed", "mesh", mesh, "objects", info.objects)
	return info, nil
}

func (s *Server) Create(ctx context.Context, req *resourcev1.PutRequest) (*resourcev1.Object, error) {
	r := toStore(req.GetObject())
	sc, ok := s.schemas.Lookup(ctx, r.Type)
	if !ok || len(r.Spec) > sc.MaxSpecLen {
		return nil, status.Errorf(codes.InvalidArgument, "invalid %s", r.Type)
	}
	if !s.quota.Check(context.Background(), r.Mesh, 0) { // OK: ctxbackground — quota.Check never refers to its ctx
		return nil, status.Errorf(codes.ResourceExhausted, "mesh %s is full", r.Mesh)
	}
	if err := s.admit.Admit(ctx, r); err != nil { // BUG: ctxbackground — the only admitter, httpAdmitter, calls the webhook with context.Background()
		return nil, status.Errorf(codes.InvalidArgument, "admission: %v", err) // OK: statusmask — Admit only logs with the ctx it is given: its error is not the request's deadline
	}
	if debugAdmission {
		_, _ = s.store.Get(context.Background(), r.Key) // OK: ctxbackground — under a false constant: never runs
	}
	if req.GetDryRun() {
		return toProto(r), nil
	}
	created, err := s.createWithFinalizer(ctx, r) // OK: ctxbackground — the helper's Background is a bounded undo in its failure branch, before it returns the error
	if err != nil {
		return nil, status.Error(codes.AlreadyExists, "resource exists or store unavailable") // OK: statusmask — the message is a constant, not built from the error
	}
	if err := s.checkRefs(ctx, created); err != nil {
		cctx, cancel := context.WithTimeout(context.Background(), 3*time.Second) // OK: ctxbackground — undo on the way out of a failure, bounded
		defer cancel()
		_ = s.store.Delete(cctx, created.Key, created.Version)
		s.log.Warn(ctx, "dangling references", "key", created.Key.String(), "err", err)
		return nil, err
	}
	s.audit.Record(audit.Entry{At: time.Now(), Action: "create", Resource: created.Key.String(), Outcome: "ok"})            // OK: ctxless — RecordContext only reads the trace from its ctx
	go s.audit.Write(outlive(ctx), audit.Entry{At: time.Now(), Action: "create-committed", Resource: created.Key.String()}) // OK: detach — no WithoutCancel here: outlive, a documented helper, does the detach
	mesh := r.Mesh
	s.jobs.Submit(func() {
		n, err := s.recount(context.Background(), mesh) // OK?: ctxbackground — a literal made in the handler (a closure of a request scope) but handed to a worker pool that runs it after the request
		if err == nil {
			s.quota.observe(mesh, n)
		}
	})
	return toProto(created), nil
}

// outlive returns ctx without its cancellation or deadline: audit rows are written for every
// change that reached the store, even when the client has gone away.
func outlive(ctx context.Context) context.Context {
	return context.WithoutCancel(ctx) // OK: detach — a documented helper whose job is the detach
}

func (s *Server) recount(ctx context.Context, mesh string) (int, error) {
	items, _, err := s.store.List(ctx, mesh, "")
	return len(items), err
}

// createWithFinalizer creates r and the finalizer row that keeps it from being collected.
func (s *Server) createWithFinalizer(ctx context.Context, r store.Resource) (store.Resource, error) {
	created, err := s.store.Create(ctx, r)
	if err != nil {
		return store.Resource{}, err
	}
	fin := store.Resource{Key: store.Key{Mesh: r.Mesh, Type: "Finalizer", Name: r.Type + "." + r.Name}}
	if _, err := s.store.Create(ctx, fin); err != nil {
		uctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_ = s.store.Delete(uctx, created.Key, created.Version)
		return store.Resource{}, fmt.Errorf("finalizer: %w", err)
	}
	return created, nil
}

func (s *Server) checkRefs(ctx context.Context, r store.Resource) error {
	for _, ref := range strings.Split(r.Labels["refs"], ",") {
		if ref == "" {
			continue
		}
		if _, err := s.store.Get(ctx, store.Key{Mesh: r.Mesh, Type: "TrafficPolicy", Name: ref}); err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) Update(ctx context.Context, req *resourcev1.PutRequest) (*resourcev1.Object, error) {
	r := toStore(req.GetObject())
	failpoint("resourceapi/before-update", func() {
		_, _ = s.store.Get(context.Background(), r.Key) // OK: ctxbackground — a literal handed to a no-op marker never runs
	})
	out, err := s.store.Update(ctx, r)
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "update %s: %v", r.Key, err) // BUG: statusmask — a deadline or a version conflict from the store becomes Unavailable
	}
	entry := audit.Entry{At: time.Now(), Action: "update", Resource: out.Key.String(), Outcome: "ok"}
	go s.audit.Write(context.WithoutCancel(ctx), entry)
	// ^BUG: detach — detached from the request with neither a bound nor a reason
	return toProto(out), nil
}

func (s *Server) Delete(ctx context.Context, req *resourcev1.DeleteRequest) (*resourcev1.DeleteResponse, error) {
	key := store.Key{Mesh: req.GetMesh(), Type: req.GetType(), Name: req.GetName()}
	if err := s.store.Delete(ctx, key, req.GetExpectedVersion()); err != nil {
		if strings.Contains(err.Error(), "deadline") || strings.Contains(err.Error(), "canceled") {
			return nil, status.Error(codes.DeadlineExceeded, err.Error())
		}
		return nil, status.Errorf(codes.Internal, "delete %s: %v", key, err) // OK: statusmask — the error's text was tested for a deadline's and a cancellation's words first
	}
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second) // OK: detach — bounded by the five-second timeout
	defer cancel()
	if err := s.audit.Write(actx, audit.Entry{At: time.Now(), Action: "delete", Resource: key.String(), Outcome: "ok"}); err != nil {
		s.log.Warn(ctx, "audit", "err", err)
	}
	if err := s.audit.Flush(); err != nil { // BUG: ctxless ALSO: ctxbackground — audit.Log has FlushContext, which posts to the sink with its ctx (Flush itself runs it on Background)
		s.log.Warn(ctx, "audit flush", "err", err)
	}
	return &resourcev1.DeleteResponse{}, nil
}

func (s *Server) Watch(req *resourcev1.WatchRequest, stream resourcev1.ResourceService_WatchServer) error {
	ctx := stream.Context()
	mctx, ok := s.meshCtx[req.GetMesh()]
	if !ok {
		return status.Errorf(codes.NotFound, "unknown mesh %q", req.GetMesh())
	}
	events := s.store.Watch(mctx, req.GetMesh(), req.GetType()) // BUG: ctxflow — a per-mesh ctx from a map filled at start-up: the watch outlives the client
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev, ok := <-events:
			if !ok {
				return status.Error(codes.Aborted, "mesh deleted")
			}
			if ev.Revision <= req.GetSinceRevision() {
				continue
			}
			if err := stream.Send(&resourcev1.WatchEvent{Kind: ev.Kind, Object: toProto(ev.Resource), Revision: ev.Revision}); err != nil {
				return err
			}
		}
	}
}

func matches(labels map[string]string, selector string) bool {
	if selector == "" {
		return true
	}
	for _, term := range strings.Split(selector, ",") {
		k, v, _ := strings.Cut(term, "=")
		if labels[k] != v {
			return false
		}
	}
	return true
}
