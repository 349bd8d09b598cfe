// Package nodeagent is the control plane's client for the agent that runs on
// every node (agent.v1.AgentService).
package nodeagent

import (
	"fmt"
	"sync"
	"time"

	"google.golang.org/grpc"

	agentv1 "example.test/operator/gen/agent/v1"
)

// Options tune the per-node clients.
type Options struct {
	CallTimeout  time.Duration // default budget for short calls
	ExecTimeout  time.Duration // budget for remote commands
	DrainTimeout time.Duration // extra budget on top of the grace period
	DialOptions  []grpc.DialOption
}

// Pool keeps one connection per node.
type Pool struct {
	opts Options

	mu      sync.Mutex
	conns   map[string]*grpc.ClientConn
	clients map[string]*Client
}

// NewPool returns an empty pool.
func NewPool(opts Options) *Pool {
	if opts.CallTimeout == 0 {
		opts.CallTimeout = 10 * time.Second
	}
	if opts.ExecTimeout == 0 {
		opts.ExecTimeout = 2 * time.Minute
	}
	if opts.DrainTimeout == 0 {
		opts.DrainTimeout = 30 * time.Second
	}
	return &Pool{opts: opts, conns: make(map[string]*grpc.ClientConn), clients: make(map[string]*Client)}
}

// For returns the client of node, connecting lazily to addr.
func (p *Pool) For(node, addr string) (*Client, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c, ok := p.clients[node]; ok && c.addr == addr {
		return c, nil
	}
	if old, ok := p.conns[node]; ok {
		_ = old.Close()
	}
	conn, err := grpc.NewClient(addr, p.opts.DialOptions...)
	if err != nil {
		return nil, fmt.Errorf("nodeagent: connect %s (%s): %w", node, addr, err)
	}
	c := &Client{
		node:         node,
		addr:         addr,
		rpc:          agentv1.NewAgentServiceClient(conn),
		callTimeout:  p.opts.CallTimeout,
		execTimeout:  p.opts.ExecTimeout,
		drainTimeout: p.opts.DrainTimeout,
	}
	p.conns[node] = conn
	p.clients[node] = c
	return c, nil
}

// Forget closes and removes the connection of node.
func (p *Pool) Forget(node string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if conn, ok := p.conns[node]; ok {
		_ = conn.Close()
	}
	delete(p.conns, node)
	delete(p.clients, node)
}

// Close closes every connection.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for node, conn := range p.conns {
		_ = conn.Close()
		delete(p.conns, node)
		delete(p.clients, node)
	}
	return nil
}
