package ingester

import (
	"context"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"example.test/telemetry/gen/ingesterpb"
	"example.test/telemetry/gen/pushpb"
	"example.test/telemetry/pkg/limits"
	"example.test/telemetry/pkg/objstore"
	"example.test/telemetry/pkg/storage/blockstore"
	"example.test/telemetry/pkg/storage/index"
)

// instance is one tenant's head block and its recently flushed blocks.
type instance struct {
	tenant string
	limits limits.Limits

	mu        sync.RWMutex
	head      map[string][]*pushpb.Span
	headBytes int64
	headStart time.Time
	recent    []string
}

func newInstance(tenant string, l limits.Limits) *instance {
	return &instance{tenant: tenant, limits: l, head: map[string][]*pushpb.Span{}, headStart: time.Now()}
}

// loadRecent lists the tenant's blocks so that lookups can find traces that
// were flushed before a restart.
func (in *instance) loadRecent(ctx context.Context, bkt objstore.Bucket) error {
	seen := map[string]bool{}
	return bkt.Iter(ctx, in.tenant+"/", func(name string) error {
		id, _, _ := strings.Cut(strings.TrimPrefix(name, in.tenant+"/"), "/")
		if id != "" && !seen[id] {
			seen[id] = true
			in.recent = append(in.recent, id)
		}
		return nil
	})
}

func (in *instance) append(spans []*pushpb.Span) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, s := range spans {
		key := hex.EncodeToString(s.GetTraceId())
		if _, ok := in.head[key]; !ok && in.limits.MaxTracesPerUser > 0 && len(in.head) >= in.limits.MaxTracesPerUser {
			return fmt.Errorf("max live traces (%d) reached for %s", in.limits.MaxTracesPerUser, in.tenant)
		}
		in.head[key] = append(in.head[key], s)
		in.headBytes += int64(len(s.GetName()) + 64)
	}
	return nil
}

// findInHead looks the trace up in memory.
func (in *instance) findInHead(_ context.Context, traceID []byte) []*pushpb.Span {
	in.mu.RLock()
	defer in.mu.RUnlock()
	return append([]*pushpb.Span(nil), in.head[hex.EncodeToString(traceID)]...)
}

func (in *instance) searchHead(req *ingesterpb.SearchRequest) [][]byte {
	in.mu.RLock()
	defer in.mu.RUnlock()
	var out [][]byte
	for key, spans := range in.head {
		if !matchAll(spans, req.GetTags(), req.GetStartUnixNano(), req.GetEndUnixNano()) {
			continue
		}
		raw, _ := hex.DecodeString(key)
		out = append(out, raw)
		if req.GetLimit() > 0 && uint32(len(out)) >= req.GetLimit() {
			break
		}
	}
	return out
}

func matchAll(spans []*pushpb.Span, tags map[string]string, start, end int64) bool {
	inRange := false
	for _, s := range spans {
		if s.GetEndUnixNano() >= start && (end == 0 || s.GetStartUnixNano() <= end) {
			inRange = true
		}
	}
	if !inRange {
		return false
	}
	for k, v := range tags {
		ok := false
		for _, s := range spans {
			if s.GetAttributes()[k] == v {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func (in *instance) recentIDs() []string {
	in.mu.RLock()
	defer in.mu.RUnlock()
	return append([]string(nil), in.recent...)
}

func (in *instance) shouldFlush(now time.Time, maxAge time.Duration, maxBytes int64) bool {
	in.mu.RLock()
	defer in.mu.RUnlock()
	return len(in.head) > 0 && (now.Sub(in.headStart) >= maxAge || in.headBytes >= maxBytes)
}

// cutBlock takes the head block out of the instance.
func (in *instance) cutBlock() (*index.Meta, *blockstore.Block) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(in.head) == 0 {
		return nil, nil
	}
	blk := &blockstore.Block{Traces: in.head}
	meta := &index.Meta{BlockID: fmt.Sprintf("%d", time.Now().UnixNano()), Tenant: in.tenant, Version: 2, SizeBytes: in.headBytes}
	var minT, maxT int64
	for _, spans := range in.head {
		for _, s := range spans {
			if minT == 0 || s.GetStartUnixNano() < minT {
				minT = s.GetStartUnixNano()
			}
			if s.GetEndUnixNano() > maxT {
				maxT = s.GetEndUnixNano()
			}
		}
	}
	meta.MinTime, meta.MaxTime = minT, maxT
	in.head = map[string][]*pushpb.Span{}
	in.headBytes = 0
	in.headStart = time.Now()
	return meta, blk
}

// restore puts a block back into the head after a failed flush.
func (in *instance) restore(blk *blockstore.Block) {
	in.mu.Lock()
	defer in.mu.Unlock()
	for k, spans := range blk.Traces {
		in.head[k] = append(spans, in.head[k]...)
	}
}

func (in *instance) addRecent(id string) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.recent = append(in.recent, id)
	sort.Strings(in.recent)
	if len(in.recent) > 64 {
		in.recent = in.recent[len(in.recent)-64:]
	}
}
