// Package admin implements the operator AdminService, served over connect on
// the admin port.
package admin

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"connectrpc.com/connect"
	"example.test/storage/gen/storagepb"
	"example.test/storage/gen/storagepb/storagepbconnect"
	"example.test/storage/internal/kv"
	"example.test/storage/internal/meta"
	"example.test/storage/internal/peer"
	"example.test/storage/internal/worker"
)

// LeaderNamer names the current meta leader.
type LeaderNamer interface {
	LeaderName(ctx context.Context) string
}

type staticLeader string

func (l staticLeader) LeaderName(context.Context) string { return string(l) }

type membersLeader struct{ m *meta.Members }

func (l membersLeader) LeaderName(ctx context.Context) string { return l.m.Leader(ctx).Name }

// Manifests records the snapshots taken.
type Manifests struct{ db *sql.DB }

// Record stores the manifest row of a snapshot.
func (m *Manifests) Record(ctx context.Context, path string) error {
	_, err := m.db.ExecContext(ctx, "INSERT INTO snapshots (path, at) VALUES (?, ?)", path, time.Now().Unix())
	return err
}

// Handler is the AdminService.
type Handler struct {
	storagepbconnect.UnimplementedAdminServiceHandler

	compactor *worker.Compactor
	leaders   LeaderNamer
	store     kv.Store
	staging   *kv.SQLStore
	meta      *peer.MetaClient
	manifests *Manifests
	logs      *LogTail
	dataDir   string
	snapDir   string
	info      func() (*storagepb.StatusResponse, error)
}

var _ storagepbconnect.AdminServiceHandler = (*Handler)(nil)

// New returns the admin handler. members is nil on a storage-only node.
func New(compactor *worker.Compactor, members *meta.Members, store kv.Store, mc *peer.MetaClient, db *sql.DB, logs *LogTail, dataDir, snapDir string) *Handler {
	h := &Handler{compactor: compactor, store: store, meta: mc, staging: kv.NewSQLStore(db, "snapshot_staging"), manifests: &Manifests{db: db}, logs: logs, dataDir: dataDir, snapDir: snapDir}
	if members != nil {
		h.leaders = membersLeader{m: members}
	} else {
		h.leaders = staticLeader("")
	}
	h.info = sync.OnceValues(func() (*storagepb.StatusResponse, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		sp, err := h.meta.SafePoint(ctx)
		if err != nil {
			return nil, err
		}
		return &storagepb.StatusResponse{Version: fmt.Sprintf("v1.4.2+sp%d", sp)}, nil
	})
	return h
}

func (h *Handler) Compact(ctx context.Context, req *connect.Request[storagepb.CompactRequest]) (*connect.Response[storagepb.CompactResponse], error) {
	if req.Msg.GetAsync() {
		job := h.compactor.StartJob(req.Msg.GetRegionId()) // OK: ctxbackground — StartJob's root has its cancel kept in the Job and its work runs on a goroutine StartJob starts
		return connect.NewResponse(&storagepb.CompactResponse{JobId: job.ID}), nil
	}
	n, err := h.compactor.CompactNow(ctx, req.Msg.GetRegionId())
	if err != nil {
		return nil, connect.NewError(connect.CodeUnavailable, fmt.Errorf("compact region %d: %w", req.Msg.GetRegionId(), err)) // BUG: statusmask
	}
	return connect.NewResponse(&storagepb.CompactResponse{ReclaimedBytes: n}), nil
}

