package geo

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"example.test/fleet/internal/store"
)

// TileServer queries the self-hosted offline tile server.
type TileServer struct {
	base   string
	client *http.Client
}

// NewTileServer returns a TileServer for the server at base.
func NewTileServer(base string) *TileServer {
	return &TileServer{base: base, client: &http.Client{}}
}

// Lookup returns the address label of the tile containing p.
func (t *TileServer) Lookup(ctx context.Context, p store.Point) (string, error) {
	u := t.base + "/label?lat=" + strconv.FormatFloat(p.Lat, 'f', 6, 64) + "&lng=" + strconv.FormatFloat(p.Lng, 'f', 6, 64)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", err
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("tiles: %s", resp.Status)
	}
	var out struct {
		Label string `json:"label"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", err
	}
	return out.Label, nil
}
