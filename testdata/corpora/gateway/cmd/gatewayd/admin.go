package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"example.test/gateway/internal/metrics"
	"example.test/gateway/internal/platform/kv"
)

// adminMux serves the operator endpoints. These handlers run for load
// balancers and scrapers, not for API callers.
func adminMux(db *sql.DB, cache *kv.Client, configHealth healthpb.HealthClient, rec *metrics.Recorder) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second) // OK
		defer cancel()
		if err := db.PingContext(ctx); err != nil {
			http.Error(w, "database: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		if _, err := cache.GetContext(ctx, "healthz"); err != nil && err != kv.ErrMiss {
			http.Error(w, "cache: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		resp, err := configHealth.Check(context.Background(), &healthpb.HealthCheckRequest{Service: "config.v1.ConfigService"}) // BUG: missingdeadline
		if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			http.Error(w, "config service not serving", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ready")
	})
	mux.HandleFunc("/debug/routes", func(w http.ResponseWriter, r *http.Request) {
		rows, err := db.Query(`SELECT id, host, upstream FROM routes WHERE NOT deleted ORDER BY host LIMIT 1000`) // OK
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer rows.Close()
		type row struct{ ID, Host, Upstream string }
		var out []row
		for rows.Next() {
			var x row
			if err := rows.Scan(&x.ID, &x.Host, &x.Upstream); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			out = append(out, x)
		}
		_ = json.NewEncoder(w).Encode(out)
	})
	mux.HandleFunc("/debug/warm", func(w http.ResponseWriter, r *http.Request) {
		ctx := context.Background() // OK
		for _, k := range r.URL.Query()["key"] {
			if _, err := cache.GetContext(ctx, k); err != nil && err != kv.ErrMiss {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.Handle("/metrics", rec.Handler())
	return mux
}
