// Package wal is the streaming service: the write-ahead log every insert goes
// through, its server (the streaming node) and the client the proxy uses.
package wal

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
	"time"

	"google.golang.org/grpc"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/grpcx"
	"example.test/vectordb/internal/log"
)

// ErrNoAssignment is returned when no streaming node serves a channel.
var ErrNoAssignment = errors.New("no streaming node assigned")

// Client appends to the WAL. The balancer (which node serves which
// pchannel) must be discovered before the first append.
type Client struct {
	discover vdbpb.StreamingNodeClient
	conns    *grpcx.ConnCache

	once    sync.Once
	assign  []*vdbpb.Assignment
	discErr error

	mu        sync.Mutex
	producers map[string]*Producer
}

// NewClient returns a client discovering assignments over cc.
func NewClient(cc grpc.ClientConnInterface, conns *grpcx.ConnCache) *Client {
	return &Client{discover: vdbpb.NewStreamingNodeClient(cc), conns: conns, producers: map[string]*Producer{}}
}

func (c *Client) ensureBalancer() error {
	c.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // OK: ctxbackground — one-time discovery in a sync.Once, shared by every later request
		defer cancel()
		resp, err := c.discover.AssignmentDiscover(ctx, &vdbpb.DiscoverRequest{})
		if err != nil {
			c.discErr = fmt.Errorf("discover streaming nodes: %w", err)
			return
		}
		c.assign = resp.GetAssignments()
	})
	return c.discErr
}

func (c *Client) addrFor(vchannel string) (string, error) {
	if len(c.assign) == 0 {
		return "", ErrNoAssignment
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(vchannel))
	return c.assign[int(h.Sum32())%len(c.assign)].GetAddr(), nil
}

// Append appends msgs to vchannel and returns the last timestamp.
func (c *Client) Append(ctx context.Context, vchannel string, msgs []*vdbpb.WALMessage) (uint64, error) {
	if err := c.ensureBalancer(); err != nil {
		return 0, err
	}
	addr, err := c.addrFor(vchannel)
	if err != nil {
		return 0, err
	}
	var ts uint64
	err = c.conns.WithClient(ctx, addr, func(cc *grpc.ClientConn) error {
		resp, err := vdbpb.NewStreamingNodeClient(cc).Append(ctx, &vdbpb.AppendRequest{Vchannel: vchannel, Messages: msgs})
		ts = resp.GetLastTs()
		return err
	})
	return ts, err
}

// Produce sends one message on the channel's long-lived producer and waits
// for its acknowledgement.
func (c *Client) Produce(ctx context.Context, vchannel string, msg *vdbpb.WALMessage) (uint64, error) {
	p, err := c.producerFor(vchannel)
	if err != nil {
		return 0, err
	}
	return p.Send(ctx, msg)
}

// producerFor returns the channel's producer, opening it on first use. The
// producer outlives every request that uses it.
func (c *Client) producerFor(vchannel string) (*Producer, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.producers[vchannel]; ok {
		return p, nil
	}
	if err := c.ensureBalancer(); err != nil {
		return nil, err
	}
	addr, err := c.addrFor(vchannel)
	if err != nil {
		return nil, err
	}
	cc, err := c.conns.Get(addr)
	if err != nil {
		return nil, err
	}
	p, err := newProducer(context.Background(), vdbpb.NewStreamingNodeClient(cc)) // OK: ctxbackground — a per-channel producer created once under the lock, keeping its cancel until Close
	if err != nil {
		return nil, err
	}
	c.producers[vchannel] = p
	return p, nil
}

// Close closes every producer.
func (c *Client) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, p := range c.producers {
		p.Close()
		delete(c.producers, k)
	}
}

// Producer is a bidi stream to a streaming node, shared by requests.
type Producer struct {
	stream vdbpb.StreamingNode_ProduceClient
	cancel context.CancelFunc

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan *vdbpb.ProduceResponse
}

func newProducer(parent context.Context, c vdbpb.StreamingNodeClient) (*Producer, error) {
	ctx, cancel := context.WithCancel(parent)
	stream, err := c.Produce(ctx) // OK: missingdeadline — a bidi stream, not a unary call
	if err != nil {
		cancel()
		return nil, err
	}
	p := &Producer{stream: stream, cancel: cancel, pending: map[int64]chan *vdbpb.ProduceResponse{}}
	go p.recvLoop()
	return p, nil
}

func (p *Producer) recvLoop() {
	for {
		resp, err := p.stream.Recv()
		if err != nil {
			log.L().Warn("producer closed", log.Err(err))
			p.failAll(err)
			return
		}
		p.mu.Lock()
		ch := p.pending[resp.GetRequestId()]
		delete(p.pending, resp.GetRequestId())
		p.mu.Unlock()
		if ch != nil {
			ch <- resp
		}
	}
}

func (p *Producer) failAll(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for id, ch := range p.pending {
		ch <- &vdbpb.ProduceResponse{RequestId: id, Error: err.Error()}
		delete(p.pending, id)
	}
}

// Send sends msg and waits for its acknowledgement or for ctx.
func (p *Producer) Send(ctx context.Context, msg *vdbpb.WALMessage) (uint64, error) {
	ch := make(chan *vdbpb.ProduceResponse, 1)
	p.mu.Lock()
	p.nextID++
	id := p.nextID
	p.pending[id] = ch
	err := p.stream.Send(&vdbpb.ProduceRequest{RequestId: id, Message: msg})
	p.mu.Unlock()
	if err != nil {
		return 0, err
	}
	select {
	case resp := <-ch:
		if resp.GetError() != "" {
			return 0, errors.New(resp.GetError())
		}
		return resp.GetTs(), nil
	case <-ctx.Done():
		p.mu.Lock()
		delete(p.pending, id)
		p.mu.Unlock()
		return 0, ctx.Err()
	}
}

// Close ends the stream.
func (p *Producer) Close() { p.cancel() }
