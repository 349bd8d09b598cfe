package edge

import (
	"context"
	"errors"
	"io"
	"net"
	"slices"
	"time"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	edgev1 "example.test/gateway/gen/edge/v1"
	"example.test/gateway/internal/accesslog"
	"example.test/gateway/internal/authn"
)

const flushAt = 2000

// WatchRoutes streams route changes for a host (or all hosts) from a revision on.
func (s *Server) WatchRoutes(req *edgev1.WatchRoutesRequest, stream grpc.ServerStreamingServer[edgev1.RouteEvent]) error {
	ctx := stream.Context()
	events := make(chan *edgev1.RouteEvent, 64)
	g, gctx := errgroup.WithContext(ctx) // OK
	g.Go(func() error {
		defer close(events)
		rev := req.GetSinceRevision()
		for {
			changes, err := s.routes.ChangesSince(gctx, req.GetHost(), rev) // OK
			if err != nil {
				return err
			}
			if len(changes) == 0 {
				time.Sleep(s.cfg.PollInterval) // BUG: ctxless
				continue
			}
			for _, r := range changes {
				ev := &edgev1.RouteEvent{Kind: edgev1.RouteEvent_KIND_UPSERT, Route: toProto(r)}
				if r.Deleted {
					ev.Kind = edgev1.RouteEvent_KIND_DELETE
				}
				select {
				case events <- ev:
				case <-gctx.Done():
					return gctx.Err()
				}
				rev = r.Revision
			}
		}
	})
	g.Go(func() error {
		for ev := range events {
			if err := stream.Send(ev); err != nil {
				return err
			}
		}
		return nil
	})
	err := g.Wait()
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// Tunnel relays a TCP connection to an allowed internal target over a bidi
// stream. The first frame names the target.
func (s *Server) Tunnel(stream grpc.BidiStreamingServer[edgev1.TunnelFrame, edgev1.TunnelFrame]) error {
	ctx := stream.Context()
	first, err := stream.Recv()
	if err != nil {
		return err
	}
	if !authn.PrincipalFrom(ctx).HasScope("tunnel:open") {
		return status.Error(codes.PermissionDenied, "tunnel:open scope required")
	}
	_, port, err := net.SplitHostPort(first.GetTarget())
	if err != nil || !slices.Contains(s.cfg.AllowedPorts, port) {
		return status.Errorf(codes.PermissionDenied, "target %q is not allowed", first.GetTarget())
	}
	conn, err := net.DialTimeout("tcp", first.GetTarget(), s.cfg.DialTimeout) // BUG: ctxless
	if err != nil {
		return status.Errorf(codes.Unavailable, "dial %s: %v", first.GetTarget(), err)
	}
	defer conn.Close()
	if len(first.GetData()) > 0 {
		if _, err := conn.Write(first.GetData()); err != nil {
			return err
		}
	}
	g, gctx := errgroup.WithContext(ctx) // OK
	g.Go(func() error {
		buf := make([]byte, 32<<10)
		for {
			n, err := conn.Read(buf)
			if n > 0 {
				if serr := stream.Send(&edgev1.TunnelFrame{StreamId: first.GetStreamId(), Data: slices.Clone(buf[:n])}); serr != nil {
					return serr
				}
			}
			if err == io.EOF {
				return stream.Send(&edgev1.TunnelFrame{StreamId: first.GetStreamId(), Close: true})
			}
			if err != nil {
				return err
			}
		}
	})
	g.Go(func() error {
		for {
			f, err := stream.Recv()
			if err == io.EOF || (err == nil && f.GetClose()) {
				return conn.(*net.TCPConn).CloseWrite()
			}
			if err != nil {
				return err
			}
			if _, err := conn.Write(f.GetData()); err != nil {
				return err
			}
		}
	})
	go func() {
		<-gctx.Done()
		conn.Close()
	}()
	return g.Wait()
}

// UploadAccessLogs receives access log batches from an edge node.
func (s *Server) UploadAccessLogs(stream grpc.ClientStreamingServer[edgev1.AccessLogBatch, edgev1.UploadAccessLogsResponse]) error {
	var accepted int64
	pending := make([]accesslog.Line, 0, flushAt)
	for {
		b, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		for _, l := range b.GetLines() {
			pending = append(pending, accesslog.Line{
				Node: b.GetNode(), At: time.Unix(0, l.GetUnixNanos()), Method: l.GetMethod(), Path: l.GetPath(),
				Status: l.GetStatus(), Bytes: l.GetBytes(), RouteID: l.GetRouteId(),
			})
		}
		if len(pending) >= flushAt {
			if err := s.logs.Append(s.bgctx(), pending); err != nil { // BUG: ctxflow
				return status.Errorf(codes.Internal, "store access logs: %v", err)
			}
			accepted += int64(len(pending))
			pending = pending[:0]
		}
	}
	accepted += int64(len(pending))
	fctx, cancel := context.WithTimeout(context.WithoutCancel(stream.Context()), s.cfg.FlushTimeout)
	// ^BUG: detach
	defer cancel()
	if err := s.logs.Append(fctx, pending); err != nil {
		return status.Errorf(codes.Internal, "store access logs: %v", err)
	}
	return stream.SendAndClose(&edgev1.UploadAccessLogsResponse{Accepted: accepted})
}
