package vtctld

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/sqlproxy/gen/adminpb"
	"example.test/sqlproxy/gen/tabletmanagerpb"
	"example.test/sqlproxy/internal/servenv"
	"example.test/sqlproxy/topo"
	"example.test/sqlproxy/workflow"
)

// GetKeyspaces lists every keyspace.
func (s *Server) GetKeyspaces(ctx context.Context, _ *adminpb.GetKeyspacesRequest) (*adminpb.GetKeyspacesResponse, error) {
	names, err := s.ts.GetKeyspaceNames(ctx)
	if err != nil {
		return nil, servenv.ToGRPC(err)
	}
	resp := &adminpb.GetKeyspacesResponse{}
	for _, n := range names {
		ks, err := s.ts.GetKeyspace(ctx, n)
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				return nil, status.Error(codes.DeadlineExceeded, err.Error())
			}
			return nil, status.Errorf(codes.Internal, "keyspace %s: %v", n, err) // OK: statusmask — errors.Is(err, context.DeadlineExceeded) is checked first
		}
		resp.Keyspaces = append(resp.Keyspaces, &adminpb.Keyspace{Name: ks.Name, Shards: ks.Shards, ShardingColumn: ks.ShardingColumn})
	}
	return resp, nil
}

// GetKeyspace returns one keyspace.
func (s *Server) GetKeyspace(ctx context.Context, req *adminpb.GetKeyspaceRequest) (*adminpb.GetKeyspaceResponse, error) {
	id, err := s.ts.ClusterID(context.Background()) // OK: ctxbackground — ClusterID queries only on first use (an atomic field it then sets) and keeps the id
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "cluster id: %v", err) // OK: statusmask — the error of a call made with a fresh context
	}
	ks, err := s.ts.GetKeyspace(ctx, req.GetKeyspace())
	if err != nil {
		if errors.Is(err, topo.ErrNoNode) {
			return nil, status.Errorf(codes.NotFound, "keyspace %s not found", req.GetKeyspace())
		}
		return nil, status.Errorf(codes.Internal, "get keyspace: %v", err) // BUG: statusmask — past the ErrNoNode branch, a topo read cut off by the request's deadline becomes Internal
	}
	return &adminpb.GetKeyspaceResponse{
		Keyspace:  &adminpb.Keyspace{Name: ks.Name, Shards: ks.Shards, ShardingColumn: ks.ShardingColumn},
		ClusterId: id,
	}, nil
}

