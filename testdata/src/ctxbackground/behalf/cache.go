package behalf

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"

	"example.com/gen/catalogpb"
)

// Caches built on first use and kept: what the request that happens to come first pays for
// (a per-tenant store opened under a lock held throughout, an ID read once) serves every later
// request, and must not be cut short by that one request's deadline. Their look-alikes check the
// same shared state but never fill it, or are read-through caches of request data — fetched
// outside the lock, or again once an entry expires: the work runs on the requests' behalf, and
// its root is a lost deadline.

type tenantDB struct{ db db }

func openTenant(d db, id string) (*tenantDB, error) { // want openTenant:"drops ctx"
	if err := d.Exec(context.TODO(), "OPEN "+id); err != nil {
		return nil, err
	}
	return &tenantDB{db: d}, nil
}

type tenantState struct {
	dbs map[string]*tenantDB
}

type cachedName struct {
	name string
	at   time.Time
}

// Tenants opens one store per tenant, on the tenant's first request.
type Tenants struct {
	catalogpb.UnimplementedCatalogServer
	mu    sync.Mutex
	state tenantState
	seen  map[string]bool
	id    atomic.Pointer[string]
	sum   atomic.Pointer[string]
	db    db
	names map[string]string
	fresh map[string]cachedName
}

func (t *Tenants) getOrCreate(id string) (*tenantDB, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if d, ok := t.state.dbs[id]; ok {
		return d, nil
	}
	d, err := openTenant(t.db, id)
	if err != nil {
		return nil, err
	}
	t.state.dbs[id] = d
	return d, nil
}

// name is a read-through cache: it unlocks before the fetch, which is the request's own work.
func (t *Tenants) name(id string) (string, error) { // want name:"drops ctx"
	t.mu.Lock()
	n, ok := t.names[id]
	t.mu.Unlock()
	if ok {
		return n, nil
	}
	if err := t.db.Exec(context.Background(), "SELECT name "+id); err != nil {
		return "", err
	}
	t.mu.Lock()
	t.names[id] = "n"
	t.mu.Unlock()
	return "n", nil
}

// freshName holds its lock, but fetches again once an entry is a minute old: a refresh on the
// requests' behalf, not a first use.
func (t *Tenants) freshName(id string) (string, error) { // want freshName:"drops ctx"
	t.mu.Lock()
	defer t.mu.Unlock()
	if c, ok := t.fresh[id]; ok && time.Since(c.at) < time.Minute {
		return c.name, nil
	}
	if err := t.db.Exec(context.Background(), "SELECT name "+id); err != nil {
		return "", err
	}
	t.fresh[id] = cachedName{name: "n", at: time.Now()}
	return "n", nil
}

// touch looks the tenant up in a map it never fills: the work runs on every request.
func (t *Tenants) touch(id string) error { // want touch:"drops ctx"
	if !t.seen[id] {
		return nil
	}
	if _, ok := t.state.dbs[id]; !ok {
		return t.db.Exec(context.Background(), "TOUCH "+id)
	}
	return nil
}

// uniqueID reads the ID once and keeps it in an atomic field.
func (t *Tenants) uniqueID() (string, error) {
	if t.id.Load() == nil {
		if err := t.db.Exec(context.Background(), "SELECT id"); err != nil {
			return "", err
		}
		s := "id"
		t.id.Store(&s)
		return s, nil
	}
	return *t.id.Load(), nil
}

// checksum checks an atomic field it never sets: a drop on every request.
func (t *Tenants) checksum() (string, error) { // want checksum:"drops ctx"
	if t.sum.Load() == nil {
		if err := t.db.Exec(context.Background(), "SELECT sum"); err != nil {
			return "", err
		}
		return "sum", nil
	}
	return *t.sum.Load(), nil
}

func (t *Tenants) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if _, err := t.getOrCreate(req.GetId()); err != nil { // the tenant's first request opens its store for every later one: silent
		return nil, err
	}
	if _, err := t.uniqueID(); err != nil { // read once and kept: silent
		return nil, err
	}
	if err := t.touch(req.GetId()); err != nil { // want `behalf\.Tenants\.touch, called in handler Tenants\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	if _, err := t.name(req.GetId()); err != nil { // want `behalf\.Tenants\.name, called in handler Tenants\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	if _, err := t.freshName(req.GetId()); err != nil { // want `behalf\.Tenants\.freshName, called in handler Tenants\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	if _, err := t.checksum(); err != nil { // want `behalf\.Tenants\.checksum, called in handler Tenants\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}

func registerTenants(s *grpc.Server, t *Tenants) { catalogpb.RegisterCatalogServer(s, t) }
