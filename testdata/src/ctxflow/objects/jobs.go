package objects

import (
	"context"
	"sync"
	"time"

	"example.com/gen/catalogpb"
)

// Jobs runs long operations the server owns: each on a child of the ctx it is given, bounded,
// its cancel kept by the job's id for a Cancel RPC.
type Jobs struct {
	mu   sync.Mutex
	jobs map[string]context.CancelFunc
}

// Start runs fn in the background under ctx until it finishes or is cancelled.
func (j *Jobs) Start(ctx context.Context, id string, fn func(context.Context)) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
	j.mu.Lock()
	j.jobs[id] = cancel
	j.mu.Unlock()
	go func() {
		defer cancel()
		fn(ctx)
	}()
}

// Watch follows id on a goroutine of its own, for as long as ctx lives: a watch whose lifetime
// is the ctx it is given, which the caller's ctx should end.
func Watch(ctx context.Context, id string, out chan<- string) {
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case out <- id:
			}
		}
	}()
}

// WatchAndFetch starts the same watcher, and fetches with ctx as well: work on it.
func WatchAndFetch(ctx context.Context, id string, out chan<- string) error {
	go Watch(ctx, id, out)
	return fetch(ctx, id)
}

// Exports starts jobs on the server's lifetime from its handlers, each job's cancel kept by the
// runner: work meant to outlive the request, which the request's ctx would cut short. A handler
// that also stops its own work when the server shuts down (context.AfterFunc(s.base, cancel))
// only watches the lifetime. A watch on the lifetime, and work done on it, are reported: the
// watch stays registered after the client left.
type Exports struct {
	catalogpb.UnimplementedCatalogServer
	base context.Context
	jobs *Jobs
	out  chan string
}

func (s *Exports) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	id := req.GetId()
	s.jobs.Start(s.base, id, func(ctx context.Context) { _ = fetch(ctx, id) })
	Watch(s.base, id, s.out) // want `objects\.Watch in handler Exports\.GetItem uses receiver field base, a ctx that outlives the request; pass ctx`
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(s.base, cancel)
	defer stop()
	if err := fetch(ctx, id); err != nil {
		return nil, err
	}
	if err := WatchAndFetch(s.base, id, s.out); err != nil { // want `objects\.WatchAndFetch in handler Exports\.GetItem uses receiver field base, a ctx that outlives the request; pass ctx`
		return nil, err
	}
	return &catalogpb.Item{Id: id}, nil
}
