// Package measure holds a service whose helpers record metrics with root contexts — through
// OpenTelemetry instruments behind a generic wrapper and an interface of their own, and through
// OpenCensus — which carry only values and lose no deadline, next to helpers whose work is real.
package measure

import (
	"context"
	"log/slog"

	"go.opencensus.io/stats"
	"go.opentelemetry.io/otel/metric"

	"example.com/gen/catalogpb"
)

type db interface {
	Exec(ctx context.Context, q string) error
}

// counter is what a metrics helper accepts: any OpenTelemetry counter.
type counter interface {
	Add(ctx context.Context, incr int64, options ...metric.AddOption)
}

// Inc adds one to a counter, generic over the instrument.
func Inc[T counter](ctx context.Context, m T) { m.Add(ctx, 1) }

// gauge records through an interface of the package's own.
type gauge interface {
	Record(ctx context.Context, v int64, options ...metric.RecordOption)
}

// journal looks like an instrument but does I/O: its options are its own.
type journal interface {
	Add(ctx context.Context, n int64, tags ...string)
}

var requests = stats.Int64("requests", "", "1")

// Cache counts its hits and misses with a root ctx: values only.
type Cache struct {
	hits  metric.Int64Counter
	size  gauge
	items map[string]string
}

func (c *Cache) Get(key string) string {
	v, ok := c.items[key]
	if ok {
		Inc(context.Background(), c.hits)
	}
	c.size.Record(context.TODO(), int64(len(c.items)))
	return v
}

// recordRequest is OpenCensus's way: stats.Record with a root.
func recordRequest() {
	stats.Record(context.Background(), requests.M(1))
	_ = stats.RecordWithTags(context.Background(), nil, requests.M(1))
}

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	cache   *Cache
	db      db
	journal journal
}

// audit records a count and writes a row, both with a root: the row is real work.
func (s *Server) audit(id string) error { // want audit:"drops ctx"
	recordRequest()
	return s.db.Exec(context.Background(), "audit "+id)
}

// note looks like a measurement but is not one: its journal does I/O.
func (s *Server) note() { s.journal.Add(context.Background(), 1, "note") } // want note:"drops ctx"

// count records a request in a metric: its ctx carries values only.
func (s *Server) count(ctx context.Context) { Inc(ctx, s.cache.hits) }

// stash never looks at its ctx: a root handed to it bounds and carries nothing.
func (s *Server) stash(ctx context.Context, v string) { s.cache.items[v] = v }

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	stats.Record(context.Background(), requests.M(1))                  // a metric record with a root: silent
	s.count(context.Background())                                      // a helper that only records: silent
	slog.InfoContext(context.TODO(), "get")                            // a log line with a root: its values are lost, no deadline: silent
	if slog.Default().Enabled(context.Background(), slog.LevelDebug) { // a level query with a root: silent
		slog.Debug("get", "id", req.GetId())
	}
	s.stash(context.Background(), req.GetId()) // a helper that never looks at its ctx: silent
	v := s.cache.Get(req.GetId())              // metrics only: silent
	recordRequest()                            // metrics only: silent
	s.note()                                   // want `measure\.Server\.note, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
	if err := s.audit(v); err != nil {         // want `measure\.Server\.audit, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	return &catalogpb.Item{Id: v}, nil
}
