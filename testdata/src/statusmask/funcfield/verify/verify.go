// Package verify is a signature verifier whose key sources are function fields its constructor
// sets (so that tests can swap them): Init loads the local keys through a source that never uses
// its ctx, Refresh fetches the remote ones through a source that does.
package verify

import (
	"context"

	"statusmask/funcfield/keys"
)

type keyFn func(context.Context) ([]byte, error)

type sources struct {
	local  keyFn
	remote keyFn
}

// Verifier verifies signatures.
type Verifier struct {
	src   sources
	local []byte
}

// New returns a verifier over the library's key sources.
func New() *Verifier {
	return &Verifier{src: sources{local: keys.FromEnv, remote: keys.Fetch}}
}

// Init loads the local keys: its ctx reaches only keys.FromEnv, which never uses it.
func (v *Verifier) Init(ctx context.Context) error {
	k, err := v.src.local(ctx)
	if err != nil {
		return err
	}
	v.local = k
	return nil
}

// Refresh fetches the remote keys: its error may be the ctx's.
func (v *Verifier) Refresh(ctx context.Context) error {
	k, err := v.src.remote(ctx)
	if err != nil {
		return err
	}
	v.local = append(v.local, k...)
	return nil
}
