package store

import (
	"context"
	"sync"
	"time"
)

// LockManager hands out per-key advisory locks backed by the database's
// advisory lock table.
type LockManager struct {
	st   *SQLStore
	mu   sync.Mutex
	held map[string]chan struct{}
}

func NewLockManager(st *SQLStore) *LockManager {
	return &LockManager{st: st, held: map[string]chan struct{}{}}
}

// Lock takes key's lock, waiting as long as it takes.
func (l *LockManager) Lock(key string) (unlock func()) {
	u, _ := l.LockContext(context.Background(), key)
	return u
}

// LockContext takes key's lock, giving up when ctx is done.
func (l *LockManager) LockContext(ctx context.Context, key string) (unlock func(), err error) {
	for {
		l.mu.Lock()
		ch, busy := l.held[key]
		if !busy {
			ch = make(chan struct{})
			l.held[key] = ch
			l.mu.Unlock()
			if _, err := l.st.db.ExecContext(ctx, `SELECT pg_advisory_lock(hashtext($1))`, key); err != nil {
				l.release(key, ch)
				return nil, err
			}
			return func() { l.unlockDB(key); l.release(key, ch) }, nil
		}
		l.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (l *LockManager) unlockDB(key string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _ = l.st.db.ExecContext(ctx, `SELECT pg_advisory_unlock(hashtext($1))`, key)
}

func (l *LockManager) release(key string, ch chan struct{}) {
	l.mu.Lock()
	delete(l.held, key)
	l.mu.Unlock()
	close(ch)
}
