package plugin

import (
	"context"
	"os/exec"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	cpv1 "example.test/controlplane/gen/controlplane/v1"
)

// DriverServer serves a Driver over gRPC; plugin binaries call Serve.
type DriverServer struct {
	cpv1.UnimplementedDriverPluginServer
	impl   Driver
	binary string
	events chan *cpv1.TaskEvent
}

// Serve registers a DriverServer for impl on s.
func Serve(s *grpc.Server, impl Driver, binary string) *DriverServer {
	ds := &DriverServer{impl: impl, binary: binary, events: make(chan *cpv1.TaskEvent, 16)}
	cpv1.RegisterDriverPluginServer(s, ds)
	return ds
}

func (s *DriverServer) Handshake(ctx context.Context, req *cpv1.HandshakeRequest) (*cpv1.HandshakeResponse, error) {
	if req.GetProtocolVersion() != 2 {
		return nil, status.Errorf(codes.FailedPrecondition, "protocol %d not supported", req.GetProtocolVersion())
	}
	// Ask the binary each time: the plugin may have been upgraded in place.
	out, err := exec.Command(s.binary, "--version").Output() // BUG: ctxless — exec.Command in a handler; exec.CommandContext(ctx, …) would kill the probe when the caller gives up.
	if err != nil {
		return nil, status.Errorf(codes.Internal, "version probe: %v", err)
	}
	return &cpv1.HandshakeResponse{Name: s.impl.Name(), Version: strings.TrimSpace(string(out))}, nil
}

func (s *DriverServer) Fingerprint(ctx context.Context, _ *cpv1.FingerprintRequest) (*cpv1.FingerprintResponse, error) {
	attrs, err := s.impl.Fingerprint()
	if err != nil {
		return nil, status.Errorf(codes.Internal, "fingerprint: %v", err) // OK: statusmask look-alike — Fingerprint takes no ctx: its error cannot be this request's deadline.
	}
	return &cpv1.FingerprintResponse{Attributes: attrs}, nil
}

func (s *DriverServer) StartTask(ctx context.Context, req *cpv1.StartTaskRequest) (*cpv1.StartTaskResponse, error) {
	h, err := s.impl.StartTask(ctx, TaskSpec{ID: req.GetTaskId(), Image: req.GetImage(), Args: req.GetArgs()})
	if err != nil {
		if ctx.Err() != nil {
			return nil, status.FromContextError(ctx.Err()).Err()
		}
		return nil, status.Errorf(codes.Internal, "start %s: %v", req.GetTaskId(), err) // OK: statusmask look-alike — ctx.Err() is checked first, a deadline keeps its code.
	}
	return &cpv1.StartTaskResponse{Handle: h}, nil
}

func (s *DriverServer) StopTask(ctx context.Context, req *cpv1.StopTaskRequest) (*cpv1.StopTaskResponse, error) {
	if err := s.impl.StopTask(ctx, req.GetTaskId(), req.GetSignal()); err != nil {
		if msg := err.Error(); strings.Contains(msg, "deadline") || strings.Contains(msg, "canceled") {
			return nil, status.Error(codes.DeadlineExceeded, msg)
		}
		return nil, status.Errorf(codes.Internal, "stop %s: %v", req.GetTaskId(), err) // OK: statusmask look-alike — the error's text was tested for "deadline"/"canceled" first, which picks out the caller's expiry.
	}
	// Wait (briefly) for the task to exit so that the caller sees it gone.
	for i := 0; i < 50; i++ {
		if err := ctx.Err(); err != nil {
			return nil, status.FromContextError(err).Err()
		}
		if st, err := s.impl.InspectTask(req.GetTaskId()); err != nil || st.State != "running" {
			break
		}
		time.Sleep(100 * time.Millisecond) // OK: ctxless look-alike — a poll whose every turn checks ctx.Err() first.
	}
	return &cpv1.StopTaskResponse{}, nil
}

func (s *DriverServer) InspectTask(ctx context.Context, req *cpv1.InspectTaskRequest) (*cpv1.InspectTaskResponse, error) {
	st, err := s.impl.InspectTask(req.GetTaskId())
	if err != nil {
		return nil, status.Error(codes.NotFound, err.Error())
	}
	return &cpv1.InspectTaskResponse{State: st.State, ExitCode: int32(st.ExitCode)}, nil
}

func (s *DriverServer) TaskEvents(_ *cpv1.TaskEventsRequest, stream grpc.ServerStreamingServer[cpv1.TaskEvent]) error {
	ctx := stream.Context()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev := <-s.events: // OK: streamloop look-alike — server-lifetime channel, but the loop selects on the stream's ctx.Done() and returns Send's error.
			if err := stream.Send(ev); err != nil {
				return err
			}
		}
	}
}
