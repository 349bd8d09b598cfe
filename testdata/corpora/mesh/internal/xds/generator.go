package xds

import (
	"context"
	"fmt"
	"sync"

	"example.test/mesh/gen/discoveryv1"
	"example.test/mesh/internal/store"
)

// Generator turns a mesh's policies into node resources. Each mesh's policy set is loaded on
// first use and afterwards kept current by the reconciler.
type Generator struct {
	store *store.Store

	mu     sync.Mutex
	meshes map[string]*meshGen
}

type meshGen struct {
	mesh     string
	policies []store.Resource
}

// NewGenerator returns a generator over st.
func NewGenerator(st *store.Store) *Generator {
	return &Generator{store: st, meshes: map[string]*meshGen{}}
}

// ForMesh returns the mesh's generator, loading its policies the first time.
func (g *Generator) ForMesh(ctx context.Context, mesh string) (*meshGen, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if mg, ok := g.meshes[mesh]; ok {
		return mg, nil
	}
	// shared by every stream of the mesh: a stream that goes away must not fail the load
	policies, _, err := g.store.List(context.Background(), mesh, "TrafficPolicy")
	if err != nil {
		return nil, err
	}
	mg := &meshGen{mesh: mesh, policies: policies}
	g.meshes[mesh] = mg
	return mg, nil
}

// Update replaces a mesh's policies.
func (g *Generator) Update(mesh string, policies []store.Resource) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.meshes[mesh] = &meshGen{mesh: mesh, policies: policies}
}

func (m *meshGen) resources(typeURL string) []*discoveryv1.Resource {
	out := make([]*discoveryv1.Resource, 0, len(m.policies))
	for _, p := range m.policies {
		out = append(out, &discoveryv1.Resource{
			Name:    p.Name,
			TypeUrl: typeURL,
			Version: fmt.Sprint(p.Version),
			Body:    p.Spec,
		})
	}
	return out
}
