// Package carrierapi is the HTTP client for the carriers' rate, booking and cancellation APIs.
package carrierapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"time"
)

// Rate is one carrier's offer.
type Rate struct {
	Carrier     string `json:"carrier"`
	AmountMinor int64  `json:"amount_minor"`
	Currency    string `json:"currency"`
	EtaDays     int32  `json:"eta_days"`
}

// RateRequest describes a parcel.
type RateRequest struct {
	FromPostcode string `json:"from"`
	ToPostcode   string `json:"to"`
	WeightGrams  int32  `json:"weight_grams"`
}

// Booking is a confirmed shipment at a carrier.
type Booking struct {
	TrackingCode string `json:"tracking_code"`
}

// Client talks to the carrier gateway.
type Client struct {
	base       string
	key        string
	carriers   []string
	perCarrier time.Duration
	hc         *http.Client
}

// New returns a client for the gateway at base.
func New(base, key string, carriers []string) *Client {
	return &Client{base: base, key: key, carriers: carriers, perCarrier: 2 * time.Second, hc: &http.Client{}}
}

// Rates asks every configured carrier for a rate and returns the offers, cheapest first.
func (c *Client) Rates(ctx context.Context, req RateRequest) ([]Rate, error) {
	var out []Rate
	var errs []error
	for _, carrier := range c.carriers {
		cctx, cancel := context.WithTimeout(context.Background(), c.perCarrier)
		var r Rate
		err := c.post(cctx, "/v1/"+carrier+"/rates", req, &r)
		cancel()
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", carrier, err))
			continue
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, errors.Join(errs...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].AmountMinor < out[j].AmountMinor })
	return out, nil
}

// Book books a parcel with carrier.
func (c *Client) Book(ctx context.Context, carrier string, req RateRequest, reference string) (*Booking, error) {
	var b Booking
	body := map[string]any{"parcel": req, "reference": reference}
	if err := c.post(ctx, "/v1/"+carrier+"/shipments", body, &b); err != nil {
		return nil, err
	}
	return &b, nil
}

// Cancel cancels a booking.
func (c *Client) Cancel(ctx context.Context, carrier, trackingCode string) error {
	return c.post(ctx, "/v1/"+carrier+"/shipments/"+trackingCode+"/cancel", struct{}{}, nil)
}

func (c *Client) post(ctx context.Context, path string, in, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Api-Key", c.key)
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("carrier gateway: %s", resp.Status)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}
