// Package attempt is a client whose helpers run each call's callback under a per-attempt
// deadline when the wait they are given is positive: withClient on a goroutine (or, in a
// streaming mode, with the caller's ctx unchanged), withTimeout in place. A caller that passes
// a wait not known to be zero gets a deadline: not reported. One that passes a constant zero
// gets none, and is. A helper that runs the callback on a goroutine with the caller's ctx
// unchanged passes it on, and its callers' roots are reported.
package attempt

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
)

type Mount struct {
	client      catalogpb.CatalogClient
	callTimeout time.Duration // set by tests only
}

// rpcWait is the bound of one call.
func (m *Mount) rpcWait() time.Duration {
	if m.callTimeout > 0 {
		return m.callTimeout
	}
	return 20 * time.Second
}

// withClient runs fn with ctx when streaming, else on a goroutine under a per-attempt ctx,
// bounded by wait when wait is positive, and waits for it.
func (m *Mount) withClient(ctx context.Context, streaming bool, wait time.Duration, fn func(ctx context.Context, c catalogpb.CatalogClient) error) error {
	if streaming {
		return fn(ctx, m.client)
	}
	attempt, cancel := context.WithCancel(ctx)
	if wait > 0 {
		attempt, cancel = context.WithTimeout(ctx, wait)
	}
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- fn(attempt, m.client)
	}()
	return <-done
}

// Quota runs in a background loop of the mount: each attempt is bounded by rpcWait.
func (m *Mount) Quota() error {
	return m.withClient(context.Background(), false, m.rpcWait(), func(ctx context.Context, c catalogpb.CatalogClient) error {
		_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "quota"})
		return err
	})
}

// withClientAsync runs fn on a goroutine with ctx as it is, and waits for it.
func (m *Mount) withClientAsync(ctx context.Context, fn func(ctx context.Context, c catalogpb.CatalogClient) error) error {
	done := make(chan error, 1)
	go func() {
		done <- fn(ctx, m.client)
	}()
	if err := fn(ctx, m.client); err != nil {
		return err
	}
	return <-done
}

// Stats has no deadline on any run.
func (m *Mount) Stats() error {
	return m.withClientAsync(context.Background(), func(ctx context.Context, c catalogpb.CatalogClient) error { // want `a function literal in Mount\.Stats calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\)`
		_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "stats"})
		return err
	})
}

// Download passes no wait: the attempt has no deadline on any path.
func (m *Mount) Download() error {
	return m.withClient(context.Background(), false, 0, func(ctx context.Context, c catalogpb.CatalogClient) error { // want `a function literal in Mount\.Download calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\)`
		_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "download"})
		return err
	})
}

// withTimeout runs fn in place under a deadline when timeout is positive.
func withTimeout(ctx context.Context, timeout time.Duration, fn func(ctx context.Context) error) error {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	return fn(ctx)
}

// Refresh gives a timeout it was given: not known to be zero.
func (m *Mount) Refresh(timeout time.Duration) error {
	return withTimeout(context.Background(), timeout, func(ctx context.Context) error {
		_, err := m.client.GetItem(ctx, &catalogpb.GetItemRequest{Id: "refresh"})
		return err
	})
}

// Forever gives none.
func (m *Mount) Forever() error {
	return withTimeout(context.Background(), 0, func(ctx context.Context) error { // want `a function literal in Mount\.Forever calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\)`
		_, err := m.client.GetItem(ctx, &catalogpb.GetItemRequest{Id: "forever"})
		return err
	})
}

// withAnyClient tries each filer in turn through withClient, passing its wait on.
func (m *Mount) withAnyClient(ctx context.Context, wait time.Duration, fn func(ctx context.Context, c catalogpb.CatalogClient) error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = m.withClient(ctx, false, wait, fn); err == nil {
			return nil
		}
	}
	return err
}

// Lookup goes through withAnyClient with a wait: bounded.
func (m *Mount) Lookup() error {
	return m.withAnyClient(context.Background(), m.rpcWait(), func(ctx context.Context, c catalogpb.CatalogClient) error {
		_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "lookup"})
		return err
	})
}

// Cache goes through it with no wait: a download that may take as long as it takes.
func (m *Mount) Cache() error {
	return m.withAnyClient(context.Background(), 0, func(ctx context.Context, c catalogpb.CatalogClient) error { // want `a function literal in Mount\.Cache calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\)`
		_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "cache"})
		return err
	})
}

// withShortClient gives withClient a wait of its own: every run is bounded.
func (m *Mount) withShortClient(ctx context.Context, fn func(ctx context.Context, c catalogpb.CatalogClient) error) error {
	return m.withClient(ctx, false, time.Second, fn)
}

// Ping goes through withShortClient: bounded.
func (m *Mount) Ping() error {
	return m.withShortClient(context.Background(), func(ctx context.Context, c catalogpb.CatalogClient) error {
		_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "ping"})
		return err
	})
}

// retry runs fn until it succeeds, three times at most.
func retry(fn func() error) (err error) {
	for i := 0; i < 3; i++ {
		if err = fn(); err == nil {
			return nil
		}
	}
	return err
}

// withRetry runs withClient under retry, from a literal that captures its wait.
func (m *Mount) withRetry(ctx context.Context, wait time.Duration, fn func(ctx context.Context, c catalogpb.CatalogClient) error) error {
	return retry(func() error { return m.withClient(ctx, false, wait, fn) })
}

// Fetch retries with a wait: bounded.
func (m *Mount) Fetch() error {
	return m.withRetry(context.Background(), m.rpcWait(), func(ctx context.Context, c catalogpb.CatalogClient) error {
		_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "fetch"})
		return err
	})
}

// Mirror retries with none.
func (m *Mount) Mirror() error {
	return m.withRetry(context.Background(), 0, func(ctx context.Context, c catalogpb.CatalogClient) error { // want `a function literal in Mount\.Mirror calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\)`
		_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "mirror"})
		return err
	})
}
