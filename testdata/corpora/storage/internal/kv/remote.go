package kv

import (
	"context"

	"example.test/storage/gen/storagepb"
)

// RemoteStore is a Store over the StoreService of another node (used when a
// region's leader lives elsewhere).
type RemoteStore struct {
	c      storagepb.StoreServiceClient
	tenant string
}

// NewRemoteStore returns a Store forwarding to c.
func NewRemoteStore(c storagepb.StoreServiceClient, tenant string) *RemoteStore {
	return &RemoteStore{c: c, tenant: tenant}
}

func (r *RemoteStore) Get(ctx context.Context, key []byte) ([]byte, uint64, error) {
	resp, err := r.c.Get(ctx, &storagepb.GetRequest{Key: key, Tenant: r.tenant})
	if err != nil {
		return nil, 0, err
	}
	if !resp.GetFound() {
		return nil, 0, ErrNotFound
	}
	return resp.GetKv().GetValue(), resp.GetKv().GetVersion(), nil
}

func (r *RemoteStore) Put(ctx context.Context, key, val []byte) (uint64, error) {
	resp, err := r.c.Put(ctx, &storagepb.PutRequest{Kv: &storagepb.KV{Key: key, Value: val}, Tenant: r.tenant})
	return resp.GetVersion(), err
}

func (r *RemoteStore) Delete(ctx context.Context, key []byte) error {
	_, err := r.c.Delete(ctx, &storagepb.DeleteRequest{Key: key, Tenant: r.tenant})
	return err
}

func (r *RemoteStore) Scan(ctx context.Context, start, end []byte, fn func(k, v []byte) bool) error {
	st, err := r.c.Scan(ctx, &storagepb.ScanRequest{Start: start, End: end})
	if err != nil {
		return err
	}
	for {
		kv, err := st.Recv()
		if err != nil {
			return ignoreEOF(err)
		}
		if !fn(kv.GetKey(), kv.GetValue()) {
			return nil
		}
	}
}
