// Package ids hands out a cluster's ID, read once and kept, and its live leader, read on every
// call.
package ids

import (
	"context"
	"sync"
)

// IDs reads from a cluster.
type IDs struct {
	once    sync.Once
	cluster string
	read    func(ctx context.Context, key string) (string, error)
}

// Cluster reads the cluster's name once, in a literal sync.Once runs.
func (i *IDs) Cluster(ctx context.Context) string {
	i.once.Do(func() {
		i.cluster, _ = i.read(ctx, "cluster")
	})
	return i.cluster
}

// Leader reads the leader on every call.
func (i *IDs) Leader(ctx context.Context) (string, error) {
	return i.read(ctx, "leader")
}
