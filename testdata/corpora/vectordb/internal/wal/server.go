package wal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/conc"
	"example.test/vectordb/internal/grpcx"
	"example.test/vectordb/internal/lifecycle"
	"example.test/vectordb/internal/log"
	"example.test/vectordb/internal/metrics"
	"example.test/vectordb/internal/storage"
)

// Server is the streaming node.
type Server struct {
	vdbpb.UnimplementedStreamingNodeServer
	*lifecycle.Base

	wal     *memLog
	cm      *storage.ChunkManager
	flusher *conc.Pool
	assign  []*vdbpb.Assignment
	version int64
}

// NewServer returns a streaming node persisting rolled segments through cm.
func NewServer(cm *storage.ChunkManager, self string, pchannels []string) *Server {
	s := &Server{Base: lifecycle.NewBase("streamingnode"), wal: newMemLog(1024), cm: cm, flusher: conc.NewPool(4)}
	for _, p := range pchannels {
		s.assign = append(s.assign, &vdbpb.Assignment{Pchannel: p, Addr: self})
	}
	return s
}

func (s *Server) Start() error { s.SetState(lifecycle.Healthy); return nil }
func (s *Server) Stop() error  { s.SetState(lifecycle.Stopped); s.flusher.Wait(); return nil }

// Append appends a batch and waits until it is durable in memory.
func (s *Server) Append(ctx context.Context, req *vdbpb.AppendRequest) (*vdbpb.AppendResponse, error) {
	if err := s.CheckHealthy(); err != nil {
		return nil, status.Error(codes.Unavailable, err.Error()) // OK: statusmask — the error is the component state, no call given the request's ctx
	}
	last, full, err := s.wal.Append(ctx, req.GetVchannel(), req.GetMessages())
	if err != nil {
		return nil, grpcx.Status(err) // OK: statusmask — the module's mapping helper keeps deadline codes
	}
	metrics.WALAppended.Add(ctx, int64(len(req.GetMessages())))
	if full != nil {
		s.flusher.Submit(func() error {
			return s.persist(log.Detached(ctx), req.GetVchannel(), full) // OK: ctxbackground — documented detach helper, run by the flush pool after the request
		})
	}
	return &vdbpb.AppendResponse{LastTs: last}, nil
}

func (s *Server) persist(ctx context.Context, vchannel string, seg *segment) error {
	path := fmt.Sprintf("wal/%s/%d-%d", vchannel, seg.first, seg.last)
	if err := s.cm.Write(ctx, path, seg.encode()); err != nil {
		log.Ctx(ctx).Warn("persist wal segment", log.String("path", path), log.Err(err))
		return err
	}
	return nil
}

// Produce is the bidi append stream a proxy keeps open.
func (s *Server) Produce(stream vdbpb.StreamingNode_ProduceServer) error {
	ctx := stream.Context()
	for {
		req, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		msg := req.GetMessage()
		last, _, err := s.wal.Append(ctx, msg.GetVchannel(), []*vdbpb.WALMessage{msg})
		resp := &vdbpb.ProduceResponse{RequestId: req.GetRequestId(), Ts: last}
		if err != nil {
			resp.Error = err.Error()
		}
		if err := stream.Send(resp); err != nil {
			return err
		}
	}
}

// Consume follows a channel from startTs. The follow must not carry a short
// client timeout down into the reader, but stops when the client goes.
func (s *Server) Consume(req *vdbpb.ConsumeRequest, stream vdbpb.StreamingNode_ConsumeServer) error {
	fctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — cancelled by context.AfterFunc when the request's ctx is done: the request's own ctx
	defer cancel()
	stop := context.AfterFunc(stream.Context(), cancel)
	defer stop()

	sub := s.wal.Subscribe(fctx, req.GetVchannel(), req.GetStartTs())
	for {
		select {
		case <-fctx.Done():
			return status.FromContextError(fctx.Err()).Err()
		case m, ok := <-sub:
			if !ok {
				return nil
			}
			if err := stream.Send(&vdbpb.ConsumeResponse{Message: m}); err != nil {
				return err
			}
		}
	}
}

// AssignmentDiscover tells clients which node serves which pchannel.
func (s *Server) AssignmentDiscover(ctx context.Context, _ *vdbpb.DiscoverRequest) (*vdbpb.DiscoverResponse, error) {
	log.Info(context.Background(), "assignment discover", log.Int("assignments", len(s.assign))) // OK: ctxbackground — a root used only to log with
	return &vdbpb.DiscoverResponse{Assignments: s.assign, Version: s.version}, nil
}

// memLog is the in-memory tail of the WAL.
type memLog struct {
	mu      sync.Mutex
	cond    *sync.Cond
	segSize int
	ts      uint64
	chans   map[string]*segment
	subs    map[string][]chan *vdbpb.WALMessage
}

type segment struct {
	first, last uint64
	msgs        []*vdbpb.WALMessage
}

func (g *segment) encode() []byte {
	var out []byte
	for _, m := range g.msgs {
		out = append(out, m.GetPayload()...)
	}
	return out
}

func newMemLog(segSize int) *memLog {
	l := &memLog{segSize: segSize, chans: map[string]*segment{}, subs: map[string][]chan *vdbpb.WALMessage{}}
	l.cond = sync.NewCond(&l.mu)
	return l
}

// Append assigns timestamps, fans the messages out to subscribers and
// returns the rolled segment when the active one is full.
func (l *memLog) Append(ctx context.Context, vchannel string, msgs []*vdbpb.WALMessage) (uint64, *segment, error) {
	if err := ctx.Err(); err != nil {
		return 0, nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	seg := l.chans[vchannel]
	if seg == nil {
		seg = &segment{first: l.ts + 1}
		l.chans[vchannel] = seg
	}
	for _, m := range msgs {
		l.ts++
		m.Ts = l.ts
		seg.msgs = append(seg.msgs, m)
		seg.last = l.ts
		for _, ch := range l.subs[vchannel] {
			select {
			case ch <- m:
			case <-ctx.Done():
				return 0, nil, ctx.Err()
			case <-time.After(time.Second):
			}
		}
	}
	var full *segment
	if len(seg.msgs) >= l.segSize {
		full = seg
		delete(l.chans, vchannel)
	}
	return l.ts, full, nil
}

// Subscribe returns a channel of the messages of vchannel from startTs. It
// is closed when ctx is done.
func (l *memLog) Subscribe(ctx context.Context, vchannel string, startTs uint64) <-chan *vdbpb.WALMessage {
	ch := make(chan *vdbpb.WALMessage, 128)
	l.mu.Lock()
	if seg := l.chans[vchannel]; seg != nil {
		for _, m := range seg.msgs {
			if m.GetTs() >= startTs && len(ch) < cap(ch) {
				ch <- m
			}
		}
	}
	l.subs[vchannel] = append(l.subs[vchannel], ch)
	l.mu.Unlock()
	go func() {
		<-ctx.Done()
		l.mu.Lock()
		defer l.mu.Unlock()
		subs := l.subs[vchannel]
		for i, c := range subs {
			if c == ch {
				l.subs[vchannel] = append(subs[:i], subs[i+1:]...)
				break
			}
		}
		close(ch)
	}()
	return ch
}
