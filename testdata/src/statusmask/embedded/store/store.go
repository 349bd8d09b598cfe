// Package store is a data store whose struct embeds the interfaces it is made of: one that
// builds references in memory (its one implementation only logs with its ctx), one that reads
// blobs (no implementation in sight: it may do anything with its ctx).
package store

import (
	"context"
	"log/slog"
	"net/url"
)

// Refs builds references.
type Refs interface {
	Construct(ctx context.Context, base string, keys ...string) (string, error)
}

// URLRefs builds references as URLs.
type URLRefs struct{}

func (URLRefs) Construct(ctx context.Context, base string, keys ...string) (string, error) {
	u, err := url.Parse(base)
	if err != nil {
		slog.ErrorContext(ctx, "bad base", "base", base)
		return "", err
	}
	return u.JoinPath(keys...).String(), nil
}

// Blobs reads blobs.
type Blobs interface {
	Head(ctx context.Context, ref string) (int64, error)
}

// DataStore is made of its parts.
type DataStore struct {
	Refs
	Blobs
}
