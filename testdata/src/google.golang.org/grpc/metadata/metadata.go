// Package metadata is a type-checking stub of google.golang.org/grpc/metadata.
package metadata

import (
	"context"
	"strings"
)

// MD is a mapping from metadata keys to values.
type MD map[string][]string

// New creates an MD from a given key-value map.
func New(m map[string]string) MD {
	md := make(MD, len(m))
	for k, v := range m {
		k = strings.ToLower(k)
		md[k] = append(md[k], v)
	}
	return md
}

// Pairs returns an MD formed by the mapping of key, value ...
func Pairs(kv ...string) MD {
	md := make(MD, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		k := strings.ToLower(kv[i])
		md[k] = append(md[k], kv[i+1])
	}
	return md
}

// Join joins any number of mds into a single MD.
func Join(mds ...MD) MD {
	out := MD{}
	for _, md := range mds {
		for k, v := range md {
			out[k] = append(out[k], v...)
		}
	}
	return out
}

// Len returns the number of items in md.
func (md MD) Len() int { return len(md) }

// Copy returns a copy of md.
func (md MD) Copy() MD { return Join(md) }

// Get obtains the values for a given key.
func (md MD) Get(k string) []string { return md[strings.ToLower(k)] }

// Set sets the value of a given key with a slice of values.
func (md MD) Set(k string, vals ...string) { md[strings.ToLower(k)] = vals }

// Append adds the values to key k.
func (md MD) Append(k string, vals ...string) {
	k = strings.ToLower(k)
	md[k] = append(md[k], vals...)
}

// Delete removes the values for a given key k.
func (md MD) Delete(k string) { delete(md, strings.ToLower(k)) }

type mdIncomingKey struct{}
type mdOutgoingKey struct{}

// NewIncomingContext creates a new context with incoming md attached.
func NewIncomingContext(ctx context.Context, md MD) context.Context {
	return context.WithValue(ctx, mdIncomingKey{}, md)
}

// NewOutgoingContext creates a new context with outgoing md attached.
func NewOutgoingContext(ctx context.Context, md MD) context.Context {
	return context.WithValue(ctx, mdOutgoingKey{}, md)
}

// AppendToOutgoingContext returns a new context with the provided kv merged
// with any existing metadata in the context.
func AppendToOutgoingContext(ctx context.Context, kv ...string) context.Context {
	md, _ := FromOutgoingContext(ctx)
	return NewOutgoingContext(ctx, Join(md, Pairs(kv...)))
}

// FromIncomingContext returns the incoming metadata in ctx if it exists.
func FromIncomingContext(ctx context.Context) (MD, bool) {
	md, ok := ctx.Value(mdIncomingKey{}).(MD)
	return md, ok
}

// ValueFromIncomingContext returns the metadata value corresponding to the
// metadata key from the incoming metadata if it exists.
func ValueFromIncomingContext(ctx context.Context, key string) []string {
	md, _ := FromIncomingContext(ctx)
	return md.Get(key)
}

// FromOutgoingContext returns the outgoing metadata in ctx if it exists.
func FromOutgoingContext(ctx context.Context) (MD, bool) {
	md, ok := ctx.Value(mdOutgoingKey{}).(MD)
	return md, ok
}
