package pricing

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"time"
)

const taxLookupTimeout = 1500 * time.Millisecond

type taxTable struct {
	base string
	hc   *http.Client
}

var regionalTaxes = &taxTable{base: envOr("TAX_TABLE_URL", "http://tax-tables.internal"), hc: &http.Client{}}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func (t *taxTable) rate(ctx context.Context, postcode string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.base+"/v1/rate?postcode="+url.QueryEscape(postcode), nil)
	if err != nil {
		return 0, err
	}
	resp, err := t.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("tax table: %s", resp.Status)
	}
	var body struct {
		Rate float64 `json:"rate"`
	}
	return body.Rate, json.NewDecoder(resp.Body).Decode(&body)
}

// TaxFor returns the tax due on subtotalMinor for a delivery to postcode.
func TaxFor(ctx context.Context, postcode string, subtotalMinor int64) (int64, error) {
	if postcode == "" {
		return 0, nil
	}
	tctx, cancel := context.WithTimeout(context.Background(), taxLookupTimeout)
	defer cancel()
	r, err := regionalTaxes.rate(tctx, postcode)
	if err != nil {
		return 0, err
	}
	return int64(float64(subtotalMinor) * r), nil
}
