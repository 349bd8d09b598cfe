package ingester

import (
	"context"
	"sort"

	"example.test/telemetry/gen/ingesterpb"
	"example.test/telemetry/pkg/storage/blockstore"
)

// evaluator runs searches; evaluators are pooled because their scratch
// buffers are large.
type evaluator struct {
	ctx     context.Context
	store   *blockstore.Store
	scratch [][]byte
}

// SetContext sets the context the next Run works under.
func (e *evaluator) SetContext(ctx context.Context) { e.ctx = ctx }

// Run searches the instance's head and its recent blocks.
func (e *evaluator) Run(inst *instance, req *ingesterpb.SearchRequest) (*ingesterpb.SearchResponse, error) {
	ctx := e.ctx
	if ctx == nil {
		ctx = context.Background() // OK: ctxbackground — nil-ctx fallback, and not a request scope
	}
	e.scratch = append(e.scratch[:0], inst.searchHead(req)...)
	resp := &ingesterpb.SearchResponse{}
	if req.GetLimit() == 0 || uint32(len(e.scratch)) < req.GetLimit() {
		for _, id := range inst.recentIDs() {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			ids, err := e.store.SearchIn(ctx, inst.tenant, id, req.GetTags())
			if err != nil {
				return nil, err
			}
			e.scratch = append(e.scratch, ids...)
			resp.InspectedBlocks++
		}
	}
	sort.Slice(e.scratch, func(i, j int) bool { return string(e.scratch[i]) < string(e.scratch[j]) })
	for _, id := range e.scratch {
		if req.GetLimit() > 0 && uint32(len(resp.TraceIds)) >= req.GetLimit() {
			break
		}
		resp.TraceIds = append(resp.TraceIds, append([]byte(nil), id...))
	}
	return resp, nil
}
