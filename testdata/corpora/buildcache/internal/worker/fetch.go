package worker

import (
	"context"
	"io"
	"time"

	"example.test/buildcache/gen/bcv1"
	"example.test/buildcache/internal/pool"
)

func (w *Worker) fetchInputs(ctx context.Context, root *bcv1.Digest) error {
	conn, err := w.pool.Conn(ctx, w.casAddr)
	if err != nil {
		return err
	}
	bs := bcv1.NewByteStreamClient(conn)
	stream, err := bs.Read(ctx, &bcv1.ReadRequest{ResourceName: "blobs/" + root.GetHash() + "/0"}) // OK: missingdeadline — streaming call
	if err != nil {
		return err
	}
	for {
		if _, err := stream.Recv(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// Heartbeat pings the CAS through a conn whose interceptor sets a default deadline.
func Heartbeat(addr string, every time.Duration, stop <-chan struct{}) error {
	conn, err := pool.DialBounded(context.Background(), addr, 5*time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	cas := bcv1.NewContentAddressableStorageClient(conn)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return nil
		case <-t.C:
			_, _ = cas.GetCapabilities(context.Background(), &bcv1.GetCapabilitiesRequest{}) // OK: missingdeadline — conn built with a default-deadline interceptor
		}
	}
}

// WatchRemote follows an operation on the scheduler until stop.
func WatchRemote(exec bcv1.ExecutionClient, name string) error {
	stream, err := exec.WaitExecution(context.Background(), &bcv1.WaitExecutionRequest{Name: name}) // OK: missingdeadline — a stream, not a unary call
	if err != nil {
		return err
	}
	_, err = stream.Recv()
	return err
}
