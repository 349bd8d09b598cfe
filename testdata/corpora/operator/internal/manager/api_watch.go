package manager

import (
	"errors"
	"io"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	clusterv1 "example.test/operator/gen/cluster/v1"
	"example.test/operator/internal/informer"
	"example.test/operator/internal/store"
)

var eventTypes = map[informer.EventType]clusterv1.WatchEvent_Type{
	informer.Added:    clusterv1.WatchEvent_TYPE_ADDED,
	informer.Modified: clusterv1.WatchEvent_TYPE_MODIFIED,
	informer.Deleted:  clusterv1.WatchEvent_TYPE_DELETED,
}

// Watch streams node and workload changes until the client goes away.
func (s *ClusterServer) Watch(req *clusterv1.WatchRequest, stream clusterv1.ClusterService_WatchServer) error {
	ctx := stream.Context()
	kinds := map[string]bool{"nodes": true, "workloads": true}
	if len(req.GetKinds()) > 0 {
		kinds = map[string]bool{}
		for _, k := range req.GetKinds() {
			kinds[k] = true
		}
	}

	var nodeCh <-chan informer.Event[*store.Node]
	var wlCh <-chan informer.Event[*store.Workload]
	if kinds["nodes"] {
		nodeCh = s.m.nodes.Subscribe(ctx, nil) // OK: stream ctx
	}
	if kinds["workloads"] {
		wlCh = s.m.workloads.Subscribe(ctx, nil) // OK: stream ctx
	}

	// send the initial state from a goroutine so that events arriving
	// meanwhile are buffered by the subscription
	initial := make(chan *clusterv1.WatchEvent, 128)
	go func() {
		defer close(initial)
		if !req.GetSendInitial() {
			return
		}
		if kinds["nodes"] {
			for _, n := range s.m.nodes.List() {
				initial <- &clusterv1.WatchEvent{Type: clusterv1.WatchEvent_TYPE_ADDED, Object: &clusterv1.WatchEvent_Node{Node: nodeToProto(n)}}
			}
		}
		if kinds["workloads"] {
			ws, err := s.store.ListWorkloads(ctx) // OK: stream ctx in a goroutine of the handler
			if err != nil {
				s.log.WarnContext(ctx, "watch initial list", "err", err)
				return
			}
			for _, w := range ws {
				select {
				case initial <- &clusterv1.WatchEvent{Type: clusterv1.WatchEvent_TYPE_ADDED, Object: &clusterv1.WatchEvent_Workload{Workload: workloadToProto(w)}}:
				case <-ctx.Done():
					return
				}
			}
		}
	}()

	// heartbeats let idle watchers notice a dead connection
	beat := make(chan time.Time)
	go func() {
		t := time.NewTicker(s.watchHeartbeat)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				select {
				case beat <- now:
				case <-ctx.Done():
					return
				}
			}
		}
	}()

	for {
		var ev *clusterv1.WatchEvent
		select {
		case <-ctx.Done():
			return status.FromContextError(ctx.Err()).Err()
		case e, ok := <-initial:
			if !ok {
				initial = nil
				continue
			}
			ev = e
		case e, ok := <-nodeCh:
			if !ok {
				return status.Error(codes.Unavailable, "node informer stopped")
			}
			ev = &clusterv1.WatchEvent{Type: eventTypes[e.Type], Object: &clusterv1.WatchEvent_Node{Node: nodeToProto(e.Object)}}
		case e, ok := <-wlCh:
			if !ok {
				return status.Error(codes.Unavailable, "workload informer stopped")
			}
			ev = &clusterv1.WatchEvent{Type: eventTypes[e.Type], Object: &clusterv1.WatchEvent_Workload{Workload: workloadToProto(e.Object)}}
		case now := <-beat:
			ev = &clusterv1.WatchEvent{Type: clusterv1.WatchEvent_TYPE_HEARTBEAT, ObservedAt: timestamppb.New(now)}
		}
		if ev.ObservedAt == nil {
			ev.ObservedAt = timestamppb.Now()
		}
		if err := stream.Send(ev); err != nil {
			return err
		}
	}
}

// WatchNodeLogs relays the journal of a unit on a node.
func (s *ClusterServer) WatchNodeLogs(req *clusterv1.WatchNodeLogsRequest, stream clusterv1.ClusterService_WatchNodeLogsServer) error {
	n, ok := s.m.nodes.Get(req.GetNode()) // OK: cache read
	if !ok {
		return status.Errorf(codes.NotFound, "node %q not found", req.GetNode())
	}
	c, err := s.agents.For(n.Name, n.Address)
	if err != nil {
		return status.Errorf(codes.Unavailable, "node %s: %v", n.Name, err)
	}
	unit := req.GetUnit()
	if unit == "" {
		unit = "node-agent"
	}
	logs, err := c.StreamLogs(s.m.ctx, unit, req.GetFollow()) // BUG: ctxflow
	if err != nil {
		return status.Errorf(codes.Unavailable, "node %s: %v", n.Name, err)
	}

	// end the relay if the node is removed while we follow it
	gone := s.m.nodes.Subscribe(stream.Context(), func(ev informer.Event[*store.Node]) bool { // OK: stream ctx
		return ev.Key == n.Name && ev.Type == informer.Deleted
	})
	lines := make(chan *clusterv1.LogLine)
	errc := make(chan error, 1)
	go func() {
		for {
			l, err := logs.Recv()
			if err != nil {
				errc <- err
				return
			}
			select {
			case lines <- &clusterv1.LogLine{Node: n.Name, Unit: l.GetUnit(), Text: l.GetText(), At: l.GetAt()}:
			case <-stream.Context().Done():
				return
			}
		}
	}()
	for {
		select {
		case <-stream.Context().Done():
			return stream.Context().Err()
		case _, ok := <-gone:
			if !ok {
				return stream.Context().Err()
			}
			return status.Errorf(codes.Aborted, "node %s was removed", n.Name)
		case err := <-errc:
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		case l := <-lines:
			if err := stream.Send(l); err != nil {
				return err
			}
		}
	}
}
