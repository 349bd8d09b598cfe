// Package agent is the node agent: it implements agent.v1.AgentService on
// top of the local container runtime.
package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	agentv1 "example.test/operator/gen/agent/v1"
	"example.test/operator/internal/agent/runtime"
	"example.test/operator/internal/journal"
)

// Server implements AgentService.
type Server struct {
	agentv1.UnimplementedAgentServiceServer

	node    string
	rt      *runtime.Ctr
	journal *journal.Writer
	log     *slog.Logger
	allowed map[string]bool // binaries RunCommand may execute

	housekeepEvery time.Duration
	draining       atomic.Bool
}

// NewServer returns the agent of node.
func NewServer(node string, rt *runtime.Ctr, j *journal.Writer, allowed []string, log *slog.Logger) *Server {
	s := &Server{node: node, rt: rt, journal: j, log: log, allowed: make(map[string]bool), housekeepEvery: 10 * time.Minute}
	for _, a := range allowed {
		s.allowed[a] = true
	}
	return s
}

func toStatus(c *runtime.Container) *agentv1.ContainerStatus {
	st := &agentv1.ContainerStatus{
		Id:       c.ID,
		Image:    c.Image,
		Workload: c.Labels["workload"],
		Running:  c.Running,
		ExitCode: int32(c.ExitCode),
	}
	if !c.StartedAt.IsZero() {
		st.StartedAt = timestamppb.New(c.StartedAt)
	}
	return st
}

// GetStatus reports node health and the containers on it.
func (s *Server) GetStatus(ctx context.Context, _ *agentv1.GetStatusRequest) (*agentv1.NodeStatus, error) {
	cs, err := s.rt.List(ctx) // OK
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "runtime: %v", err)
	}
	up, err := exec.CommandContext(ctx, "uptime", "-p").Output() // OK: CommandContext with the request ctx
	if err != nil {
		up = []byte("unknown")
	}
	st := &agentv1.NodeStatus{
		Hostname:             s.node,
		Ready:                !s.draining.Load(),
		Load1:                load1(),
		MemoryAvailableBytes: memAvailable(),
		DiskAvailableBytes:   diskAvailable("/var/lib"),
		Uptime:               strings.TrimSpace(string(up)),
	}
	for i := range cs {
		st.Containers = append(st.Containers, toStatus(&cs[i]))
	}
	return st, nil
}

// RunCommand runs an allow-listed command on the node.
func (s *Server) RunCommand(ctx context.Context, req *agentv1.RunCommandRequest) (*agentv1.RunCommandResponse, error) {
	argv := req.GetArgv()
	if len(argv) == 0 {
		return nil, status.Error(codes.InvalidArgument, "argv is required")
	}
	if !s.allowed[argv[0]] {
		return nil, status.Errorf(codes.PermissionDenied, "%q is not allowed on this node", argv[0])
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(argv[0], argv[1:]...) // BUG: ctxless
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		return nil, status.Errorf(codes.FailedPrecondition, "start %s: %v", argv[0], err)
	}
	if t := req.GetTimeoutSeconds(); t > 0 {
		timer := time.AfterFunc(time.Duration(t)*time.Second, func() { _ = cmd.Process.Kill() })
		defer timer.Stop()
	}
	err := cmd.Wait()
	resp := &agentv1.RunCommandResponse{Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		resp.ExitCode = int32(exit.ExitCode())
	case err != nil:
		return nil, status.Errorf(codes.Internal, "run %s: %v", argv[0], err)
	}
	_ = s.journal.Append(ctx, journal.Record{Action: "exec", Target: argv[0], Detail: strings.Join(argv, " ")}) // OK
	return resp, nil
}

// PullImage pulls an image into the runtime's store.
func (s *Server) PullImage(ctx context.Context, req *agentv1.PullImageRequest) (*agentv1.PullImageResponse, error) {
	ref := req.GetImage()
	if ref == "" || strings.ContainsAny(ref, " \t\n;|&") {
		return nil, status.Errorf(codes.InvalidArgument, "invalid image reference %q", ref)
	}
	digest, size, err := s.rt.Pull(ctx, ref) // OK
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "pull %s: %v", ref, err)
	}
	return &agentv1.PullImageResponse{Digest: digest, SizeBytes: size}, nil
}

// StartContainer creates and starts one replica.
func (s *Server) StartContainer(ctx context.Context, req *agentv1.StartContainerRequest) (*agentv1.ContainerStatus, error) {
	if s.draining.Load() {
		return nil, status.Error(codes.FailedPrecondition, "node is draining")
	}
	if req.GetWorkload() == "" || req.GetImage() == "" {
		return nil, status.Error(codes.InvalidArgument, "workload and image are required")
	}
	id := fmt.Sprintf("%s-%d", req.GetWorkload(), req.GetOrdinal())
	args := []string{"-n", s.rt.Namespace, "run", "--detach", "--label", "workload=" + req.GetWorkload()}
	for k, v := range req.GetEnv() {
		args = append(args, "--env", k+"="+v)
	}
	args = append(args, req.GetImage(), id)
	args = append(args, req.GetArgs()...)
	if out, err := exec.Command(s.rt.Bin, args...).CombinedOutput(); err != nil { // BUG: ctxless
		return nil, status.Errorf(codes.Internal, "run %s: %v: %s", id, err, bytes.TrimSpace(out))
	}
	c, err := s.rt.Inspect(id) // OK: helper (ctxless only reports direct calls)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "%v", err)
	}
	_ = s.journal.Append(ctx, journal.Record{Action: "start", Target: id, Detail: req.GetImage()}) // OK
	return toStatus(c), nil
}