func (h *Handler) Status(ctx context.Context, req *connect.Request[storagepb.StatusRequest]) (*connect.Response[storagepb.StatusResponse], error) {
	st, err := h.info() // OK: ctxbackground — the root is in a literal run by sync.OnceValues: computed once and kept
	if err != nil {
		return nil, connect.NewError(connect.CodeUnavailable, err)
	}
	leader := h.leaders.LeaderName(context.TODO()) // OK: ctxbackground — every LeaderNamer in sight never uses its ctx (staticLeader, membersLeader over a getter)
	var regions uint64
	err = h.store.Scan(ctx, []byte("region/"), []byte("region0"), func(_, _ []byte) bool {
		regions++
		return true
	})
	if err != nil {
		if connect.CodeOf(err) != connect.CodeUnknown {
			return nil, err
		}
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("count regions: %w", err)) // OK?: statusmask — connect.CodeOf is one of the catalogue's "tells apart" checks, but CodeOf of a bare context.DeadlineExceeded is CodeUnknown, so this still masks it
	}
	return connect.NewResponse(&storagepb.StatusResponse{Leader: leader, Regions: regions, Version: st.GetVersion()}), nil
}

func (h *Handler) Snapshot(ctx context.Context, req *connect.Request[storagepb.SnapshotRequest]) (*connect.Response[storagepb.SnapshotResponse], error) {
	name := filepath.Base(filepath.Clean("/" + req.Msg.GetDir()))
	out := filepath.Join(h.snapDir, name+".tar.gz")
	if _, err := kv.CopyRange(ctx, h.store, h.staging, []byte("region/"), []byte("region0")); err != nil { // OK: ctxbackground — CopyRange's root is cleanup after a failure: it undoes its partial copy on a bounded fresh budget, then wraps and returns the error
		return nil, err
	}
	cmd := exec.Command("tar", "-czf", out, "-C", h.dataDir, ".") // BUG: ctxless
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("tar: %v: %s", err, strings.TrimSpace(string(b)))) // OK: statusmask — the error is of a command not given the request's ctx (that is ctxless's finding above)
	}
	// TODO(ops): bound this once manifests move off the shared database
	mctx := context.WithoutCancel(ctx)
	// ^BUG: detach
	if err := h.manifests.Record(mctx, out); err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return nil, connect.NewError(connect.CodeDeadlineExceeded, err)
		}
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("record manifest: %w", err)) // OK: statusmask — errors.Is of the error against the context errors tells the two apart
	}
	return connect.NewResponse(&storagepb.SnapshotResponse{Path: out}), nil
}

func (h *Handler) TailLog(ctx context.Context, req *connect.Request[storagepb.TailLogRequest], stream *connect.ServerStream[storagepb.LogLine]) error {
	// Following must not be cut short by the client's unary-style timeout,
	// but it ends as soon as the client disconnects.
	fctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — root cancelled by a goroutine once it receives from ctx.Done() (the pre-Go-1.21 AfterFunc)
	defer cancel()
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			cancel()
		case <-done:
		}
	}()
	lines, err := h.logs.Follow(fctx, req.Msg.GetFollow())
	if err != nil {
		return err
	}
	for line := range lines { // OK: streamloop — the channel is returned by a call given a ctx tied to the request's (Follow closes it when fctx ends)
		if err := stream.Send(&storagepb.LogLine{Line: line}); err != nil {
			return err
		}
	}
	return nil
}

// LogTail keeps the last lines of the server log in memory.
type LogTail struct {
	mu    sync.Mutex
	lines []string
	seq   int
}

// Append adds a line.
func (t *LogTail) Append(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, line)
	if len(t.lines) > 1000 {
		t.lines = t.lines[len(t.lines)-1000:]
	}
	t.seq++
}

// Follow returns the buffered lines and, with follow, new ones until ctx
// ends; the channel is closed then.
func (t *LogTail) Follow(ctx context.Context, follow bool) (<-chan string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make(chan string, 64)
	go func() {
		defer close(out)
		t.mu.Lock()
		buf := append([]string(nil), t.lines...)
		seen := t.seq
		t.mu.Unlock()
		for _, l := range buf {
			select {
			case out <- l:
			case <-ctx.Done():
				return
			}
		}
		if !follow {
			return
		}
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			t.mu.Lock()
			n := t.seq - seen
			fresh := append([]string(nil), t.lines[max(len(t.lines)-n, 0):]...)
			seen = t.seq
			t.mu.Unlock()
			for _, l := range fresh {
				select {
				case out <- l:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out, nil
}
