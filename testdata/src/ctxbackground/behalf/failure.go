package behalf

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"google.golang.org/grpc"

	"example.com/gen/catalogpb"
)

// Cleanup after a failure: once a step fails, a helper releases what it acquired with a fresh
// ctx and returns the error. The request has failed; the release must run whether or not its
// ctx is still live, and its result is never the response. The look-alikes do request work on
// the error branch: a fallback whose result is returned, a retry that swallows the error.

type lease struct{ db db }

func (l *lease) release(ctx context.Context) error { return l.db.Exec(ctx, "RELEASE") }

type Mounts struct {
	catalogpb.UnimplementedCatalogServer
	db db
	mu chan struct{}
}

func (m *Mounts) lock()   { m.mu <- struct{}{} }
func (m *Mounts) unlock() { <-m.mu }

func (m *Mounts) acquire(ctx context.Context, n int) ([]*lease, error) {
	var got []*lease
	for i := 0; i < n; i++ {
		l := &lease{db: m.db}
		if err := m.db.Exec(ctx, "ACQUIRE"); err != nil {
			for _, g := range slices.Backward(got) { // release in LIFO order: a range-over-func loop
				_ = g.release(context.TODO())
			}
			for _, g := range got {
				_ = g.release(context.TODO())
			}
			return nil, err
		}
		got = append(got, l)
	}
	return got, nil
}

func (m *Mounts) prepare(ctx context.Context) error {
	m.lock()
	defer m.unlock() // a function with defers returns through its result slot
	if err := m.db.Exec(ctx, "PREPARE"); err != nil {
		_ = m.db.Exec(context.Background(), "UNDO PREPARE")
		return fmt.Errorf("prepare: %w", err)
	}
	return nil
}

func (m *Mounts) mount(ctx context.Context) error {
	err := m.db.Exec(ctx, "MOUNT")
	if err != nil {
		if cerr := m.db.Exec(context.Background(), "UNMOUNT"); cerr != nil {
			return errors.Join(err, cerr)
		}
		return err
	}
	return nil
}

// fallback answers from a replica when the primary fails: the replica's answer is the response.
func (m *Mounts) fallback(ctx context.Context) error { // want fallback:"drops ctx"
	if err := m.db.Exec(ctx, "READ"); err != nil {
		return m.db.Exec(context.Background(), "READ REPLICA")
	}
	return nil
}

// retry swallows the error and does the work again with a root: request work.
func (m *Mounts) retry(ctx context.Context) error { // want retry:"drops ctx"
	if err := m.db.Exec(ctx, "WRITE"); err != nil {
		_ = m.db.Exec(context.Background(), "WRITE")
		return nil
	}
	return nil
}

// wrapOther returns another error, not the one checked: what it did may be the answer.
func (m *Mounts) wrapOther(ctx context.Context) error { // want wrapOther:"drops ctx"
	if err := m.db.Exec(ctx, "READ"); err != nil {
		return m.db.Exec(context.Background(), "READ AGAIN")
	}
	return nil
}

func (m *Mounts) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if _, err := m.acquire(ctx, 3); err != nil { // releases on failure: silent
		return nil, err
	}
	if err := m.prepare(ctx); err != nil { // undoes on failure, wraps the error: silent
		return nil, err
	}
	if err := m.mount(ctx); err != nil { // unmounts on failure, joins the errors: silent
		return nil, err
	}
	if err := m.fallback(ctx); err != nil { // want `behalf\.Mounts\.fallback, called in handler Mounts\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	if err := m.retry(ctx); err != nil { // want `behalf\.Mounts\.retry, called in handler Mounts\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	if err := m.wrapOther(ctx); err != nil { // want `behalf\.Mounts\.wrapOther, called in handler Mounts\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}

func registerMounts(s *grpc.Server, m *Mounts) { catalogpb.RegisterCatalogServer(s, m) }
