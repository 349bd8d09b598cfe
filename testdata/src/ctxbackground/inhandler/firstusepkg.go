package inhandler

import (
	"context"
	"sync"
	"sync/atomic"

	"example.com/gen/catalogpb"
)

// The same first uses, with the state kept in package-level variables rather than in the
// server: a schema made once under a package mutex, a warm-up for the caller that wins a swap,
// a per-tenant handle opened once into a package map while its lock is held. Silent. A package
// variable tested but set elsewhere, or counted rather than set, or put back, is no first use:
// reported.
var (
	schemaMu    sync.Mutex
	schemaReady bool
	warmed      atomic.Bool
	tenantsMu   sync.Mutex
	tenants     = map[string]string{}
	maintenance bool
	hits        int
	pulled      bool
)

type Shared struct{ Versioned }

func (s *Shared) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	schemaMu.Lock()
	if !schemaReady {
		s.probe(context.Background())
		schemaReady = true
	}
	schemaMu.Unlock()
	if warmed.CompareAndSwap(false, true) {
		s.probe(context.TODO())
	}
	return &catalogpb.Item{Id: s.tenant(req.GetId())}, nil
}

// tenant opens a tenant's handle once and keeps it.
func (s *Shared) tenant(id string) string {
	tenantsMu.Lock()
	defer tenantsMu.Unlock()
	if t, ok := tenants[id]; ok {
		return t
	}
	t := s.probe(context.Background())
	tenants[id] = t
	return t
}

func (s *Shared) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	if !maintenance {
		s.probe(context.Background()) // want `context\.Background\(\) in handler Shared\.ListItems drops the caller's deadline and cancellation; pass stream\.Context\(\)`
	}
	return nil
}

func (s *Shared) UploadItems(stream catalogpb.Catalog_UploadItemsServer) error {
	if hits == 0 {
		s.probe(context.Background()) // want `context\.Background\(\) in handler Shared\.UploadItems drops the caller's deadline and cancellation; pass stream\.Context\(\)`
	}
	hits++
	return nil
}

func (s *Shared) Chat(stream catalogpb.Catalog_ChatServer) error {
	if !pulled {
		s.probe(context.Background()) // want `context\.Background\(\) in handler Shared\.Chat drops the caller's deadline and cancellation; pass stream\.Context\(\)`
		pulled = false
	}
	return nil
}

// setMaintenance sets the flag ListItems tests: elsewhere, not on a first use.
func setMaintenance(on bool) { maintenance = on }
