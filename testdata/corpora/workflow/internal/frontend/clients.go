package frontend

import (
	"context"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// processCtx is set by main to the process lifetime.
var processCtx = context.Background()

// SetProcessContext records the process lifetime.
func SetProcessContext(ctx context.Context) { processCtx = ctx }

// DialHistory dials the history service.
func DialHistory(ctx context.Context, addr string) (*grpc.ClientConn, error) {
	return grpc.DialContext(ctx, addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
}

// lifecycle runs a component until Stop.
type lifecycle struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func (l *lifecycle) Run(ctx context.Context, tick time.Duration, fn func(context.Context)) {
	l.ctx, l.cancel = context.WithCancel(ctx)
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-l.ctx.Done():
				return
			case <-t.C:
				fn(l.ctx)
			}
		}
	}()
}

func (l *lifecycle) Stop() {
	if l.cancel != nil {
		l.cancel()
	}
	l.wg.Wait()
}
