package export

import (
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	exportv1 "example.test/streams2/gen/export/v1"
)

// Dump streams every row of a table as of a snapshot.
func (s *Server) Dump(req *exportv1.DumpRequest, stream exportv1.ExportService_DumpServer) error {
	lease, err := s.leases.Acquire(req.GetTable())
	if err != nil {
		return status.Error(codes.ResourceExhausted, err.Error()) // OK: error of a call without a ctx
	}
	defer s.leases.Release(lease)
	end, _ := lease.Deadline()
	if end.Before(time.Now().Add(minDumpTime)) { // BUG: deadlinemath
		return status.Error(codes.ResourceExhausted, "snapshot lease expires too soon, retry later")
	}
	for batch := range s.log.Snapshot(req.GetTable(), req.GetSnapshot(), dumpBatch) { // BUG: streamloop
		for _, c := range batch { // OK: ranges over a slice
			stream.Send(toRecord(c))
		}
	}
	return nil
}

// Follow streams the change log of a table from a position; a negative position means "from
// the current end".
func (s *Server) Follow(req *exportv1.FollowRequest, stream exportv1.ExportService_FollowServer) error {
	ctx := stream.Context()
	from := req.GetFromPosition()
	if from < 0 {
		pos, err := s.store.Position(ctx, req.GetTable())
		if err != nil {
			return status.Errorf(codes.Internal, "resolve position of %s: %v", req.GetTable(), err) // BUG: statusmask
		}
		from = pos
	}
	changes := s.log.Follow(req.GetTable(), from)
	for {
		c, ok := <-changes // BUG: streamloop
		if !ok {
			return nil
		}
		stream.Send(toRecord(c))
	}
}

// Poll sends what is new in a table's change log every interval.
func (s *Server) Poll(req *exportv1.PollRequest, stream exportv1.ExportService_PollServer) error {
	ctx := stream.Context()
	every := time.Duration(req.GetIntervalSeconds()) * time.Second
	if every <= 0 {
		every = defaultPoll
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	pos := req.GetFromPosition()
	for {
		changes, err := s.log.Read(ctx, req.GetTable(), pos)
		if err != nil {
			return err // OK: returned unchanged
		}
		for _, c := range changes {
			// A client that is gone is noticed by the next Read.
			stream.Send(toRecord(c))
			pos = c.Position
		}
		<-tick.C // OK: Read is given the stream ctx and its error ends the loop
	}
}
