package cas

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"example.test/buildcache/gen/bcv1"
	"example.test/buildcache/internal/obs"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

const chunk = 64 << 10

// ByteStream serves blobs as chunked streams.
type ByteStream struct {
	bcv1.UnimplementedByteStreamServer
	store *DiskStore
	http  *http.Client
	s3URL string
}

// NewByteStream returns a ByteStream over store.
func NewByteStream(store *DiskStore, s3URL string) *ByteStream {
	return &ByteStream{store: store, http: &http.Client{Timeout: time.Minute}, s3URL: s3URL}
}

func parseResource(name string) (*bcv1.Digest, error) {
	parts := strings.Split(name, "/")
	if len(parts) < 2 {
		return nil, errors.New("bad resource name")
	}
	return &bcv1.Digest{Hash: parts[len(parts)-2]}, nil
}

func (b *ByteStream) Read(req *bcv1.ReadRequest, stream grpc.ServerStreamingServer[bcv1.ReadResponse]) error {
	ctx := stream.Context()
	d, err := parseResource(req.GetResourceName())
	if err != nil {
		return status.Error(codes.InvalidArgument, err.Error()) // OK: statusmask — parse error, no ctx involved
	}
	data, err := b.store.Get(ctx, d)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return status.Errorf(codes.Internal, "read %s: %v", d.GetHash(), err) // BUG: statusmask — past a sentinel test a deadline from store.Get is still turned into Internal
	}
	if errors.Is(err, ErrNotFound) && b.s3URL != "" {
		hreq, err := http.NewRequest(http.MethodGet, b.s3URL+"/"+d.GetHash(), nil) // BUG: ctxless — the blob-store GET cannot see the client leave
		if err != nil {
			return err
		}
		resp, err := b.http.Do(hreq)
		if err != nil {
			return status.Error(codes.Unavailable, err.Error()) // OK: statusmask — the request was built without the ctx, its error is no request deadline
		}
		defer resp.Body.Close()
		if data, err = io.ReadAll(resp.Body); err != nil {
			return err
		}
	}
	obs.Log.Debug("read", "hash", d.GetHash()) // OK: ctxless — DebugContext only reads values from its ctx
	for off := req.GetOffset(); off < int64(len(data)); off += chunk {
		end := min(off+chunk, int64(len(data)))
		if err := stream.Send(&bcv1.ReadResponse{Data: data[off:end]}); err != nil {
			return err
		}
	}
	return nil
}

func (b *ByteStream) Write(stream grpc.ClientStreamingServer[bcv1.WriteRequest, bcv1.WriteResponse]) error {
	ctx := stream.Context()
	var buf bytes.Buffer
	var name string
	for {
		req, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		name = req.GetResourceName()
		buf.Write(req.GetData())
		if req.GetFinishWrite() {
			break
		}
	}
	defer func() {
		uctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // OK: ctxbackground — deferred cleanup with a bounded fresh ctx
		defer cancel()
		b.store.Unlock(uctx, name)
	}()
	d, err := parseResource(name)
	if err != nil {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	tmp, err := b.store.Stage(ctx, d, buf.Bytes())
	if err != nil {
		return status.Errorf(codes.Internal, "stage: %v", err) // OK: statusmask — Stage never refers to its ctx
	}
	if err := b.store.Commit(ctx, tmp); err != nil {
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK: ctxbackground — undo on the way out of a failure the handler returns
		defer cancel()
		b.store.Discard(cctx, tmp)
		if c := status.Code(err); c == codes.DeadlineExceeded || c == codes.Canceled || ctx.Err() != nil {
			return err
		}
		return status.Errorf(codes.Internal, "commit %s: %v", d.GetHash(), err) // OK: statusmask — status.Code and ctx.Err() tell a deadline apart
	}
	if err := b.store.Commit(ctx, tmp+".meta"); err != nil {
		return mapStoreErr("commit meta", err)
	}
	return stream.SendAndClose(&bcv1.WriteResponse{CommittedSize: int64(buf.Len())})
}
