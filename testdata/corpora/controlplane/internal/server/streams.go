package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	cpv1 "example.test/controlplane/gen/controlplane/v1"
	"example.test/controlplane/internal/plugin"
)

// LogSource follows a job's log.
type LogSource interface {
	Follow(ctx context.Context, jobID string) (<-chan []byte, error)
}

// FileLogs reads job logs from the node-local log directory.
type FileLogs struct{ Dir string }

func (f FileLogs) Follow(ctx context.Context, jobID string) (<-chan []byte, error) {
	fh, err := os.Open(filepath.Join(f.Dir, jobID+".log"))
	if err != nil {
		return nil, err
	}
	out := make(chan []byte, 16)
	go func() {
		defer fh.Close()
		defer close(out)
		r := bufio.NewReader(fh)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				select {
				case out <- line:
				case <-ctx.Done():
					return
				}
			}
			if errors.Is(err, io.EOF) {
				select {
				case <-ctx.Done():
					return
				case <-time.After(250 * time.Millisecond):
				}
				continue
			}
			if err != nil {
				return
			}
		}
	}()
	return out, nil
}

func (s *Server) WatchJobs(req *cpv1.WatchJobsRequest, stream grpc.ServerStreamingServer[cpv1.JobEvent]) error {
	ctx := stream.Context()
	ns := req.GetNamespace()

	// Send the current state first, then the changes.
	jobs, err := s.store.ListJobs(ctx, ns)
	if err != nil {
		return status.Error(codes.Unavailable, "watch snapshot: "+err.Error()) // BUG: statusmask — the snapshot's error (a call given the stream's ctx) becomes Unavailable: a client deadline looks like a server outage.
	}
	for _, j := range jobs {
		if err := stream.Send(&cpv1.JobEvent{Type: "snapshot", Job: toProto(j)}); err != nil {
			return err
		}
	}

	sub := s.store.Watch(ctx, ns)
	defer sub.Close()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev, ok := <-sub.C: // OK: streamloop look-alike — the feed comes from Watch(ctx, …), which ends it when ctx is done, and the loop selects on ctx.Done().
			if !ok {
				return nil
			}
			if err := stream.Send(&cpv1.JobEvent{Type: ev.Type, Job: toProto(&ev.Job)}); err != nil {
				return err
			}
		}
	}
}

func (s *Server) StreamLogs(req *cpv1.LogsRequest, stream grpc.ServerStreamingServer[cpv1.LogChunk]) error {
	ctx := stream.Context()
	if !req.GetFollow() {
		return status.Error(codes.Unimplemented, "only follow mode is supported")
	}
	// A follow can last hours: it must not inherit the short deadline clients
	// put on the call, only end when the client goes away.
	fctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground look-alike — the root is cancelled by context.AfterFunc(ctx, cancel) when the request's ctx is done: it lives as long as the request.
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()

	lines, err := s.logs.Follow(fctx, req.GetJobId())
	if err != nil {
		return status.Errorf(codes.NotFound, "logs of %s: %v", req.GetJobId(), err) // OK? statusmask — Follow (FileLogs, the only LogSource in sight; Deps.Logs is wired in main) uses its ctx only in the goroutine it starts, so its error is the file open's, never a deadline; but the catalogue's exemption names functions that only read values, and fctx is tied to the request's ctx.
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case line, ok := <-lines:
			if !ok {
				return nil
			}
			if err := stream.Send(&cpv1.LogChunk{Data: line}); err != nil {
				return err
			}
		}
	}
}

func (s *Server) Exec(stream grpc.BidiStreamingServer[cpv1.ExecRequest, cpv1.ExecResponse]) error {
	ctx := stream.Context()
	first, err := stream.Recv()
	if err != nil {
		return err
	}
	jobID := first.GetJobId()

	ready := make(chan struct{})
	go s.awaitPlacement(ctx, jobID, ready)
	select {
	case <-ready:
	case <-ctx.Done():
		return ctx.Err()
	}
	node, _ := s.placements.Load(jobID)

	var handle string
	err = s.pool.With(context.Background(), node.(string), func(d *plugin.GRPCDriver) error { // OK: ctxbackground look-alike — With only asks its ctx whether it is done (after fn ran with the request's ctx) to decide whether to drop the cached connection.
		h, err := d.StartTask(ctx, plugin.TaskSpec{ID: jobID + "-exec", Image: "sh", Args: first.GetCommand()})
		handle = h
		return err
	})
	if err != nil {
		return err
	}
	if err := stream.Send(&cpv1.ExecResponse{Stdout: []byte(handle + "\n")}); err != nil {
		return err
	}
	// Drain the client's stdin until it half-closes.
	for {
		if _, err := stream.Recv(); err != nil {
			if errors.Is(err, io.EOF) {
				return stream.Send(&cpv1.ExecResponse{Done: true})
			}
			return err
		}
	}
}

// awaitPlacement closes ready once the scheduler has placed jobID.
func (s *Server) awaitPlacement(ctx context.Context, jobID string, ready chan<- struct{}) {
	s.log.Debug(ctx, "awaiting placement", "job", jobID)
	for {
		if _, ok := s.placements.Load(jobID); ok {
			close(ready)
			return
		}
		time.Sleep(200 * time.Millisecond) // BUG: ctxless — a poll in a goroutine the Exec handler starts with its ctx; nothing in the loop checks ctx, so it spins forever after the client leaves.
	}
}
