// Package destination serves endpoint and profile updates to data-plane proxies.
package destination

import (
	"context"
	"net"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/mesh/gen/destinationv1"
	"example.test/mesh/internal/dnscache"
	"example.test/mesh/internal/lifecycle"
	"example.test/mesh/internal/store"
	"example.test/mesh/internal/telemetry"
)

// Server implements destinationv1.DestinationServer.
type Server struct {
	destinationv1.UnimplementedDestinationServer

	store       *store.Store
	resolver    *dnscache.Cache
	profiles    *profileLoader
	log         *telemetry.Logger
	fallbackDNS bool
}

// NewServer returns a destination server.
func NewServer(st *store.Store, resolver *dnscache.Cache, fallbackDNS bool) *Server {
	return &Server{store: st, resolver: resolver, profiles: &profileLoader{store: st}, log: telemetry.NewLogger("destination"), fallbackDNS: fallbackDNS}
}

// Register registers the server.
func (s *Server) Register(g *grpc.Server) { destinationv1.RegisterDestinationServer(g, s) }

func splitPath(p string) (mesh, service string) {
	if i := strings.IndexByte(p, '/'); i > 0 {
		return p[:i], p[i+1:]
	}
	return "default", p
}

func toEndpoint(r store.Resource) *destinationv1.Endpoint {
	return &destinationv1.Endpoint{Address: r.Name, Port: 8080, Weight: 1, Labels: r.Labels, Identity: r.Labels["identity"]}
}

func (s *Server) Get(req *destinationv1.GetDestination, stream destinationv1.Destination_GetServer) error {
	ctx := stream.Context()
	mesh, service := splitPath(req.GetPath())
	eps, _, err := s.store.List(ctx, mesh, "Endpoint")
	if err != nil {
		return err
	}
	initial := &destinationv1.Update{}
	for _, ep := range eps {
		if ep.Labels["service"] == service {
			initial.Add = append(initial.Add, toEndpoint(ep))
		}
	}
	initial.NoEndpoints = len(initial.Add) == 0
	if err := stream.Send(initial); err != nil {
		return err
	}
	subKey := store.Key{Mesh: mesh, Type: "EndpointSubscription", Name: req.GetContextToken()}
	if _, err := s.store.Create(ctx, store.Resource{Key: subKey, Spec: []byte(service)}); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() {
		cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // OK: ctxbackground — runs only once the stream's ctx is done (context.AfterFunc): cleanup after the proxy left
		defer cancel()
		_ = s.store.Delete(cctx, subKey, 0)
	})
	defer stop()
	updates := s.store.Watch(lifecycle.Context(), mesh, "Endpoint") // BUG: ctxflow — the watch hangs on the process's lifetime ctx; it outlives the proxy's stream
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev, ok := <-updates:
			if !ok {
				return status.Error(codes.Unavailable, "control plane shutting down")
			}
			if ev.Resource.Labels["service"] != service {
				continue
			}
			u := &destinationv1.Update{}
			if ev.Kind == "delete" {
				u.Remove = []string{ev.Resource.Name}
			} else {
				u.Add = []*destinationv1.Endpoint{toEndpoint(ev.Resource)}
			}
			if err := stream.Send(u); err != nil {
				return err
			}
		}
	}
}

func (s *Server) GetProfile(req *destinationv1.GetDestination, stream destinationv1.Destination_GetProfileServer) error {
	ctx := stream.Context()
	mesh, service := splitPath(req.GetPath())
	prof, err := s.profiles.Load(context.TODO(), mesh, service) // BUG: ctxbackground — the profile read runs on TODO, not the stream's ctx
	if err != nil {
		return err
	}
	if err := stream.Send(prof); err != nil {
		return err
	}
	// the watch must not carry the proxy's short per-call timeout down to the store's
	// watch, but must end when the proxy goes
	wctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — cancelled by context.AfterFunc when the stream's ctx is done
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	for ev := range s.store.Watch(wctx, mesh, "ServiceProfile") {
		if ev.Resource.Name != service {
			continue
		}
		if err := stream.Send(profileOf(mesh, service, ev.Resource)); err != nil {
			return err
		}
	}
	return ctx.Err()
}

func (s *Server) Resolve(ctx context.Context, req *destinationv1.ResolveRequest) (*destinationv1.ResolveResponse, error) {
	addrs, err := s.resolver.Resolve(ctx, req.GetName()) // BUG: ctxbackground — the cache refreshes an expired entry with LookupHost on context.Background(), outside its lock: the request's own work
	if err != nil && s.fallbackDNS {
		addrs, err = net.LookupHost(req.GetName()) // BUG: ctxless — package-level net.LookupHost cannot carry the deadline
	}
	if err != nil {
		return nil, status.Errorf(codes.NotFound, "resolve %s: %v", req.GetName(), err) // OK: statusmask — LookupHost takes no ctx and Resolve only logs with its own: no request deadline here
	}
	return &destinationv1.ResolveResponse{Addresses: addrs, TtlSeconds: 30}, nil
}

type profileLoader struct {
	store *store.Store
}

func (p *profileLoader) Load(ctx context.Context, mesh, service string) (*destinationv1.Profile, error) {
	r, err := p.store.Get(ctx, store.Key{Mesh: mesh, Type: "ServiceProfile", Name: service})
	if err != nil {
		if err == store.ErrNotFound {
			return &destinationv1.Profile{FullyQualifiedName: service}, nil
		}
		return nil, err
	}
	return profileOf(mesh, service, r), nil
}

func profileOf(mesh, service string, r store.Resource) *destinationv1.Profile {
	p := &destinationv1.Profile{FullyQualifiedName: service + "." + mesh + ".mesh", RetryBudgetPercent: 20}
	for _, route := range strings.Split(string(r.Spec), ",") {
		if strings.HasSuffix(route, ":retry") {
			p.RetryableRoutes = append(p.RetryableRoutes, strings.TrimSuffix(route, ":retry"))
		}
	}
	p.OpaqueProtocol = r.Labels["opaque"] == "true"
	return p
}
