package dynamic

import (
	"context"

	"example.com/gen/catalogpb"
)

// op is a command of a table: a func field, filled with method values.
type op struct {
	do func(context.Context, string) error
}

type admin struct {
	catalogpb.UnimplementedCatalogServer
	ops   map[string]op
	steps []func(context.Context, string) error
}

type cleaner struct{}

func (c *cleaner) drain(ctx context.Context, id string) error { return fetch(context.Background(), id) } // want drain:"drops ctx"
func (c *cleaner) check(ctx context.Context, id string) error { return fetch(ctx, id) }

func newAdmin(c *cleaner) *admin {
	return &admin{
		ops:   map[string]op{"drain": {do: c.drain}, "check": {do: c.check}},
		steps: []func(context.Context, string) error{passing},
	}
}

// A command table: the function in the map's element field is one of those stored there.
func (s *admin) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	o := s.ops[req.GetId()]
	_ = o.do(ctx, req.GetId()) // want `works with context.Background\(\)`
	for _, step := range s.steps {
		_ = step(ctx, req.GetId()) // a slice holding only a function that keeps the ctx
	}
	return nil, nil
}

// orphaned drops the ctx it is given.
func orphaned(ctx context.Context, id string) error { return fetch(context.TODO(), id) } // want orphaned:"drops ctx"

// Two functions merged by a phi: one of them drops.
type chooser struct {
	catalogpb.UnimplementedCatalogServer
}

func (s *chooser) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	f := passing
	if req.GetId() == "" {
		f = orphaned
	}
	_ = f(ctx, req.GetId()) // want `works with context.TODO\(\)`
	g := passing
	if req.GetId() == "x" {
		g = fetch
	}
	_ = g(ctx, req.GetId())
	return nil, nil
}

// A closure a helper returns, called later.
type preparer struct {
	catalogpb.UnimplementedCatalogServer
}

func (s *preparer) prepare(id string) func(context.Context) error {
	return func(ctx context.Context) error { return fetch(context.TODO(), id) }
}

func (s *preparer) prepareKeeping(id string) func(context.Context) error {
	return func(ctx context.Context) error { return fetch(ctx, id) }
}

func (s *preparer) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	run := s.prepare(req.GetId())
	_ = run(ctx) // want `works with context.TODO\(\)`
	keep := s.prepareKeeping(req.GetId())
	_ = keep(ctx)
	return nil, nil
}

// A package variable holding a function.
var hook = unhooked

func unhooked(ctx context.Context, id string) error { // want unhooked:"drops ctx"
	return fetch(context.Background(), id)
}

var quietHook = passing

type hooked struct {
	catalogpb.UnimplementedCatalogServer
}

func (s *hooked) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = hook(ctx, req.GetId()) // want `works with context.Background\(\)`
	_ = quietHook(ctx, req.GetId())
	return nil, nil
}

// A two-level closure: the closure a closure returns.
type stepper struct {
	catalogpb.UnimplementedCatalogServer
}

func (s *stepper) steps(state string) func(id string) func(context.Context) error {
	return func(id string) func(context.Context) error {
		return func(context.Context) error { return fetch(context.TODO(), id+state) }
	}
}

func (s *stepper) marks(state string) func(id string) func(context.Context) error {
	return func(id string) func(context.Context) error {
		return func(ctx context.Context) error { return fetch(ctx, id+state) }
	}
}

func (s *stepper) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	mk := s.steps("staged")
	step := mk(req.GetId())
	_ = step(ctx) // want `works with context.TODO\(\)`
	mark := s.marks("pending")
	_ = mark(req.GetId())(ctx)
	return nil, nil
}

// lock returns the function that releases what it took; releasing runs on a root of its own.
func lock(ctx context.Context, key string) func() {
	_ = fetch(ctx, key)
	return func() { _ = fetch(context.TODO(), "unlock "+key) }
}

type locker struct {
	catalogpb.UnimplementedCatalogServer
}

func (s *locker) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	unlock := lock(ctx, req.GetId())
	defer func() {
		unlock() // cleanup as the handler returns, deferred
	}()
	return nil, nil
}

// A slice field whose type names its parameters, filled with a literal whose type does not:
// the same type, so the elements stored are the ones called.
type validating struct {
	catalogpb.UnimplementedCatalogServer
	validators []func(ctx context.Context, req *catalogpb.GetItemRequest) error
}

func (c *cleaner) checkReq(ctx context.Context, req *catalogpb.GetItemRequest) error {
	return fetch(ctx, req.GetId())
}

func (c *cleaner) purgeReq(ctx context.Context, req *catalogpb.GetItemRequest) error { // want purgeReq:"drops ctx"
	return fetch(context.Background(), req.GetId())
}

func newValidating(c *cleaner) *validating {
	v := &validating{}
	v.validators = []func(context.Context, *catalogpb.GetItemRequest) error{c.checkReq, c.purgeReq}
	return v
}

func (s *validating) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	for _, v := range s.validators {
		if err := v(ctx, req); err != nil { // want `dynamic\.cleaner\.purgeReq, called in handler validating\.GetItem, works with context\.Background\(\)`
			return nil, err
		}
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// An alias of the func type names the same type: its elements are the literal's.
type hookFn = func(ctx context.Context, req *catalogpb.GetItemRequest, n int) error

type aliasHooks struct {
	catalogpb.UnimplementedCatalogServer
	hooks []hookFn
}

func (c *cleaner) sweepReq(ctx context.Context, req *catalogpb.GetItemRequest, n int) error { // want sweepReq:"drops ctx"
	return fetch(context.Background(), req.GetId())
}

func newAliasHooks(c *cleaner) *aliasHooks {
	return &aliasHooks{hooks: []func(context.Context, *catalogpb.GetItemRequest, int) error{c.sweepReq}}
}

func (s *aliasHooks) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	for i, h := range s.hooks {
		if err := h(ctx, req, i); err != nil { // want `dynamic\.cleaner\.sweepReq, called in handler aliasHooks\.GetItem, works with context\.Background\(\)`
			return nil, err
		}
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
