package tabletmanager

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	"example.test/sqlproxy/gen/tabletmanagerpb"
	"example.test/sqlproxy/internal/servenv"
	"example.test/sqlproxy/topo"
)

func peerAddr(ctx context.Context) string {
	if p, ok := peer.FromContext(ctx); ok {
		return p.Addr.String()
	}
	return "unknown"
}

// Ping echoes its payload.
func (tm *TabletManager) Ping(ctx context.Context, req *tabletmanagerpb.PingRequest) (*tabletmanagerpb.PingResponse, error) {
	servenv.Infof(context.TODO(), "ping from %s", peerAddr(ctx)) // OK: ctxbackground — the root is only logged with (servenv.Infof only reads values)
	return &tabletmanagerpb.PingResponse{Payload: req.GetPayload()}, nil
}

// ReloadSchema reloads the schema of the tablet, after waiting for a
// replication position when one is given.
func (tm *TabletManager) ReloadSchema(ctx context.Context, req *tabletmanagerpb.ReloadSchemaRequest) (*tabletmanagerpb.ReloadSchemaResponse, error) {
	if err := tm.lock(ctx); err != nil {
		return nil, servenv.ToGRPC(err)
	}
	defer tm.unlock()
	if pos := req.GetWaitPosition(); pos != "" {
		if err := tm.mysqld.WaitForPosition(ctx, pos); err != nil {
			return nil, servenv.ToGRPC(err)
		}
	}
	if err := tm.tsv.SchemaEngine().Reload(context.Background()); err != nil { // BUG: ctxbackground — the on-demand reload runs with no deadline, holding the action lock after the caller gave up
		return nil, servenv.ToGRPC(err)
	}
	return &tabletmanagerpb.ReloadSchemaResponse{}, nil
}

// GetSchema returns the definitions of tables (all tables when empty).
func (tm *TabletManager) GetSchema(ctx context.Context, req *tabletmanagerpb.GetSchemaRequest) (*tabletmanagerpb.GetSchemaResponse, error) {
	if tm.mysqlVersion == "" {
		v, err := tm.mysqld.Version(context.Background()) // OK: ctxbackground — first use: the handler's branch on tm.mysqlVersion, a field it then sets
		if err != nil {
			return nil, status.Errorf(codes.Unavailable, "mysqld version: %v", err) // OK: statusmask — the error of a call made with a fresh context
		}
		tm.mysqlVersion = v
	}
	defs, err := tm.mysqld.GetSchema(ctx, req.GetTables())
	if err != nil {
		if msg := err.Error(); strings.Contains(msg, "deadline") || strings.Contains(msg, "canceled") {
			return nil, status.Error(codes.DeadlineExceeded, msg)
		}
		return nil, status.Errorf(codes.Internal, "get schema: %v", err) // OK?: statusmask — the handler tests the error's text for "deadline" first (the tool reports it: by the catalogue a test that the words are absent tells nothing apart, and a query cancelled mid-flight may fail with other words)
	}
	return &tabletmanagerpb.GetSchemaResponse{Tables: defs, Version: tm.mysqlVersion}, nil
}

