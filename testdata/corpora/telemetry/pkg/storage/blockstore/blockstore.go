// Package blockstore reads and writes trace blocks in the object store.
package blockstore

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"time"

	"example.test/telemetry/gen/pushpb"
	"example.test/telemetry/pkg/objstore"
	"example.test/telemetry/pkg/storage/index"
	"example.test/telemetry/pkg/util/log"
)

// ErrTraceNotFound is returned when no block holds the trace.
var ErrTraceNotFound = errors.New("trace not found")

// Store reads and writes blocks.
type Store struct {
	bkt objstore.Bucket
	idx *index.Reader

	rollbackTimeout time.Duration
}

// New returns a store over bkt.
func New(bkt objstore.Bucket, idx *index.Reader) *Store {
	return &Store{bkt: bkt, idx: idx, rollbackTimeout: 10 * time.Second}
}

// Block is the on-disk form of a flushed head block.
type Block struct {
	Traces map[string][]*pushpb.Span `json:"traces"`
}

// FindTrace looks a trace up in the tenant's blocks.
func (s *Store) FindTrace(ctx context.Context, tenant string, traceID []byte) ([]*pushpb.Span, error) {
	ids, err := s.idx.Blocks(ctx, tenant)
	if err != nil {
		return nil, err
	}
	return s.FindTraceIn(ctx, tenant, ids, traceID)
}

// FindTraceIn looks a trace up in the given blocks of the tenant.
func (s *Store) FindTraceIn(ctx context.Context, tenant string, ids []string, traceID []byte) ([]*pushpb.Span, error) {
	key := hex.EncodeToString(traceID)
	var out []*pushpb.Span
	for _, id := range ids {
		b, err := s.readBlock(ctx, tenant, id)
		if err != nil {
			return nil, err
		}
		out = append(out, b.Traces[key]...)
	}
	if len(out) == 0 {
		return nil, ErrTraceNotFound
	}
	return out, nil
}

// Search returns the IDs of traces in blocks overlapping [start, end] whose
// spans carry every tag.
func (s *Store) Search(ctx context.Context, tenant string, tags map[string]string, start, end int64) ([][]byte, error) {
	ids, err := s.idx.Blocks(ctx, tenant)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, id := range ids {
		m, err := s.idx.Meta(ctx, tenant, id)
		if err != nil {
			return nil, err
		}
		if m.MaxTime < start || (end > 0 && m.MinTime > end) {
			continue
		}
		b, err := s.readBlock(ctx, tenant, id)
		if err != nil {
			return nil, err
		}
		for tid, spans := range b.Traces {
			if matches(spans, tags) {
				raw, _ := hex.DecodeString(tid)
				out = append(out, raw)
			}
		}
	}
	return out, nil
}

// SearchIn returns the IDs of the block's traces whose spans carry every tag.
func (s *Store) SearchIn(ctx context.Context, tenant, id string, tags map[string]string) ([][]byte, error) {
	b, err := s.readBlock(ctx, tenant, id)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for tid, spans := range b.Traces {
		if matches(spans, tags) {
			raw, _ := hex.DecodeString(tid)
			out = append(out, raw)
		}
	}
	return out, nil
}

func matches(spans []*pushpb.Span, tags map[string]string) bool {
	for k, v := range tags {
		found := false
		for _, s := range spans {
			if s.GetAttributes()[k] == v {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// ReadBlock reads one block of the tenant.
func (s *Store) ReadBlock(ctx context.Context, tenant, id string) (*Block, error) {
	return s.readBlock(ctx, tenant, id)
}

func (s *Store) readBlock(ctx context.Context, tenant, id string) (*Block, error) {
	data, err := s.bkt.Get(ctx, path.Join(tenant, id, "data.json"))
	if err != nil {
		return nil, err
	}
	b := &Block{}
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(b); err != nil {
		return nil, fmt.Errorf("block %s/%s: %w", tenant, id, err)
	}
	return b, nil
}

// WriteBlock uploads a block and its meta. When the meta cannot be written the
// data object is removed again, so that no block without meta is left behind.
func (s *Store) WriteBlock(ctx context.Context, m *index.Meta, b *Block) error {
	data, err := json.Marshal(b)
	if err != nil {
		return err
	}
	dataPath := path.Join(m.Tenant, m.BlockID, "data.json")
	if err := s.bkt.Upload(ctx, dataPath, data); err != nil {
		return err
	}
	if err := index.WriteMeta(ctx, s.bkt, m); err != nil {
		// The caller's budget may be what ran out: undo with one of our own.
		cctx, cancel := context.WithTimeout(context.Background(), s.rollbackTimeout) // OK: ctxbackground — bounded rollback after a failure, in a helper that returns the error
		defer cancel()
		if derr := s.bkt.Delete(cctx, dataPath); derr != nil {
			log.Warn(ctx, "rollback of block data failed", "block", m.BlockID, "err", derr)
		}
		return fmt.Errorf("writing meta: %w", err)
	}
	return nil
}

// DeleteBlock removes a block's objects.
func (s *Store) DeleteBlock(ctx context.Context, tenant, id string) error {
	for _, f := range []string{"meta.json", "data.json"} {
		if err := s.bkt.Delete(ctx, path.Join(tenant, id, f)); err != nil {
			return err
		}
	}
	return nil
}
