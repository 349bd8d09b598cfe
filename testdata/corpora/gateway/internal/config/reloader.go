// Package config keeps the gateway's live configuration in sync with the config
// service.
package config

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"google.golang.org/grpc"

	configv1 "example.test/gateway/gen/config/v1"
)

// Sinks receive the parts of a snapshot that changed.
type Sinks struct {
	Timeouts   func(ms map[string]int64)
	RateLimits func(rps map[string]int32)
	Flags      func(flags map[string]bool)
}

// Reloader polls the config service and pushes changes into the sinks.
type Reloader struct {
	client  configv1.ConfigServiceClient
	cluster string
	every   time.Duration
	timeout time.Duration
	sinks   Sinks

	version      int64
	flagsVersion int64
}

// NewReloader loads the first snapshot, so that the server starts with a
// complete configuration, and returns a reloader for the rest.
func NewReloader(cc grpc.ClientConnInterface, cluster string, every, timeout time.Duration, sinks Sinks) (*Reloader, error) {
	r := &Reloader{client: configv1.NewConfigServiceClient(cc), cluster: cluster, every: every, timeout: timeout, sinks: sinks, flagsVersion: -1}
	ctx, cancel := context.WithTimeout(context.Background(), timeout) // OK
	defer cancel()
	if err := r.reload(ctx); err != nil {
		return nil, fmt.Errorf("config: initial snapshot: %w", err)
	}
	return r, nil
}

// Run polls until ctx is done.
func (r *Reloader) Run(ctx context.Context) error {
	t := time.NewTicker(r.every)
	defer t.Stop()
	failures := 0
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		if err := r.reload(ctx); err != nil {
			failures++
			log.Printf("config: reload %s (failure %d): %v", r.cluster, failures, err)
			if failures > 3 {
				time.Sleep(time.Duration(failures) * r.every) // OK
			}
			continue
		}
		failures = 0
	}
}

func (r *Reloader) reload(ctx context.Context) error {
	sctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	snap, err := r.client.GetSnapshot(sctx, &configv1.GetSnapshotRequest{Cluster: r.cluster}) // OK
	if err != nil {
		return err
	}
	if snap.GetVersion() == r.version {
		return nil
	}
	if r.sinks.Timeouts != nil {
		r.sinks.Timeouts(snap.GetMethodTimeoutsMs())
	}
	if r.sinks.RateLimits != nil {
		r.sinks.RateLimits(snap.GetRateLimits())
	}
	if snap.GetFlagsVersion() != r.flagsVersion && r.sinks.Flags != nil {
		flags, err := r.client.ListFlags(ctx, &configv1.ListFlagsRequest{Cluster: r.cluster})
		if err != nil {
			return fmt.Errorf("list flags: %w", err)
		}
		r.sinks.Flags(flags.GetFlags())
		r.flagsVersion = snap.GetFlagsVersion()
	}
	r.version = snap.GetVersion()
	return nil
}

// Watch follows the snapshot stream instead of polling; used where the config
// service supports it.
func (r *Reloader) Watch(ctx context.Context) error {
	stream, err := r.client.WatchSnapshots(ctx, &configv1.WatchSnapshotsRequest{Cluster: r.cluster, AfterVersion: r.version}) // OK
	if err != nil {
		return err
	}
	for {
		snap, err := stream.Recv()
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return nil
			}
			return err
		}
		if r.sinks.Timeouts != nil {
			r.sinks.Timeouts(snap.GetMethodTimeoutsMs())
		}
		r.version = snap.GetVersion()
	}
}
