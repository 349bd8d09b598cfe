package topo

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"sort"
	"strings"
	"sync/atomic"
	"time"
)

// Server is the typed API over a topology store.
type Server struct {
	conn      Conn
	clusterID atomic.Pointer[string]
}

// Open connects to the store implementation impl at addr.
func Open(impl, addr, root string) (*Server, error) {
	switch impl {
	case "memory":
		return NewServer(NewMemConn()), nil
	case "consul", "http":
		return NewServer(&httpConn{client: &http.Client{}, base: strings.TrimSuffix(addr, "/") + "/" + strings.Trim(root, "/")}), nil
	}
	return nil, fmt.Errorf("topo: unknown implementation %q", impl)
}

// NewServer returns a Server over conn.
func NewServer(conn Conn) *Server {
	return &Server{conn: conn}
}

func keyspacePath(ks string) string     { return path.Join("keyspaces", ks, "Keyspace") }
func shardPath(ks, shard string) string { return path.Join("keyspaces", ks, "shards", shard, "Shard") }
func tabletPath(alias string) string    { return path.Join("tablets", alias, "Tablet") }
func srvKeyspacePath(cell, ks string) string {
	return path.Join("cells", cell, "keyspaces", ks, "SrvKeyspace")
}

func (s *Server) getJSON(ctx context.Context, p string, v any) (Version, error) {
	data, version, err := s.conn.Get(ctx, p)
	if err != nil {
		return 0, err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return 0, fmt.Errorf("topo: bad record at %s: %w", p, err)
	}
	return version, nil
}

func (s *Server) putJSON(ctx context.Context, p string, v any, version Version) (Version, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return 0, err
	}
	return s.conn.Update(ctx, p, data, version)
}

// GetKeyspace reads the record of keyspace.
func (s *Server) GetKeyspace(ctx context.Context, keyspace string) (*Keyspace, error) {
	ks := &Keyspace{}
	if _, err := s.getJSON(ctx, keyspacePath(keyspace), ks); err != nil {
		return nil, fmt.Errorf("keyspace %s: %w", keyspace, err)
	}
	return ks, nil
}

// GetKeyspaceNames lists the keyspaces.
func (s *Server) GetKeyspaceNames(ctx context.Context) ([]string, error) {
	names, err := s.conn.List(ctx, "keyspaces")
	sort.Strings(names)
	return names, err
}

// GetShardNames lists the shards of keyspace.
func (s *Server) GetShardNames(ctx context.Context, keyspace string) ([]string, error) {
	// TODO: plumb ctx through once every caller has one.
	names, err := s.conn.List(context.TODO(), path.Join("keyspaces", keyspace, "shards"))
	if err != nil {
		return nil, fmt.Errorf("shards of %s: %w", keyspace, err)
	}
	sort.Strings(names)
	return names, nil
}

// GetShard reads the record of one shard.
func (s *Server) GetShard(ctx context.Context, keyspace, shard string) (*Shard, Version, error) {
	sh := &Shard{}
	v, err := s.getJSON(ctx, shardPath(keyspace, shard), sh)
	return sh, v, err
}

// UpdateShard writes sh back, failing if it changed since version.
func (s *Server) UpdateShard(ctx context.Context, sh *Shard, version Version) error {
	_, err := s.putJSON(ctx, shardPath(sh.Keyspace, sh.Name), sh, version)
	return err
}

// CreateShard creates the record of a shard and adds it to its keyspace.
// When the keyspace cannot be updated the shard record is removed again.
func (s *Server) CreateShard(ctx context.Context, keyspace, shard string) (err error) {
	p := shardPath(keyspace, shard)
	v, err := s.putJSON(ctx, p, &Shard{Keyspace: keyspace, Name: shard}, 0)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = s.conn.Delete(context.WithoutCancel(ctx), p, v) // OK: detach — the ctx of a library function called from anywhere, released on its failure path
		}
	}()
	ks := &Keyspace{}
	kv, err := s.getJSON(ctx, keyspacePath(keyspace), ks)
	if err != nil {
		return err
	}
	ks.Shards = append(ks.Shards, shard)
	_, err = s.putJSON(ctx, keyspacePath(keyspace), ks, kv)
	return err
}

// GetTablet reads the record of the tablet alias.
func (s *Server) GetTablet(ctx context.Context, alias string) (*Tablet, error) {
	t := &Tablet{}
	if _, err := s.getJSON(ctx, tabletPath(alias), t); err != nil {
		return nil, fmt.Errorf("tablet %s: %w", alias, err)
	}
	return t, nil
}

// UpdateTabletType changes the type of the tablet alias.
func (s *Server) UpdateTabletType(ctx context.Context, alias, tabletType string) error {
	t := &Tablet{}
	v, err := s.getJSON(ctx, tabletPath(alias), t)
	if err != nil {
		return err
	}
	t.Type = tabletType
	_, err = s.putJSON(ctx, tabletPath(alias), t, v)
	return err
}

