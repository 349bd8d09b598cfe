package export

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	exportv1 "example.test/streams2/gen/export/v1"
)

// Mirror is a partner's replication session. The first message names the table and the position
// to start after; later ones ack what the partner has applied.
func (s *Server) Mirror(stream exportv1.ExportService_MirrorServer) error {
	first, err := stream.Recv()
	if err != nil {
		return err
	}
	table := first.GetTable()
	var acked atomic.Int64
	acked.Store(first.GetPosition())
	go func() {
		for {
			ack, err := stream.Recv() // OK: returns on Recv errors
			if err != nil {
				return
			}
			acked.Store(ack.GetPosition())
		}
	}()

	changes := s.log.Follow(table, first.GetPosition())
	checkpoint := time.NewTicker(10 * time.Second)
	defer checkpoint.Stop()
	for {
		select { // BUG: streamloop
		case c := <-changes:
			stream.Send(toRecord(c))
		case <-checkpoint.C:
			s.checkpoints.Store(table, acked.Load())
		}
	}
}

// Load takes records for a bulk import and answers once the warehouse has indexed them.
func (s *Server) Load(stream exportv1.ExportService_LoadServer) error {
	ctx := stream.Context()
	var (
		table      string
		positions  []int64
		cols       []string
		loaded     int64
		rejected   int64
		lastLoaded int64
	)
	save := func() error {
		if err := s.store.SaveRecords(ctx, table, positions, cols); err != nil {
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
				return status.FromContextError(err).Err()
			}
			return status.Errorf(codes.Internal, "save records: %v", err) // OK: errors.Is(err, context.DeadlineExceeded) first
		}
		loaded += int64(len(positions))
		if n := len(positions); n > 0 {
			lastLoaded = positions[n-1]
		}
		positions, cols = positions[:0], cols[:0]
		return nil
	}
	for {
		rec, err := stream.Recv() // OK: returns on Recv errors
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if rec.GetTable() == "" || (table != "" && rec.GetTable() != table) {
			rejected++
			continue
		}
		table = rec.GetTable()
		positions = append(positions, rec.GetPosition())
		cols = append(cols, rec.GetColumns()["_raw"])
		if len(positions) == loadBatch {
			if err := save(); err != nil {
				return err
			}
		}
	}
	if err := save(); err != nil {
		return err
	}
	// The warehouse indexes imported rows asynchronously; answer once it has caught up so that
	// the loader's next query sees them.
	if loaded > 0 {
		for pos := range s.indexer.Indexed(table) { // BUG: streamloop
			if pos >= lastLoaded {
				break
			}
		}
	}
	return stream.SendAndClose(&exportv1.LoadSummary{Loaded: loaded, Rejected: rejected})
}

// Indexer reports how far the warehouse has indexed each table.
type Indexer struct {
	mu    sync.Mutex
	watch map[string][]chan int64
}

// NewIndexer returns an Indexer; the warehouse's callbacks feed it through Indexed.
func NewIndexer() *Indexer { return &Indexer{watch: map[string][]chan int64{}} }

// Indexed returns a channel of the positions the warehouse reports as indexed for table.
func (ix *Indexer) Indexed(table string) <-chan int64 {
	ch := make(chan int64, 8)
	ix.mu.Lock()
	ix.watch[table] = append(ix.watch[table], ch)
	ix.mu.Unlock()
	return ch
}

// Report is called by the warehouse callback handler.
func (ix *Indexer) Report(table string, pos int64) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, ch := range ix.watch[table] {
		select {
		case ch <- pos:
		default:
		}
	}
}
