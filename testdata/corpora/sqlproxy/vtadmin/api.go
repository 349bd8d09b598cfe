// Package vtadmin serves the multi-cluster admin API over connect-go: it
// fans out to the vtctlds and tablets of every cluster it knows.
package vtadmin

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/sqlproxy/gen/adminpb"
	"example.test/sqlproxy/gen/adminpb/adminpbconnect"
	"example.test/sqlproxy/tmclient"
)

// Cluster is one cluster the API serves.
type Cluster struct {
	ID         string
	Name       string
	VtctldAddr string
	Tablets    []string

	tmc *tmclient.Client

	mu     sync.Mutex
	conn   *grpc.ClientConn
	vtctld adminpb.VtctldClient
}

// dialVtctld returns the cluster's vtctld client, dialling it on first use;
// the connection is kept for every later request.
func (c *Cluster) dialVtctld(ctx context.Context) (adminpb.VtctldClient, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.vtctld != nil {
		return c.vtctld, nil
	}
	cc, err := grpc.DialContext(ctx, c.VtctldAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	c.conn, c.vtctld = cc, adminpb.NewVtctldClient(cc)
	return c.vtctld, nil
}

// API implements the VTAdmin service.
type API struct {
	ctx    context.Context
	cancel context.CancelFunc

	clusters map[string]*Cluster
}

var _ adminpbconnect.VTAdminHandler = (*API)(nil)

// NewAPI returns the API over clusters.
func NewAPI(clusters []*Cluster, tmc *tmclient.Client) *API {
	ctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — constructor: the API's lifetime
	api := &API{ctx: ctx, cancel: cancel, clusters: map[string]*Cluster{}}
	for _, c := range clusters {
		c.tmc = tmc
		api.clusters[c.ID] = c
	}
	return api
}

// Close closes the vtctld connections.
func (api *API) Close() {
	api.cancel()
	for _, c := range api.clusters {
		c.mu.Lock()
		if c.conn != nil {
			_ = c.conn.Close()
		}
		c.mu.Unlock()
	}
}

func (api *API) sorted() []*Cluster {
	out := make([]*Cluster, 0, len(api.clusters))
	for _, c := range api.clusters {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// GetClusters lists the clusters, from memory.
func (api *API) GetClusters(ctx context.Context, _ *connect.Request[adminpb.GetClustersRequest]) (*connect.Response[adminpb.GetClustersResponse], error) {
	resp := &adminpb.GetClustersResponse{}
	for _, c := range api.sorted() {
		resp.Clusters = append(resp.Clusters, &adminpb.Cluster{Id: c.ID, Name: c.Name})
	}
	return connect.NewResponse(resp), nil
}

// GetSchema returns table definitions from one tablet of a cluster.
func (api *API) GetSchema(ctx context.Context, req *connect.Request[adminpb.AdminGetSchemaRequest]) (*connect.Response[adminpb.AdminGetSchemaResponse], error) {
	c, ok := api.clusters[req.Msg.GetClusterId()]
	if !ok {
		return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("no cluster %q", req.Msg.GetClusterId()))
	}
	addr := req.Msg.GetTabletAddr()
	schema, err := c.tmc.GetSchema(ctx, addr, req.Msg.GetTables())
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("get schema from %s: %w", addr, err)) // BUG: statusmask — a tablet call cut off by the request's deadline is reported as Internal
	}
	resp := &adminpb.AdminGetSchemaResponse{}
	for _, t := range schema.GetTables() {
		resp.TableDefinitions = append(resp.TableDefinitions, t.GetSchema())
	}
	return connect.NewResponse(resp), nil
}

// FindTable looks for a table in every cluster.
func (api *API) FindTable(ctx context.Context, req *connect.Request[adminpb.FindTableRequest]) (*connect.Response[adminpb.FindTableResponse], error) {
	table := req.Msg.GetTable()
	for _, c := range api.sorted() {
		vc, err := c.dialVtctld(api.ctx) // OK: ctxflow — a dial helper that only dials with the API's ctx and keeps the connection
		if err != nil {
			continue
		}
		kss, err := vc.GetKeyspaces(ctx, &adminpb.GetKeyspacesRequest{})
		if err != nil {
			if code := connect.CodeOf(err); code == connect.CodeDeadlineExceeded || code == connect.CodeCanceled {
				return nil, err
			}
			return nil, connect.NewError(connect.CodeUnavailable, fmt.Errorf("cluster %s: %w", c.ID, err)) // OK: statusmask — connect.CodeOf of the error is checked first
		}
		for _, ks := range kss.GetKeyspaces() {
			for _, addr := range c.Tablets {
				schema, err := c.tmc.GetSchema(ctx, addr, []string{table})
				if err != nil || len(schema.GetTables()) == 0 {
					continue
				}
				def := schema.GetTables()[0].GetSchema()
				if strings.Contains(def, ks.GetName()) || len(kss.GetKeyspaces()) == 1 {
					return connect.NewResponse(&adminpb.FindTableResponse{ClusterId: c.ID, Keyspace: ks.GetName(), Definition: def}), nil
				}
			}
		}
	}
	return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("table %q not found", table))
}
