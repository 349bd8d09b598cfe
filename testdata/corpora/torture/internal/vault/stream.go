package vault

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	vaultv1 "example.test/torture/gen/vault/v1"
	"example.test/torture/internal/ctxkit"
	"example.test/torture/internal/store"
)

// WatchSecrets streams change events for secrets under a prefix.
func (s *Server) WatchSecrets(req *vaultv1.WatchRequest, stream grpc.ServerStreamingServer[vaultv1.SecretEvent]) error {
	ctx := stream.Context()
	if err := ctxkit.Retry(context.TODO(), 3, s.repo.Ping); err != nil { // BUG: ctxbackground
		return status.Error(codes.Unavailable, "store unavailable")
	}
	ch := s.subscribe(req.GetPrefix())
	defer s.unsubscribe(ch)

	go func() {
		for id := range ctxkit.Until(ctx, s.recentIDs(req.GetPrefix())) {
			_ = (*store.Repo).Touch(s.repo, s.baseCtx, id) // BUG: ctxflow
		}
	}()

	heartbeat := time.NewTicker(watchHeartbeat)
	defer heartbeat.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.baseCtx.Done(): // OK
			return status.Error(codes.Unavailable, "server shutting down")
		case ev := <-ch:
			if !strings.HasPrefix(ev.id, req.GetPrefix()) {
				continue
			}
			if err := stream.Send(&vaultv1.SecretEvent{Id: ev.id, Kind: ev.kind, Version: ev.version}); err != nil {
				return err
			}
		case <-heartbeat.C:
			if err := ctxkit.Retry(ctx, 2, s.repo.Ping); err != nil { // OK
				return status.Error(codes.Unavailable, "store unavailable")
			}
		}
	}
}

// UploadBlobs receives a stream of blob chunks and seals them at the end.
func (s *Server) UploadBlobs(stream grpc.ClientStreamingServer[vaultv1.Blob, vaultv1.UploadSummary]) error {
	var (
		ids   []string
		total int64
	)
	for {
		b, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := s.repo.SaveBlob(stream.Context(), b.GetId(), b.GetChunk()); err != nil { // OK
			return toStatus(err)
		}
		ids = append(ids, b.GetId())
		total += int64(len(b.GetChunk()))
	}
	if err := s.repo.SealBlobs(context.TODO(), ids); err != nil { // BUG: ctxbackground
		return toStatus(err)
	}
	actx, cancel := context.WithTimeout(context.WithoutCancel(stream.Context()), sealAuditBudget)
	// ^BUG: detach
	defer cancel()
	_ = s.audit.Record(actx, actorFrom(stream.Context()), "upload", strings.Join(ids, ","))
	return stream.SendAndClose(&vaultv1.UploadSummary{Blobs: int32(len(ids)), Bytes: total})
}

// Sync is a bidirectional replication stream: the peer sends the versions it
// has, the server answers with newer ones.
func (s *Server) Sync(stream grpc.BidiStreamingServer[vaultv1.SyncMessage, vaultv1.SyncMessage]) error {
	ctx := stream.Context()
	work := make(chan ctxkit.Pair[*vaultv1.SyncMessage], 8)
	errc := make(chan error, 1)
	go func() {
		defer close(errc)
		for p := range work {
			sec, err := s.repo.LoadSecret(p.Ctx, p.Val.GetId()) // OK
			if errors.Is(err, store.ErrNotFound) || (err == nil && sec.Version <= p.Val.GetVersion()) {
				continue
			}
			if err != nil {
				errc <- toStatus(err)
				return
			}
			if err := stream.Send(&vaultv1.SyncMessage{Id: sec.ID, Version: sec.Version, Value: sec.Value}); err != nil {
				errc <- err
				return
			}
		}
	}()

	var mirror net.Conn
	if s.mirrorAddr != "" {
		conn, err := net.Dial("tcp", s.mirrorAddr) // BUG: ctxless
		if err != nil {
			close(work)
			return status.Error(codes.Unavailable, "mirror unreachable")
		}
		mirror = conn
		defer mirror.Close()
	}

recv:
	for {
		msg, err := stream.Recv()
		switch {
		case errors.Is(err, io.EOF):
			break recv
		case err != nil:
			close(work)
			return err
		}
		if mirror != nil {
			_, _ = mirror.Write([]byte(msg.GetId() + "\n"))
		}
		_ = s.repo.Touch(shutdownCtx, msg.GetId()) // BUG: ctxflow
		select {
		case work <- ctxkit.Pair[*vaultv1.SyncMessage]{Ctx: ctx, Val: msg}:
		case <-ctx.Done():
			close(work)
			return ctx.Err()
		}
	}
	close(work)
	return <-errc
}
