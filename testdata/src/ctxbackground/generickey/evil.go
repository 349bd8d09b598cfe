package generickey

import (
	"context"

	"ctxbackground/generickey/label"
	"example.com/ctxkey"
)

// Generic shapes around the keys: a second instantiation of the dependency's key, a generic
// function calling the generic method of the key it is given, a recursive generic function,
// and a method value of an instantiated generic method. None does work with its ctx.

var count = ctxkey.New("count", 0)

func valueOf[V any](ctx context.Context, k ctxkey.Key[V]) V { return k.Value(ctx) }

func deep[V any](ctx context.Context, t label.Tag[V], n int) V {
	if n == 0 {
		return t.Get(ctx)
	}
	return deep(ctx, t, n-1)
}

// Evil is a request scope of its own.
//
//deadlinelint:scope
func Evil(ctx context.Context) int {
	n := valueOf(context.Background(), count) // silent
	_ = deep(context.TODO(), label.Tenant, 3) // silent
	get := origin.Value
	_ = get(ctx)
	var k ctxkey.Key[struct{}]
	_ = k.Value(context.Background()) // the zero key: silent
	return n
}
