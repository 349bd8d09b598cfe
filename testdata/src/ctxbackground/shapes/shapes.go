// Package shapes holds one handler per SSA shape the origin walk must see through, one file
// per shape.
package shapes

import (
	"context"

	"example.com/gen/catalogpb"
)

// store stands for the service's storage: what it does with its ctx is out of sight.
type store interface {
	Get(ctx context.Context, id string) (*catalogpb.Item, error)
	Put(ctx context.Context, what string)
}

var db store

func load(ctx context.Context, id string) (*catalogpb.Item, error) { return db.Get(ctx, id) }
