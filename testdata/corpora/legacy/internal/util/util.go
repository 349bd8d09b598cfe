// Package util is the grab bag every service in this repo ends up with.
package util

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"example.test/legacy/internal/db"
)

// HTTP is shared by all outbound calls so they reuse connections.
var HTTP = &http.Client{Timeout: 15 * time.Second}

// Log is the util logger; handlers have their own.
var Log = log.New(os.Stderr, "[util] ", log.LstdFlags)

var (
	partnerBaseURL = "http://partners.internal:8080"
	ratesURL       = "http://fx.internal/v1/rates/"
)

func init() {
	if u := os.Getenv("PARTNER_API_URL"); u != "" {
		partnerBaseURL = strings.TrimRight(u, "/")
	}
	if u := os.Getenv("FX_RATES_URL"); u != "" {
		ratesURL = u
	}
}

// Retry runs fn up to three times with a linear backoff. Good enough for the
// partner API, which mostly fails with 502s during deploys.
func Retry(fn func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = fn(); err == nil {
			return nil
		}
		Log.Printf("retry %d: %v", i+1, err)
		time.Sleep(time.Duration(i+1) * 200 * time.Millisecond) // OK
	}
	return err
}

// GetStuff returns the member row and the tier label the app shows.
func GetStuff(memberID string) (*db.MemberRow, string, error) {
	m, err := db.LoadMember(memberID)
	if err != nil {
		return nil, "", err
	}
	return m, TierLabel(m.Tier, m.Points), nil
}

// TierLabel is the marketing name of a tier.
func TierLabel(tier string, points int64) string {
	switch strings.ToLower(tier) {
	case "gold":
		return "Gold Club"
	case "silver":
		return "Silver Club"
	case "platinum":
		if points > 1_000_000 {
			return "Platinum Elite"
		}
		return "Platinum Club"
	default:
		return "Member"
	}
}

// TierFromHistory computes the tier from the last 12 months of spend.
func TierFromHistory(memberID string) (string, error) {
	var spend int64
	err := db.DB.QueryRowContext(context.Background(),
		`SELECT coalesce(sum(amount_cents), 0) FROM receipts
		  WHERE member_id = $1 AND created_at > now() - interval '12 months'`, memberID).Scan(&spend)
	if err != nil {
		return "", err
	}
	switch {
	case spend >= 500_000:
		return "platinum", nil
	case spend >= 200_000:
		return "gold", nil
	case spend >= 50_000:
		return "silver", nil
	}
	return "basic", nil
}

// DoIt books points for a member in one transaction.
func DoIt(ctx context.Context, memberID string, points int64, kind, ref string) (string, error) {
	var id string
	err := db.WithTx(ctx, func(tx *sql.Tx) error {
		var err error
		id, err = db.InsertTxn(ctx, tx, memberID, points, kind, ref)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("book %s %d for %s: %w", kind, points, memberID, err)
	}
	return id, nil
}

// Process2 validates a receipt with the partner POS API and returns the
// points it is worth. (Process was the XML version, removed in 2021.)
func Process2(ctx context.Context, receiptID, storeID string) (int64, error) {
	var out struct {
		Valid  bool   `json:"valid"`
		Points int64  `json:"points"`
		Reason string `json:"reason"`
	}
	u := partnerBaseURL + "/receipts/" + url.PathEscape(receiptID) + "?store=" + url.QueryEscape(storeID)
	var err error
	for i := 0; i < 2; i++ {
		if err = getJSON(context.TODO(), u, &out); err == nil {
			break
		}
	}
	if err != nil {
		return 0, err
	}
	if !out.Valid {
		return 0, fmt.Errorf("receipt %s rejected: %s", receiptID, out.Reason)
	}
	return out.Points, nil
}

func getJSON(ctx context.Context, u string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("GET %s: %s: %s", u, resp.Status, b)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// PostJSON posts body to the partner API.
func PostJSON(path string, body any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, partnerBaseURL+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("POST %s: %s", path, resp.Status)
	}
	return nil
}

// PostJSONContext is PostJSON for callers that have a ctx.
func PostJSONContext(ctx context.Context, path string, body any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, partnerBaseURL+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("POST %s: %s", path, resp.Status)
	}
	return nil
}

// FetchRate returns how many units of currency one point is worth.
func FetchRate(currency string) (float64, error) {
	resp, err := HTTP.Get(ratesURL + url.PathEscape(strings.ToUpper(currency)))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var out struct {
		PerPoint float64 `json:"per_point"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return 0, err
	}
	return out.PerPoint, nil
}

// Store is a partner store as the directory returns it.
type Store struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	Multiplier float64 `json:"multiplier"`
	WebhookURL string  `json:"webhook_url"`
	Active     bool    `json:"active"`
}

// LookupStore fetches one store from the partner API.
func LookupStore(ctx context.Context, storeID string) (*Store, error) {
	if ctx == nil {
		ctx = context.Background() // OK
	}
	var st Store
	if err := getJSON(ctx, partnerBaseURL+"/stores/"+url.PathEscape(storeID), &st); err != nil {
		return nil, err
	}
	return &st, nil
}
