package vtgate

import (
	"context"
	"sync"
	"time"

	"example.test/sqlproxy/topo"
)

type vschemaEntry struct {
	vs      *topo.VSchema
	fetched time.Time
}

// vschemaCache is a read-through cache of the keyspaces' vschemas.
type vschemaCache struct {
	ts  *topo.Server
	ttl time.Duration

	mu      sync.Mutex
	entries map[string]vschemaEntry
}

// Get returns the vschema of keyspace, reading it from the topo when it is
// missing or older than the cache's TTL.
func (c *vschemaCache) Get(keyspace string) (*topo.VSchema, error) {
	c.mu.Lock()
	e, ok := c.entries[keyspace]
	c.mu.Unlock()
	if ok && time.Since(e.fetched) < c.ttl {
		return e.vs, nil
	}
	vs, err := c.ts.GetVSchema(context.Background(), keyspace)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.entries[keyspace] = vschemaEntry{vs: vs, fetched: time.Now()}
	c.mu.Unlock()
	return vs, nil
}

func (c *vschemaCache) invalidate(keyspace string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, keyspace)
}

// VSchemaOverrides supplies vschemas that take precedence over the topo's,
// for migrations and single-process setups.
type VSchemaOverrides interface {
	Lookup(ctx context.Context, keyspace string) (*topo.VSchema, bool)
}

type staticOverrides map[string]*topo.VSchema

func (o staticOverrides) Lookup(_ context.Context, keyspace string) (*topo.VSchema, bool) {
	vs, ok := o[keyspace]
	return vs, ok
}

type noOverrides struct{}

func (noOverrides) Lookup(context.Context, string) (*topo.VSchema, bool) { return nil, false }