// StopContainer stops a container, escalating to SIGKILL after the grace period.
func (s *Server) StopContainer(ctx context.Context, req *agentv1.StopContainerRequest) (*agentv1.ContainerStatus, error) {
	id := req.GetId()
	grace := time.Duration(req.GetGracePeriodSeconds()) * time.Second
	if grace <= 0 {
		grace = 10 * time.Second
	}
	if err := s.rt.Signal(ctx, id, "SIGTERM"); err != nil { // OK
		return nil, status.Errorf(codes.NotFound, "signal %s: %v", id, err)
	}
	running := true
	for until := time.Now().Add(grace); time.Now().Before(until); {
		r, err := s.rt.IsRunning(ctx, id) // OK
		if err != nil || !r {
			running = false
			break
		}
		time.Sleep(250 * time.Millisecond) // BUG: ctxless
	}
	if running {
		if err := s.rt.Signal(ctx, id, "SIGKILL"); err != nil { // OK
			return nil, status.Errorf(codes.Internal, "kill %s: %v", id, err)
		}
	}
	c, err := s.rt.Inspect(id) // OK: helper
	if err != nil {
		return nil, status.Errorf(codes.Internal, "%v", err)
	}
	if err := s.rt.Remove(ctx, id); err != nil { // OK
		s.log.WarnContext(ctx, "remove container", "id", id, "err", err)
	}
	_ = s.journal.Append(ctx, journal.Record{Action: "stop", Target: id}) // OK
	c.Running = false
	return toStatus(c), nil
}

// RestartContainer restarts a container in place.
func (s *Server) RestartContainer(ctx context.Context, req *agentv1.RestartContainerRequest) (*agentv1.ContainerStatus, error) {
	id := req.GetId()
	if err := s.rt.Signal(ctx, id, "SIGTERM"); err != nil { // OK
		return nil, status.Errorf(codes.NotFound, "signal %s: %v", id, err)
	}
	startErr := s.rt.Start(ctx, id) // OK

	// the restart is journaled even if the control plane hung up meanwhile;
	// the append is local and short
	jctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second) // OK: bounded and explained
	go func() {
		defer cancel()
		rec := journal.Record{Action: "restart", Target: id}
		if startErr != nil {
			rec.Error = startErr.Error()
		}
		_ = s.journal.Append(jctx, rec) // OK
	}()

	if startErr != nil {
		return nil, status.Errorf(codes.Internal, "start %s: %v", id, startErr)
	}
	c, err := s.rt.Inspect(id) // OK: helper
	if err != nil {
		return nil, status.Errorf(codes.Internal, "%v", err)
	}
	return toStatus(c), nil
}

// Drain stops every container on the node and refuses new ones.
func (s *Server) Drain(ctx context.Context, req *agentv1.DrainRequest) (*agentv1.DrainResponse, error) {
	s.draining.Store(true)
	grace := time.Duration(req.GetGracePeriodSeconds()) * time.Second
	cs, err := s.rt.List(ctx) // OK
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "runtime: %v", err)
	}
	resp := &agentv1.DrainResponse{}
	for _, c := range cs {
		if !c.Running {
			continue
		}
		if err := s.stopGracefully(ctx, c.ID, grace, req.GetForce()); err != nil { // OK
			resp.Failed = append(resp.Failed, c.ID)
			continue
		}
		resp.Stopped = append(resp.Stopped, c.ID)
	}
	s.reapExited(ctx)                                                         // BUG: ctxbackground
	_ = s.journal.Append(ctx, journal.Record{Action: "drain", Target: s.node, // OK
		Detail: fmt.Sprintf("stopped=%d failed=%d", len(resp.Stopped), len(resp.Failed))})
	return resp, nil
}

// stopGracefully sends SIGTERM, waits up to grace, then SIGKILLs if force.
func (s *Server) stopGracefully(ctx context.Context, id string, grace time.Duration, force bool) error {
	if err := s.rt.Signal(ctx, id, "SIGTERM"); err != nil {
		return err
	}
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline.C:
			if !force {
				return fmt.Errorf("%s still running after %s", id, grace)
			}
			return s.rt.Signal(ctx, id, "SIGKILL")
		case <-t.C:
			if r, err := s.rt.IsRunning(ctx, id); err == nil && !r {
				return nil
			}
		}
	}
}

func load1() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _ := strconv.ParseFloat(strings.Fields(string(b))[0], 64)
	return f
}

func memAvailable() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

func diskAvailable(path string) int64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return 0
	}
	return int64(st.Bavail) * st.Bsize
}
