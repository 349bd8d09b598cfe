// Package search implements search.v1.SearchService on an in-memory inverted
// index backed by the search_docs table.
package search

import (
	"context"
	"database/sql"
	"sort"
	"strings"
	"sync"
)

// Doc is one indexed item.
type Doc struct {
	SKU       string
	Name      string
	Warehouse string
}

// Hit is a scored search result.
type Hit struct {
	Doc
	Score float64
}

// Index is safe for concurrent use.
type Index struct {
	db *sql.DB

	mu      sync.RWMutex
	docs    map[string]Doc
	terms   map[string]map[string]struct{} // term -> skus
	dirty   map[string]Doc
	deleted int
}

func tokenize(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
}

// LoadIndex reads every document from db.
func LoadIndex(ctx context.Context, db *sql.DB) (*Index, error) {
	idx := &Index{db: db, docs: map[string]Doc{}, terms: map[string]map[string]struct{}{}, dirty: map[string]Doc{}}
	if err := idx.Reload(ctx); err != nil {
		return nil, err
	}
	return idx, nil
}

// Reload replaces the in-memory state with the table's.
func (x *Index) Reload(ctx context.Context) error {
	rows, err := x.db.QueryContext(ctx, `SELECT sku, name, warehouse FROM search_docs`)
	if err != nil {
		return err
	}
	defer rows.Close()
	docs := map[string]Doc{}
	for rows.Next() {
		var d Doc
		if err := rows.Scan(&d.SKU, &d.Name, &d.Warehouse); err != nil {
			return err
		}
		docs[d.SKU] = d
	}
	if err := rows.Err(); err != nil {
		return err
	}
	terms := map[string]map[string]struct{}{}
	for _, d := range docs {
		addTerms(terms, d)
	}
	x.mu.Lock()
	x.docs, x.terms, x.deleted = docs, terms, 0
	x.mu.Unlock()
	return nil
}

func addTerms(terms map[string]map[string]struct{}, d Doc) {
	for _, t := range tokenize(d.Name) {
		if terms[t] == nil {
			terms[t] = map[string]struct{}{}
		}
		terms[t][d.SKU] = struct{}{}
	}
}

// Len is the number of documents.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.docs)
}

// Apply adds or replaces d in memory and marks it for the next Flush.
func (x *Index) Apply(ctx context.Context, d Doc) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if _, ok := x.docs[d.SKU]; ok {
		x.deleted++
	}
	x.docs[d.SKU] = d
	addTerms(x.terms, d)
	x.dirty[d.SKU] = d
	return nil
}

// Add is Apply followed by an immediate write of d.
func (x *Index) Add(ctx context.Context, d Doc) error {
	if err := x.Apply(ctx, d); err != nil {
		return err
	}
	_, err := x.db.ExecContext(ctx,
		`INSERT INTO search_docs (sku, name, warehouse) VALUES ($1, $2, $3)
		 ON CONFLICT (sku) DO UPDATE SET name = $2, warehouse = $3`, d.SKU, d.Name, d.Warehouse)
	return err
}

// Search returns the best limit matches of q in warehouse ("" for all).
func (x *Index) Search(ctx context.Context, warehouse, q string, limit int) ([]Hit, error) {
	terms := tokenize(q)
	x.mu.RLock()
	scores := map[string]float64{}
	for _, t := range terms {
		for sku := range x.terms[t] {
			scores[sku]++
		}
	}
	hits := make([]Hit, 0, len(scores))
	for sku, sc := range scores {
		d, ok := x.docs[sku]
		if !ok || (warehouse != "" && d.Warehouse != warehouse) {
			continue
		}
		hits = append(hits, Hit{Doc: d, Score: sc / float64(len(terms))})
	}
	x.mu.RUnlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].SKU < hits[j].SKU
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, nil
}

// Suggest returns up to n indexed terms starting with prefix.
func (x *Index) Suggest(ctx context.Context, prefix string, n int) ([]string, error) {
	prefix = strings.ToLower(prefix)
	x.mu.RLock()
	var out []string
	for t := range x.terms {
		if strings.HasPrefix(t, prefix) {
			out = append(out, t)
		}
	}
	x.mu.RUnlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sort.Strings(out)
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}

// Flush writes the documents applied since the last Flush.
func (x *Index) Flush(ctx context.Context) (int, error) {
	x.mu.Lock()
	dirty := x.dirty
	x.dirty = map[string]Doc{}
	x.mu.Unlock()
	tx, err := x.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback() }()
	for _, d := range dirty {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO search_docs (sku, name, warehouse) VALUES ($1, $2, $3)
			 ON CONFLICT (sku) DO UPDATE SET name = $2, warehouse = $3`, d.SKU, d.Name, d.Warehouse); err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM search_pending WHERE sku = $1`, d.SKU); err != nil {
			return 0, err
		}
	}
	return len(dirty), tx.Commit()
}

// Compact drops the terms of replaced documents by rebuilding the term map.
func (x *Index) Compact(ctx context.Context) (int, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	n := x.deleted
	terms := map[string]map[string]struct{}{}
	for _, d := range x.docs {
		addTerms(terms, d)
	}
	x.terms, x.deleted = terms, 0
	return n, nil
}