func (s *Server) tabletsWhere(ctx context.Context, keep func(*Tablet) bool) ([]*Tablet, error) {
	aliases, err := s.conn.List(ctx, "tablets")
	if err != nil {
		return nil, err
	}
	var out []*Tablet
	for _, a := range aliases {
		t, err := s.GetTablet(ctx, a)
		if err != nil {
			return nil, err
		}
		if keep(t) {
			out = append(out, t)
		}
	}
	return out, nil
}

// GetTabletsByCell reads every tablet of cell.
func (s *Server) GetTabletsByCell(ctx context.Context, cell string) ([]*Tablet, error) {
	return s.tabletsWhere(ctx, func(t *Tablet) bool { return t.Cell == cell })
}

// GetTabletsByShard reads the tablets of one shard, in every cell.
func (s *Server) GetTabletsByShard(ctx context.Context, keyspace, shard string) ([]*Tablet, error) {
	return s.tabletsWhere(ctx, func(t *Tablet) bool { return t.Keyspace == keyspace && t.Shard == shard })
}

// GetSrvKeyspace reads the serving graph of keyspace in cell.
func (s *Server) GetSrvKeyspace(ctx context.Context, cell, keyspace string) (*SrvKeyspace, error) {
	sk := &SrvKeyspace{}
	if _, err := s.getJSON(ctx, srvKeyspacePath(cell, keyspace), sk); err != nil {
		return nil, err
	}
	return sk, nil
}

// GetVSchema reads the routing schema of keyspace.
func (s *Server) GetVSchema(ctx context.Context, keyspace string) (*VSchema, error) {
	vs := &VSchema{}
	if _, err := s.getJSON(ctx, path.Join("keyspaces", keyspace, "VSchema"), vs); err != nil {
		return nil, err
	}
	return vs, nil
}

// GetRoutingRules reads the global routing rules.
func (s *Server) GetRoutingRules(ctx context.Context) (*RoutingRules, error) {
	rr := &RoutingRules{Rules: map[string][]string{}}
	if _, err := s.getJSON(ctx, "RoutingRules", rr); err != nil && err != ErrNoNode {
		return nil, err
	}
	return rr, nil
}

// RecordEvent appends an event to the keyspace's event log.
func (s *Server) RecordEvent(ctx context.Context, keyspace, kind, msg string) error {
	p := path.Join("keyspaces", keyspace, "events", time.Now().UTC().Format(time.RFC3339Nano))
	_, err := s.putJSON(ctx, p, map[string]string{"kind": kind, "message": msg}, 0)
	return err
}

// ClusterID returns the id of the topology cluster. It is read from the
// store on first use and kept: it never changes.
func (s *Server) ClusterID(ctx context.Context) (string, error) {
	if id := s.clusterID.Load(); id != nil {
		return *id, nil
	}
	data, _, err := s.conn.Get(ctx, "cluster_id")
	if err != nil {
		return "", err
	}
	id := string(data)
	s.clusterID.Store(&id)
	return id, nil
}

type keyspaceLock struct {
	desc   LockDescriptor
	cancel context.CancelFunc
}

// keepAlive checks the lock until its lease ends or it is released.
func (l *keyspaceLock) keepAlive(ctx context.Context) {
	t := time.NewTicker(LockTTL / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := l.desc.Check(ctx); err != nil {
				return
			}
		}
	}
}

// LockKeyspace takes the lock of keyspace for action. It returns the
// context to do the locked work with and the function that releases the
// lock, to be deferred by the caller: unlock(&err) records a failure to
// unlock in err.
func (s *Server) LockKeyspace(ctx context.Context, keyspace, action string) (context.Context, func(*error), error) {
	desc, err := s.conn.Lock(ctx, path.Join("keyspaces", keyspace), action)
	if err != nil {
		return nil, nil, err
	}
	// The lease lives for its TTL, kept alive by its own goroutine; the
	// caller's deadline has nothing to do with it.
	ttlCtx, ttlCancel := context.WithTimeout(context.Background(), LockTTL)
	lk := &keyspaceLock{desc: desc, cancel: ttlCancel}
	go lk.keepAlive(ttlCtx)
	unlock := func(finalErr *error) {
		// Release on a bounded context of its own: the caller's may be the
		// reason we are unlocking.
		uctx, cancel := context.WithTimeout(context.Background(), RemoteOperationTimeout)
		defer cancel()
		lk.cancel()
		if err := desc.Unlock(uctx); err != nil && *finalErr == nil {
			*finalErr = fmt.Errorf("unlock %s: %w", keyspace, err)
		}
	}
	return ctx, unlock, nil
}

// WatchSrvKeyspace polls the serving graph of keyspace in cell and sends
// every new version on the returned channel, until ctx is done.
func (s *Server) WatchSrvKeyspace(ctx context.Context, cell, keyspace string) <-chan *SrvKeyspace {
	ch := make(chan *SrvKeyspace, 1)
	go func() {
		defer close(ch)
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		var last []byte
		for {
			data, _, err := s.conn.Get(ctx, srvKeyspacePath(cell, keyspace))
			if err == nil && string(data) != string(last) {
				sk := &SrvKeyspace{}
				if json.Unmarshal(data, sk) == nil {
					last = data
					select {
					case ch <- sk:
					case <-ctx.Done():
						return
					}
				}
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return ch
}
