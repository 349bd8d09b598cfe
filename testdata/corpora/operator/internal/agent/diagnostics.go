package agent

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	agentv1 "example.test/operator/gen/agent/v1"
)

// probes are the commands whose output goes into a support bundle.
var probes = []struct {
	name string
	argv []string
}{
	{"uname.txt", []string{"uname", "-a"}},
	{"df.txt", []string{"df", "-h"}},
	{"free.txt", []string{"free", "-m"}},
	{"ip-addr.txt", []string{"ip", "addr"}},
	{"dmesg.txt", []string{"dmesg", "--ctime", "--level=err,warn"}},
}

// CollectDiagnostics builds a tar.gz support bundle.
func (s *Server) CollectDiagnostics(ctx context.Context, req *agentv1.CollectDiagnosticsRequest) (*agentv1.CollectDiagnosticsResponse, error) {
	dctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // BUG: ctxbackground
	defer cancel()

	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	add := func(name string, data []byte) error {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), ModTime: time.Now()}); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	failed := 0
	for _, p := range probes {
		out, err := exec.CommandContext(dctx, p.argv[0], p.argv[1:]...).CombinedOutput()
		if err != nil {
			failed++
			out = append(out, []byte("\nerror: "+err.Error())...)
		}
		if err := add(p.name, out); err != nil {
			return nil, status.Errorf(codes.Internal, "bundle: %v", err)
		}
	}
	if req.GetIncludeJournal() {
		out, err := exec.CommandContext(dctx, "journalctl", "--since", "-1h", "--no-pager").Output()
		if err != nil {
			failed++
		}
		if err := add("journal.txt", out); err != nil {
			return nil, status.Errorf(codes.Internal, "bundle: %v", err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, status.Errorf(codes.Internal, "bundle: %v", err)
	}
	if err := zw.Close(); err != nil {
		return nil, status.Errorf(codes.Internal, "bundle: %v", err)
	}
	return &agentv1.CollectDiagnosticsResponse{
		Archive: buf.Bytes(),
		Summary: fmt.Sprintf("%d probes, %d failed", len(probes), failed),
	}, nil
}

// StreamLogs follows the journal of a systemd unit.
func (s *Server) StreamLogs(req *agentv1.StreamLogsRequest, stream grpc.ServerStreamingServer[agentv1.LogLine]) error {
	unit := req.GetUnit()
	if unit == "" {
		return status.Error(codes.InvalidArgument, "unit is required")
	}
	tail := req.GetTail()
	if tail <= 0 {
		tail = 100
	}
	args := []string{"-u", unit, "-o", "cat", "--no-pager", "-n", strconv.Itoa(int(tail))}
	if req.GetFollow() {
		args = append(args, "-f")
	}
	cmd := exec.CommandContext(stream.Context(), "journalctl", args...) // OK: stream ctx
	out, err := cmd.StdoutPipe()
	if err != nil {
		return status.Errorf(codes.Internal, "%v", err)
	}
	if err := cmd.Start(); err != nil {
		return status.Errorf(codes.Unavailable, "journalctl: %v", err)
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if err := stream.Send(&agentv1.LogLine{Unit: unit, Text: sc.Text(), At: timestamppb.Now()}); err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return err
		}
	}
	if err := cmd.Wait(); err != nil && stream.Context().Err() == nil {
		return status.Errorf(codes.Internal, "journalctl: %v", err)
	}
	return nil
}