// ExecuteHook runs the hook script name from the hook directory.
func (tm *TabletManager) ExecuteHook(ctx context.Context, req *tabletmanagerpb.ExecuteHookRequest) (*tabletmanagerpb.ExecuteHookResponse, error) {
	name := req.GetName()
	if name == "" || strings.ContainsAny(name, `/\`) {
		return nil, status.Errorf(codes.InvalidArgument, "bad hook name %q", name)
	}
	if err := tm.lock(ctx); err != nil {
		return nil, servenv.ToGRPC(err)
	}
	defer tm.unlock()
	cmd := exec.Command(filepath.Join(tm.hookDir, name), req.GetParameters()...) // BUG: ctxless — exec.CommandContext exists: the hook keeps running, holding the action lock, after the caller's deadline
	cmd.Env = os.Environ()
	for k, v := range req.GetExtraEnv() {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	resp := &tabletmanagerpb.ExecuteHookResponse{Stdout: stdout.String(), Stderr: stderr.String()}
	if exitErr, ok := err.(*exec.ExitError); ok {
		resp.ExitStatus = int64(exitErr.ExitCode())
	} else if err != nil {
		return nil, status.Errorf(codes.Internal, "hook %s: %v", name, err) // OK: statusmask — cmd.Run is given no ctx: its error is no deadline of the request
	}
	return resp, nil
}

// ChangeType changes the type of the tablet in the topo and in the tablet
// server.
func (tm *TabletManager) ChangeType(ctx context.Context, req *tabletmanagerpb.ChangeTypeRequest) (*tabletmanagerpb.ChangeTypeResponse, error) {
	if err := tm.lock(ctx); err != nil {
		return nil, servenv.ToGRPC(err)
	}
	defer tm.unlock()
	servenv.Infof(tm.ctx, "ChangeType(%s) requested by %s", req.GetTabletType(), peerAddr(ctx)) // OK: ctxflow — the lifetime ctx only carries values to a logger
	tablet, err := tm.ts.GetTablet(ctx, tm.alias)
	if err != nil {
		return nil, servenv.ToGRPC(err)
	}
	newType := req.GetTabletType()
	if err := tm.ts.UpdateTabletType(ctx, tm.alias, newType); err != nil {
		return nil, servenv.ToGRPC(err)
	}
	if err := tm.tsv.SetServingType(ctx, newType); err != nil {
		// Put the topo record back before failing: the caller's ctx may be
		// what ran out.
		uctx, cancel := context.WithTimeout(context.Background(), topo.RemoteOperationTimeout) // OK: ctxbackground — a bounded fresh ctx made only on the way out of a failure the handler returns
		defer cancel()
		_ = tm.ts.UpdateTabletType(uctx, tm.alias, tablet.Type)
		return nil, err
	}
	tm.mu.Lock()
	if tm.reporter != nil {
		tm.reporter.Stop()
		tm.reporter = nil
	}
	if newType == "primary" {
		tm.reporter = newReplicationReporter(tm.mysqld, tm.ts, tm.alias)
		tm.reporter.Run(context.Background()) // OK: ctxbackground — Run uses its ctx only to make the reporter's lifetime, keeping the cancel for Stop
	}
	tm.mu.Unlock()
	go tm.fixSemiSync(context.WithoutCancel(ctx), req.GetSemiSync()) // OK: detach — bounded: fixSemiSync applies its own WithTimeout
	return &tabletmanagerpb.ChangeTypeResponse{}, nil
}

// ExecuteFetchAsDba runs a query as the DBA user.
func (tm *TabletManager) ExecuteFetchAsDba(ctx context.Context, req *tabletmanagerpb.ExecuteFetchRequest) (*tabletmanagerpb.ExecuteFetchResponse, error) {
	if err := tm.lock(ctx); err != nil {
		return nil, servenv.ToGRPC(err)
	}
	defer tm.unlock()
	resp, err := tm.mysqld.FetchSuperQuery(tm.ctx, req.GetQuery(), int(req.GetMaxRows())) // BUG: ctxflow — the DBA query runs on the manager's lifetime ctx: the caller's deadline never reaches MySQL
	if err != nil {
		return nil, servenv.ToGRPC(err)
	}
	if req.GetReloadSchema() {
		if err := tm.tsv.SchemaEngine().Reload(ctx); err != nil {
			return nil, servenv.ToGRPC(err)
		}
	}
	return resp, nil
}

// Backup takes a backup of the tablet and streams its progress.
func (tm *TabletManager) Backup(req *tabletmanagerpb.BackupRequest, stream tabletmanagerpb.TabletManager_BackupServer) error {
	ctx := stream.Context()
	if !tm.backupMu.TryLock() {
		return status.Error(codes.FailedPrecondition, "a backup is already running")
	}
	defer tm.backupMu.Unlock()
	// The factory caches the storage handle for the backups that follow.
	bs, err := tm.NewBackupStorage(context.Background(), "default") // OK?: ctxbackground — a root handed to a function value the analysis cannot follow (a factory in a struct field, wired by main) (the tool reports it: a root the handler writes itself is reported whatever the function value does; the chain stops at such a value only for roots inside callees)
	if err != nil {
		return servenv.ToGRPC(err)
	}
	// A backup must not inherit the short deadline vtctld gives its
	// actions, but it stops when the client goes away.
	bctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — cancelled by context.AfterFunc(ctx, cancel) below: lives as long as the stream
	defer cancel()
	stopAfter := context.AfterFunc(ctx, cancel)
	defer stopAfter()
	events := make(chan backupEvent, 16)
	errc := make(chan error, 1)
	go func() {
		defer close(events)
		errc <- tm.runBackup(bctx, bs, int(req.GetConcurrency()), events)
	}()
	for ev := range events {
		if err := stream.Send(&tabletmanagerpb.BackupResponse{Event: ev.msg, Bytes: ev.bytes}); err != nil {
			cancel() // runBackup's sends give up once bctx is done
			return err
		}
	}
	return servenv.ToGRPC(<-errc)
}
