package store

import "context"

// Watch returns a channel of changes to resources of typ in mesh. The watch is removed, and
// the channel closed, when ctx is done.
func (s *Store) Watch(ctx context.Context, mesh, typ string) <-chan Event {
	w := &watcher{mesh: mesh, typ: typ, ch: make(chan Event, 64)}
	s.mu.Lock()
	id := s.nextID
	s.nextID++
	s.watchers[id] = w
	s.mu.Unlock()
	go func() {
		<-ctx.Done()
		s.mu.Lock()
		delete(s.watchers, id)
		s.mu.Unlock()
		close(w.ch)
	}()
	return w.ch
}

func (s *Store) publish(ev Event) {
	ev.Revision = s.rev.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range s.watchers {
		if w.mesh != ev.Resource.Mesh || (w.typ != "" && w.typ != ev.Resource.Type) {
			continue
		}
		select {
		case w.ch <- ev:
		default: // a slow watcher misses events and resyncs from List
		}
	}
}
