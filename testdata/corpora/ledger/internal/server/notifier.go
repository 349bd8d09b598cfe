package server

import (
	"errors"
	"io"
	"sync"

	"google.golang.org/grpc"

	"example.test/ledger/gen/notifierpb"
	"example.test/ledger/internal/events"
	"example.test/ledger/internal/obs"
)

// Notifier implements notifierpb.NotifierServer.
type Notifier struct {
	notifierpb.UnimplementedNotifierServer
	ledger   *Ledger
	shutdown <-chan struct{}
}

// NewNotifier returns a Notifier that stops all watches when shutdown is
// closed.
func NewNotifier(l *Ledger, shutdown <-chan struct{}) *Notifier {
	return &Notifier{ledger: l, shutdown: shutdown}
}

// Watch lets a client subscribe to account events over a bidi stream.
func (n *Notifier) Watch(stream grpc.BidiStreamingServer[notifierpb.Subscribe, notifierpb.Event]) error {
	ctx := stream.Context()
	out := make(chan events.Event, 64)
	var mu sync.Mutex
	subscribed := map[string]bool{}
	recvErr := make(chan error, 1)

	go func() {
		for {
			msg, err := stream.Recv()
			if err != nil {
				recvErr <- err
				return
			}
			acct := msg.GetAccountId()
			mu.Lock()
			if msg.GetUnsubscribe() || subscribed[acct] {
				mu.Unlock()
				continue
			}
			subscribed[acct] = true
			mu.Unlock()
			ch := n.ledger.broker.Subscribe(n.ledger.baseCtx, acct) // BUG: ctxflow — B6: the per-stream subscription lives on the server's lifetime
			go func() {
				for {
					select {
					case <-ctx.Done():
						return
					case ev := <-ch:
						select {
						case out <- ev:
						case <-ctx.Done():
							return
						}
					}
				}
			}()
		}
	}()

	for {
		select {
		case <-n.shutdown:
			return nil
		case err := <-recvErr:
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		case ev := <-out:
			if err := stream.Send(&notifierpb.Event{AccountId: ev.AccountID, Kind: ev.Kind, AmountMinor: ev.Amount, AtUnix: ev.At}); err != nil {
				obs.L(ctx).Info("watch send failed", "err", err)
				return err
			}
		}
	}
}
