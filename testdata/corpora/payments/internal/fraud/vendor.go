// Package fraud talks to the fraud-screening vendor over HTTP and to the
// internal risk service over gRPC.
package fraud

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// Client is the HTTP client for the third-party screening API.
type Client struct {
	baseURL string
	apiKey  string
	hc      *http.Client
}

// NewClient returns a vendor client. timeout caps every HTTP exchange,
// including reading the body.
func NewClient(baseURL, apiKey string, timeout time.Duration) *Client {
	return &Client{baseURL: baseURL, apiKey: apiKey, hc: &http.Client{Timeout: timeout}}
}

// ScreenRequest is what the vendor needs to screen a payment.
type ScreenRequest struct {
	PaymentID       string `json:"payment_id"`
	MerchantID      string `json:"merchant_id"`
	AmountMinor     int64  `json:"amount_minor"`
	Currency        string `json:"currency"`
	CardFingerprint string `json:"card_fingerprint"`
	CustomerIP      string `json:"customer_ip,omitempty"`
}

// Verdict is the vendor's answer.
type Verdict struct {
	Decision string   `json:"decision"` // "accept", "review" or "reject"
	Score    float64  `json:"score"`
	Reasons  []string `json:"reasons"`
}

// Rejected reports whether the vendor asked us to decline.
func (v *Verdict) Rejected() bool { return v != nil && v.Decision == "reject" }

// ScreenContext screens a payment, bounded by ctx.
func (c *Client) ScreenContext(ctx context.Context, r ScreenRequest) (*Verdict, error) {
	body, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v2/screen", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("screen %s: %w", r.PaymentID, err)
	}
	return decodeVerdict(resp)
}

// Screen screens a payment. It predates ScreenContext and is kept for the
// back-fill tooling, which authenticates with the legacy query-string key.
func (c *Client) Screen(r ScreenRequest) (*Verdict, error) {
	body, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Post(c.baseURL+"/v2/screen?api_key="+url.QueryEscape(c.apiKey), "application/json", bytes.NewReader(body)) // OK
	if err != nil {
		return nil, fmt.Errorf("screen %s: %w", r.PaymentID, err)
	}
	return decodeVerdict(resp)
}

// ReportChargeback tells the vendor that a payment turned out to be fraud,
// which trains their model for our merchants.
func (c *Client) ReportChargeback(paymentID, reason string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // OK
	defer cancel()
	body, _ := json.Marshal(map[string]string{"payment_id": paymentID, "reason": reason})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v2/feedback", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("report chargeback %s: %w", paymentID, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("report chargeback %s: vendor returned %s", paymentID, resp.Status)
	}
	return nil
}

func decodeVerdict(resp *http.Response) (*Verdict, error) {
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return nil, fmt.Errorf("vendor returned %s: %s", resp.Status, bytes.TrimSpace(msg))
	}
	var v Verdict
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		return nil, fmt.Errorf("decode verdict: %w", err)
	}
	return &v, nil
}
