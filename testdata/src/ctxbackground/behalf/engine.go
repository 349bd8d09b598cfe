package behalf

import (
	"context"
	"sync"

	"example.com/gen/catalogpb"
)

// Ticker runs a function again and again, as a component's refresh loop does.
type Ticker struct{ fns []func() }

// Start registers fn.
func (t *Ticker) Start(fn func()) { t.fns = append(t.fns, fn) }

// Engine is opened once, on the first request that needs it; what Open starts — a first load
// and a refresh literal it hands to its ticker — serves every later request.
type Engine struct {
	mu     sync.Mutex
	isOpen bool
	db     db
	ticks  Ticker
}

// Open is idempotent: the work after its guard runs on the first use only.
func (e *Engine) Open() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.isOpen {
		return nil
	}
	ctx := context.Background()
	if err := e.db.Exec(ctx, "LOAD SCHEMA"); err != nil {
		return err
	}
	e.ticks.Start(func() {
		_ = e.db.Exec(ctx, "RELOAD SCHEMA")
	})
	e.isOpen = true
	return nil
}

// Reload runs every time: its literal's root is a lost deadline.
func (e *Engine) Reload() error { // want Reload:"drops ctx"
	run := func() error { return e.db.Exec(context.Background(), "RELOAD SCHEMA") }
	return run()
}

// Schemas serves the catalog off the engine.
type Schemas struct {
	catalogpb.UnimplementedCatalogServer
	engine *Engine
}

func (s *Schemas) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := s.engine.Open(); err != nil { // the first use opens it for everyone: silent
		return nil, err
	}
	if err := s.engine.Reload(); err != nil { // want `behalf\.Engine\.Reload, called in handler Schemas\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
