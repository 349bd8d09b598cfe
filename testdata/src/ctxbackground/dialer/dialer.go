// Package dialer is a gRPC service that keeps a cache of connections to its peers. A root
// context given only to a dial is the idiom: the connection is shared by every later request.
package dialer

import (
	"context"
	"net"
	"sync"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	mu    sync.Mutex
	conns map[string]*grpc.ClientConn
	raw   map[string]net.Conn
	items store
}

type store interface {
	Load(ctx context.Context, id string) (*catalogpb.Item, error)
}

// conn dials a peer with a root context: the connection outlives the request that asked.
func (s *Server) conn(addr string) (*grpc.ClientConn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cc := s.conns[addr]; cc != nil {
		return cc, nil
	}
	cc, err := grpc.DialContext(context.Background(), addr)
	if err != nil {
		return nil, err
	}
	s.conns[addr] = cc
	return cc, nil
}

// timedConn dials under a timeout derived from the ctx it is given, and keeps the connection:
// it uses its ctx only to dial.
func (s *Server) timedConn(ctx context.Context, addr string) (*grpc.ClientConn, error) {
	dctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	cc, err := grpc.DialContext(dctx, addr)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conns[addr] = cc
	return cc, nil
}

// peer gives timedConn a root: the connection outlives the request that asked.
func (s *Server) peer(addr string) (*grpc.ClientConn, error) {
	return s.timedConn(context.Background(), addr)
}

// rawConn does the same with a net.Dialer.
func (s *Server) rawConn(addr string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(context.Background(), "tcp", addr)
}

// fetch dials, then works with a root context: the work is what loses the deadline.
func (s *Server) fetch(addr, id string) (*catalogpb.Item, error) { // want fetch:"drops ctx: context.Background\\(\\) at .*/dialer.go:73"
	if _, err := s.conn(addr); err != nil {
		return nil, err
	}
	return s.items.Load(context.Background(), id)
}

// ask makes an RPC with a root: the RPC waits forever, missingdeadline's finding at the call;
// one root is reported by one rule, so no handler's call of ask is reported here.
func (s *Server) ask(cc *grpc.ClientConn, id string) (*catalogpb.Item, error) {
	return catalogpb.NewCatalogClient(cc).GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id})
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	cc, err := s.conn("peer:443") // a dial helper: silent
	if err != nil {
		return nil, err
	}
	if _, err := s.peer("peer:8443"); err != nil { // a dial with a timeout: silent too
		return nil, err
	}
	if _, err := s.rawConn("peer:80"); err != nil { // silent too
		return nil, err
	}
	if _, err := catalogpb.NewCatalogClient(cc).GetItem(ctx, req); err != nil {
		return nil, err
	}
	if _, err := s.ask(cc, req.GetId()); err != nil { // silent: missingdeadline's
		return nil, err
	}
	return s.fetch("peer:443", req.GetId()) // want `dialer\.Server\.fetch, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
}

// ListItems dials in the handler itself: a root in a request scope is reported where it is.
func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	cc, err := grpc.DialContext(context.Background(), "peer:443") // want `context.Background\(\) in handler Server.ListItems`
	if err != nil {
		return err
	}
	return cc.Close()
}
