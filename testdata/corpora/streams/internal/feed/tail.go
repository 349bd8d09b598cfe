package feed

import (
	"log"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	feedv1 "example.test/streams/gen/feed/v1"
	"example.test/streams/internal/store"
)

const (
	tailPollInterval = 2 * time.Second
	tailErrorBackoff = 5 * time.Second
	defaultTailBatch = 500
)

// Tail follows a table's change log. On the primary the change-log trigger wakes us up through
// LISTEN/NOTIFY; read replicas have no notifications and poll.
func (s *Server) Tail(req *feedv1.TailRequest, stream grpc.ServerStreamingServer[feedv1.Row]) error {
	ctx := stream.Context()
	table, cursor := req.GetTable(), req.GetCursor()
	limit := int(req.GetBatchSize())
	if limit <= 0 || limit > 5000 {
		limit = defaultTailBatch
	}

	if s.pollOnly {
		for {
			batch, err := s.journal.Changes(table, cursor, limit)
			if err != nil {
				log.Printf("feed: tail %s: %v", table, err)
				time.Sleep(tailErrorBackoff)
				continue
			}
			for _, c := range batch {
				stream.Send(changeToProto(c)) // BUG: streamloop
				cursor = c.Cursor
			}
			if len(batch) < limit {
				time.Sleep(tailPollInterval)
			}
		}
	}

	// Catch up: StreamChanges pages through the log and closes changes when it is done.
	changes := make(chan store.Change, limit)
	errc := make(chan error, 1)
	go func() { errc <- s.journal.StreamChanges(ctx, table, cursor, changes) }()
	for c := range changes { // OK: channel made by this handler, closed by StreamChanges (which was given ctx)
		if err := stream.Send(changeToProto(c)); err != nil {
			return err
		}
		cursor = c.Cursor
	}
	if err := <-errc; err != nil {
		return err
	}

	// Caught up: wait for the trigger to announce new rows for this table.
	for {
		if changed := <-s.journal.Notifications(); changed != table { // OK? waits on a process-wide channel, but ChangesContext(ctx)'s error ends the loop at the next notification
			continue
		}
		batch, err := s.journal.ChangesContext(ctx, table, cursor, limit)
		if err != nil {
			return err
		}
		for _, c := range batch {
			if err := stream.Send(changeToProto(c)); err != nil {
				return err
			}
			cursor = c.Cursor
		}
	}
}

// Snapshot streams every row of a table once. Full-table reads are expensive, so only a few
// run at a time.
func (s *Server) Snapshot(req *feedv1.SnapshotRequest, stream grpc.ServerStreamingServer[feedv1.Row]) error {
	ctx := stream.Context()
	for !s.acquireSnapshotSlot() {
		<-s.slotFreed // BUG: streamloop
	}
	defer s.releaseSnapshotSlot()

	rows, err := s.journal.OpenSnapshot(ctx, req.GetTable())
	if err != nil {
		if ctx.Err() != nil {
			return status.FromContextError(ctx.Err()).Err()
		}
		return status.Errorf(codes.Internal, "snapshot %s: %v", req.GetTable(), err) // OK: ctx.Err() is checked first
	}
	defer rows.Close()
	for rows.Next() {
		var cursor, cols string
		if err := rows.Scan(&cursor, &cols); err != nil {
			return err
		}
		stream.Send(&feedv1.Row{Table: req.GetTable(), Cursor: cursor, Columns: map[string]string{"_raw": cols}}) // OK: a rows loop ends on its own once the result set is read
	}
	return rows.Err()
}
