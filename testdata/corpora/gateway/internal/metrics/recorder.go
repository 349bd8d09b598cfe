// Package metrics keeps per-method RPC latency histograms and pushes them to
// the metrics gateway in batches.
package metrics

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
)

var buckets = []time.Duration{5 * time.Millisecond, 25 * time.Millisecond, 100 * time.Millisecond, 500 * time.Millisecond, 2 * time.Second, 10 * time.Second}

type series struct {
	counts []int64
	sum    time.Duration
}

type sample struct {
	Method string `json:"method"`
	Code   string `json:"code"`
	Nanos  int64  `json:"nanos"`
}

// Recorder aggregates RPC samples.
type Recorder struct {
	pushURL   string
	client    *http.Client
	batchSize int

	mu      sync.Mutex
	series  map[string]*series
	pending []sample
	streams map[string]int64
}

// NewRecorder returns a recorder pushing batches of batchSize samples to pushURL.
func NewRecorder(pushURL string, client *http.Client, batchSize int) *Recorder {
	return &Recorder{pushURL: pushURL, client: client, batchSize: batchSize, series: map[string]*series{}, streams: map[string]int64{}}
}

// Observe records one finished RPC. When a batch is full it is pushed before
// Observe returns.
func (r *Recorder) Observe(ctx context.Context, method string, code codes.Code, d time.Duration) {
	r.mu.Lock()
	key := method + " " + code.String()
	s, ok := r.series[key]
	if !ok {
		s = &series{counts: make([]int64, len(buckets)+1)}
		r.series[key] = s
	}
	i := sort.Search(len(buckets), func(i int) bool { return d <= buckets[i] })
	s.counts[i]++
	s.sum += d
	r.pending = append(r.pending, sample{Method: method, Code: code.String(), Nanos: d.Nanoseconds()})
	var batch []sample
	if len(r.pending) >= r.batchSize {
		batch, r.pending = r.pending, nil
	}
	r.mu.Unlock()
	if batch != nil {
		_ = r.push(ctx, batch)
	}
}

// AddMessages counts stream messages per method and direction.
func (r *Recorder) AddMessages(method, dir string, n int64) {
	r.mu.Lock()
	r.streams[method+" "+dir] += n
	r.mu.Unlock()
}

func (r *Recorder) push(ctx context.Context, batch []sample) error {
	body, err := json.Marshal(batch)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.pushURL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// Handler serves the current histograms in a plain text format.
func (r *Recorder) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		r.mu.Lock()
		defer r.mu.Unlock()
		keys := make([]string, 0, len(r.series))
		for k := range r.series {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			s := r.series[k]
			fmt.Fprintf(w, "rpc_latency{%s} %v sum=%s\n", k, s.counts, s.sum)
		}
		for k, n := range r.streams {
			fmt.Fprintf(w, "rpc_stream_messages{%s} %d\n", k, n)
		}
	})
}