// ReloadSchemaKeyspace reloads the schema on every tablet of a keyspace.
func (s *Server) ReloadSchemaKeyspace(ctx context.Context, req *adminpb.ReloadSchemaKeyspaceRequest) (*adminpb.ReloadSchemaKeyspaceResponse, error) {
	ks, err := s.ts.GetKeyspace(ctx, req.GetKeyspace())
	if err != nil {
		return nil, servenv.ToGRPC(err)
	}
	conc := int(req.GetConcurrency())
	if conc <= 0 {
		conc = 8
	}
	sem := make(chan struct{}, conc)
	var (
		mu     sync.Mutex
		wg     sync.WaitGroup
		events []string
	)
	for _, shard := range ks.Shards {
		tablets, err := s.ts.GetTabletsByShard(ctx, ks.Name, shard)
		if err != nil {
			return nil, servenv.ToGRPC(err)
		}
		for _, t := range tablets {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				err := s.tmc.WithTablet(context.Background(), t.Addr, func(tm tabletmanagerpb.TabletManagerClient) error { // OK: ctxbackground — the root only dials the shared connection and is asked ctx.Err() after fn ran with the request's ctx (reported until the twentieth session: a root used both to dial a cached connection and to ask whether it is done was not recognised)
					_, err := tm.ReloadSchema(ctx, &tabletmanagerpb.ReloadSchemaRequest{}) // OK: missingdeadline — in a request scope (a closure of the handler): inherits the caller's deadline
					return err
				})
				line := t.Alias + ": ok"
				if err != nil {
					line = t.Alias + ": " + err.Error()
				}
				mu.Lock()
				events = append(events, line)
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	// TODO: decide whether the event should be bounded.
	evCtx := context.WithoutCancel(ctx)
	// ^BUG: detach — the handler waits on an unbounded topo write that outlives the caller; a TODO is no reason
	if err := s.ts.RecordEvent(evCtx, ks.Name, "ReloadSchemaKeyspace", strings.Join(events, "; ")); err != nil {
		s.logger.Warn("recording event", "err", err) // OK: ctxless — slog's WarnContext only reads values from its ctx
	}
	return &adminpb.ReloadSchemaKeyspaceResponse{Events: events}, nil
}

func (s *Server) buildSpec(ctx context.Context, req *adminpb.ReshardRequest) (workflow.Spec, error) {
	spec := workflow.Spec{
		Name:          req.GetWorkflow(),
		Keyspace:      req.GetKeyspace(),
		SourceShards:  req.GetSourceShards(),
		TargetShards:  req.GetTargetShards(),
		SourceTablets: map[string]string{},
		TargetTablets: map[string]string{},
		Table:         "*",
	}
	pick := func(shards []string, into map[string]string) error {
		for _, sh := range shards {
			tablets, err := s.ts.GetTabletsByShard(ctx, spec.Keyspace, sh)
			if err != nil {
				return err
			}
			for _, t := range tablets {
				if t.Type == "primary" {
					into[sh] = t.Addr
				}
			}
		}
		return nil
	}
	if err := pick(spec.SourceShards, spec.SourceTablets); err != nil {
		return spec, err
	}
	return spec, pick(spec.TargetShards, spec.TargetTablets)
}

// Reshard starts a resharding workflow.
func (s *Server) Reshard(ctx context.Context, req *adminpb.ReshardRequest) (resp *adminpb.ReshardResponse, err error) {
	lctx, unlock, lerr := s.ts.LockKeyspace(ctx, req.GetKeyspace(), "Reshard") // OK: ctxbackground — the lease's TTL root goes only to a goroutine LockKeyspace starts, its cancel kept in the lock
	if lerr != nil {
		return nil, servenv.ToGRPC(lerr)
	}
	defer unlock(&err) // OK: ctxbackground — deferred cleanup: the unlock runs on a bounded ctx of its own
	spec, err := s.buildSpec(lctx, req)
	if err != nil {
		return nil, servenv.ToGRPC(err)
	}
	job, err := s.wf.Start(lctx, spec) // OK: ctxbackground — the job's work runs on a goroutine Start starts, after the request
	if err != nil {
		return nil, servenv.ToGRPC(err)
	}
	// Follow the job until it ends; CancelWorkflow stops the watcher.
	wctx, cancel := context.WithCancel(s.ctx) // OK: ctxflow — a child of the server's lifetime ctx whose cancel the server keeps by the job's id
	s.mu.Lock()
	s.watchers[job.ID] = cancel
	s.mu.Unlock()
	go s.watchJob(wctx, job.ID) // OK: ctxflow — the watcher runs on that child, ended through s.watchers
	return &adminpb.ReshardResponse{WorkflowId: job.ID}, nil
}

// WorkflowStatus returns the state of a workflow.
func (s *Server) WorkflowStatus(ctx context.Context, req *adminpb.WorkflowStatusRequest) (*adminpb.WorkflowStatusResponse, error) {
	state, rows, msg, err := s.wf.Status(ctx, req.GetWorkflowId())
	if err != nil {
		return nil, status.Errorf(codes.NotFound, "%v", err) // OK: statusmask — Status never refers to its ctx: its error is no deadline
	}
	return &adminpb.WorkflowStatusResponse{State: string(state), RowsCopied: rows, Message: msg}, nil
}

// CancelWorkflow cancels a workflow.
func (s *Server) CancelWorkflow(ctx context.Context, req *adminpb.CancelWorkflowRequest) (*adminpb.CancelWorkflowResponse, error) {
	id := req.GetWorkflowId()
	if err := s.wf.Cancel(id, req.GetReason()); err != nil {
		return nil, status.Errorf(codes.NotFound, "cancel: %v", err) // OK: statusmask — Cancel is given no ctx
	}
	s.mu.Lock()
	if cancel, ok := s.watchers[id]; ok {
		cancel()
		delete(s.watchers, id)
	}
	s.mu.Unlock()
	servenv.Infof(ctx, "workflow %s cancelled", id)
	go s.ts.RecordEvent(servenv.DetachedContext(ctx), "", "WorkflowCancelled", id+": "+req.GetReason()) // OK: ctxbackground — DetachedContext is a documented by-hand detach (values only): WithoutCancel written out, its doc comment the reason
	return &adminpb.CancelWorkflowResponse{}, nil
}

type actionContext struct {
	ctx    context.Context
	logger *slog.Logger
	alias  string
}

// ChangeTabletType changes the type of one tablet.
func (s *Server) ChangeTabletType(ctx context.Context, req *adminpb.ChangeTabletTypeRequest) (*adminpb.ChangeTabletTypeResponse, error) {
	ac := &actionContext{ctx: s.ctx, logger: s.logger.With("action", "ChangeTabletType"), alias: req.GetTabletAlias()}
	tablet, err := s.ts.GetTablet(ctx, ac.alias)
	if err != nil {
		return nil, servenv.ToGRPC(err)
	}
	if err := s.tmc.ChangeType(ac.ctx, tablet.Addr, req.GetDbType(), req.GetDbType() == "primary"); err != nil { // BUG: ctxflow — ac.ctx, built in the handler, is the server's lifetime ctx: the caller's deadline and cancellation never reach the tablet
		return nil, servenv.ToGRPC(err)
	}
	ac.logger.Info("tablet type changed", "tablet", ac.alias, "type", req.GetDbType()) // OK: ctxless — slog's InfoContext only reads values from its ctx
	return &adminpb.ChangeTabletTypeResponse{}, nil
}

func (s *Server) restorePrimary(ctx context.Context, alias string) {
	t, err := s.ts.GetTablet(ctx, alias)
	if err != nil {
		servenv.Errorf(ctx, "cannot restore primary %s: %v", alias, err)
		return
	}
	if err := s.tmc.ChangeType(ctx, t.Addr, "primary", true); err != nil {
		servenv.Errorf(ctx, "cannot restore primary %s: %v", alias, err)
	}
}

// PlannedReparentShard promotes new_primary and demotes the current primary.
func (s *Server) PlannedReparentShard(ctx context.Context, req *adminpb.PlannedReparentShardRequest) (resp *adminpb.PlannedReparentShardResponse, err error) {
	lctx, unlock, lerr := s.ts.LockKeyspace(ctx, req.GetKeyspace(), "PlannedReparentShard") // OK: ctxbackground — the lease's TTL root goes only to a goroutine LockKeyspace starts, its cancel kept in the lock
	if lerr != nil {
		return nil, servenv.ToGRPC(lerr)
	}
	defer unlock(&err) // OK: ctxbackground — deferred cleanup: the unlock runs on a bounded ctx of its own
	shard, version, err := s.ts.GetShard(lctx, req.GetKeyspace(), req.GetShard())
	if err != nil {
		return nil, servenv.ToGRPC(err)
	}
	newPrimary, err := s.ts.GetTablet(lctx, req.GetNewPrimary())
	if err != nil {
		return nil, servenv.ToGRPC(err)
	}
	oldAlias := shard.PrimaryAlias
	if old, err := s.ts.GetTablet(lctx, oldAlias); err == nil {
		if err := s.tmc.ChangeType(lctx, old.Addr, "replica", false); err != nil {
			return nil, servenv.ToGRPC(err)
		}
	}
	if err := s.tmc.ChangeType(lctx, newPrimary.Addr, "primary", true); err != nil {
		s.restorePrimary(context.Background(), oldAlias) // OK?: ctxbackground — an unbounded undo made only in the failure branch the handler returns from; the catalogue's in-handler examples are bounded
		return nil, err
	}
	shard.PrimaryAlias = newPrimary.Alias
	if err := s.ts.UpdateShard(lctx, shard, version); err != nil {
		rctx, cancel := context.WithTimeout(context.Background(), topo.RemoteOperationTimeout) // OK: ctxbackground — a bounded fresh ctx made only on the way out of a failure the handler returns
		defer cancel()
		s.restorePrimary(rctx, oldAlias)
		return nil, err
	}
	tr := newReplTracker(s.tmc, newPrimary)
	tr.Run(s.ctx) // OK: ctxflow — Run uses the ctx only to make the tracker's lifetime, keeping the cancel for Stop
	key := req.GetKeyspace() + "/" + req.GetShard()
	s.mu.Lock()
	if prev := s.trackers[key]; prev != nil {
		prev.Stop()
	}
	s.trackers[key] = tr
	s.mu.Unlock()
	return &adminpb.PlannedReparentShardResponse{PromotedPrimary: newPrimary.Alias}, nil
}

const debugCommands = false

type command func(ctx context.Context, s *Server, args []string, out chan<- string) error

var commands = map[string]command{
	"PingTablet": func(ctx context.Context, s *Server, args []string, out chan<- string) error {
		if len(args) != 1 {
			return fmt.Errorf("usage: PingTablet <alias>")
		}
		t, err := s.ts.GetTablet(ctx, args[0])
		if err == nil {
			err = s.tmc.PingTablet(ctx, t.Addr)
		}
		if err == nil {
			out <- t.Alias + " is alive"
		}
		return err
	},
}

// ExecuteVtctlCommand runs a legacy vtctl command and streams its output.
func (s *Server) ExecuteVtctlCommand(req *adminpb.ExecuteVtctlCommandRequest, stream adminpb.Vtctld_ExecuteVtctlCommandServer) error {
	ctx := stream.Context()
	args := req.GetArgs()
	if len(args) == 0 {
		return status.Error(codes.InvalidArgument, "no command")
	}
	cmd, ok := commands[args[0]]
	if !ok {
		return status.Errorf(codes.InvalidArgument, "unknown command %q", args[0])
	}
	if debugCommands {
		names, _ := s.ts.GetKeyspaceNames(context.Background()) // OK: ctxbackground — under `if debugCommands` with `const debugCommands = false`: never runs
		_ = names
	}
	servenv.Inject("vtctld/beforeCommand", func() {
		_ = s.ts.RecordEvent(context.Background(), "", "failpoint", args[0]) // OK: ctxbackground — in a literal handed to servenv.Inject, which never refers to it: the literal never runs
	})
	out := make(chan string, 16)
	errc := make(chan error, 1)
	go func() {
		defer close(out)
		errc <- cmd(ctx, s, args[1:], out)
	}()
	for line := range out {
		if err := stream.Send(&adminpb.ExecuteVtctlCommandResponse{Event: line}); err != nil {
			return err
		}
	}
	return servenv.ToGRPC(<-errc)
}
