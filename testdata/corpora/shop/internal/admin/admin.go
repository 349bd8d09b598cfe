// Package admin serves health and debug endpoints over HTTP.
package admin

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"
)

type Pinger interface {
	Ping(ctx context.Context) error
}

type Refresher interface {
	Trigger()
	Age() time.Duration
}

type Server struct {
	srv *http.Server
	db  Pinger
	ref Refresher
}

func New(addr string, db Pinger, ref Refresher) *Server {
	s := &Server{db: db, ref: ref}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("POST /debug/refresh", s.refresh)
	s.srv = &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	return s
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 500*time.Millisecond)
	defer cancel()
	st := map[string]any{"catalog_age": s.ref.Age().String()}
	code := http.StatusOK
	if err := s.db.Ping(ctx); err != nil {
		st["db"] = err.Error()
		code = http.StatusServiceUnavailable
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(st)
}

func (s *Server) refresh(w http.ResponseWriter, _ *http.Request) {
	s.ref.Trigger()
	w.WriteHeader(http.StatusAccepted)
}

// Run serves until ctx is done, then shuts down gracefully within 5s.
func (s *Server) Run(ctx context.Context) error {
	errc := make(chan error, 1)
	go func() { errc <- s.srv.ListenAndServe() }()
	select {
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return s.srv.Shutdown(sctx)
}
