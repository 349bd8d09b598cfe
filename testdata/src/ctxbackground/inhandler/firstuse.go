package inhandler

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"

	"example.com/gen/catalogpb"
)

// Versioned tests its own state before work made with a root: a first use when the work's
// result sets the state so that the test goes the other way next time, whether or not a
// literal captures the receiver; a state check that runs on every call when it does not.
type Versioned struct {
	catalogpb.UnimplementedCatalogServer
	db      *sql.DB
	mu      sync.Mutex
	version string
	state   int
	ready   bool
}

const stateReady = 3

func (v *Versioned) probe(ctx context.Context) string {
	var s string
	_ = v.db.QueryRowContext(ctx, "SELECT version()").Scan(&s)
	return s
}

// GetItem reads the version once and keeps it; a literal captures the receiver.
func (v *Versioned) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if v.version == "" {
		v.mu.Lock()
		v.version = v.probe(context.Background())
		v.mu.Unlock()
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = v.version }()
	<-done
	return &catalogpb.Item{Id: v.version}, nil
}

// ListItems runs its set-up until the state is ready, and makes it ready.
func (v *Versioned) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	if v.state != stateReady {
		v.probe(context.Background())
		v.state = stateReady
	}
	if !v.ready {
		v.probe(context.TODO())
		v.ready = true
	}
	return nil
}

// UploadItems checks a state and sets another: the probe runs on every call but a canceled one.
func (v *Versioned) UploadItems(stream catalogpb.Catalog_UploadItemsServer) error {
	if v.state == 2 {
		return nil
	}
	v.state = 1
	v.probe(context.Background()) // want `context\.Background\(\) in handler Versioned\.UploadItems drops the caller's deadline and cancellation; pass stream\.Context\(\)`
	return nil
}

// Chat resets a flag it tests: its probe runs whenever the flag is down, and puts it down again.
func (v *Versioned) Chat(stream catalogpb.Catalog_ChatServer) error {
	if !v.ready {
		v.probe(context.Background()) // want `context\.Background\(\) in handler Versioned\.Chat drops the caller's deadline and cancellation; pass stream\.Context\(\)`
		v.ready = false
	}
	return nil
}

const (
	stateRunning = 1
	stateFailed  = 2
)

// Refresher probes while the state is running and sets it only on a failure after the branch:
// the probe runs on every call until then, no first use. Reported.
type Refresher struct{ Versioned }

func (r *Refresher) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if r.state == stateRunning {
		r.probe(context.Background()) // want `context\.Background\(\) in handler Refresher\.GetItem drops the caller's deadline and cancellation; pass ctx`
	}
	if err := r.db.PingContext(ctx); err != nil {
		r.state = stateFailed
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// Starter starts its watcher once, for the caller that wins the swap: a first use. A swap put
// back after the work (a try-lock) lets the next caller through, whose work is its own: reported.
type Starter struct {
	Versioned
	started atomic.Bool
	busy    atomic.Bool
}

func (s *Starter) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if s.started.CompareAndSwap(false, true) {
		s.probe(context.Background())
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}

func (s *Starter) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	if !s.started.CompareAndSwap(false, true) {
		return nil
	}
	s.probe(context.TODO())
	return nil
}

func (s *Starter) UploadItems(stream catalogpb.Catalog_UploadItemsServer) error {
	if s.busy.CompareAndSwap(false, true) {
		defer s.busy.Store(false)
		s.probe(context.Background()) // want `context\.Background\(\) in handler Starter\.UploadItems drops the caller's deadline and cancellation; pass stream\.Context\(\)`
	}
	return nil
}
