package feed

import (
	"context"
	"log"
	"strconv"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	feedv1 "example.test/streams2/gen/feed/v1"
)

// Tail follows a table's change log from a cursor, like tail -f.
func (s *Server) Tail(req *feedv1.TailRequest, stream grpc.ServerStreamingServer[feedv1.Row]) error {
	ctx := stream.Context()
	from, err := parseCursor(req.GetCursor())
	if err != nil {
		return status.Errorf(codes.InvalidArgument, "bad cursor %q: %v", req.GetCursor(), err) // OK: error of a parse
	}
	rows := make(chan *feedv1.Row, 64)
	go s.follow(ctx, req.GetTable(), from, rows)
	for r := range rows { // OK: channel made in the handler, Send error returned
		if err := stream.Send(r); err != nil {
			return err
		}
	}
	return nil
}

// follow copies the change log of table after from into out. A zero from means "from now".
func (s *Server) follow(ctx context.Context, table string, from int64, out chan<- *feedv1.Row) {
	defer close(out)
	if from == 0 {
		pos, err := s.store.Position(ctx, table)
		if err != nil {
			log.Printf("feed: tail %s: %v", table, err)
			return
		}
		from = pos
	}
	for c := range s.log.Follow(table, from) { // BUG: streamloop
		out <- toRow(c)
	}
}

// Snapshot streams every row of a table once.
func (s *Server) Snapshot(req *feedv1.SnapshotRequest, stream grpc.ServerStreamingServer[feedv1.Row]) error {
	ctx := stream.Context()
	rows, err := s.store.DB().QueryContext(ctx,
		`SELECT position, columns, deleted FROM table_rows WHERE table_name = $1 ORDER BY position`, req.GetTable())
	if err != nil {
		return err // OK: returned unchanged
	}
	defer rows.Close()
	for rows.Next() { // OK: rows end on their own
		var pos int64
		var cols string
		var deleted bool
		if err := rows.Scan(&pos, &cols, &deleted); err != nil {
			return err
		}
		stream.Send(&feedv1.Row{
			Table:   req.GetTable(),
			Cursor:  strconv.FormatInt(pos, 10),
			Columns: map[string]string{"_raw": cols},
			Deleted: deleted,
		})
	}
	return rows.Err()
}
