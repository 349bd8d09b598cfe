package odd

import (
	"context"
	"fmt"
	"io"

	"example.com/gen/catalogpb"
)

type Env struct{ Client catalogpb.CatalogClient }

// a constraint interface with a method and a type set.
type stringish interface {
	~int | ~string
	String() string
}

type myInt int

func (m myInt) String() string {
	env := &Env{}
	_, _ = env.Client.GetItem(context.Background(), &catalogpb.GetItemRequest{}) // want `has no deadline`
	return fmt.Sprint(int(m))
}

func show[T stringish](xs []T) {
	for _, x := range xs {
		_ = x.String()
	}
}

var _ = show[myInt]

// a self-referential generic interface.
type node[T any] interface{ Next() node[T] }

// an embedded interface whose method takes no ctx.
type reader interface{ io.Reader }

type rr struct{ c catalogpb.CatalogClient }

func (r rr) Read(p []byte) (int, error) {
	_, err := r.c.GetItem(context.Background(), &catalogpb.GetItemRequest{}) // want `has no deadline`
	return 0, err
}

// Pump: only a method value of an interface, and a method expression, are used.
func Pump(ctx context.Context, r reader) {
	f := r.Read
	_, _ = f(nil)
	g := reader.Read
	_, _ = g(r, nil)
	h := (*rr).Read
	_ = h
}

type T2 struct{}

func (*T2) m() {}

var _ = (*T2).m
