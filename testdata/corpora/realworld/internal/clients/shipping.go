package clients

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// ShippingRates is a client of the shipping-rate aggregator's HTTP API.
type ShippingRates struct {
	base   *url.URL
	apiKey string
	http   *http.Client
}

// NewShippingRates returns a client for the aggregator at baseURL.
func NewShippingRates(baseURL, apiKey string) (*ShippingRates, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("shipping: base url: %w", err)
	}
	return &ShippingRates{base: u, apiKey: apiKey, http: &http.Client{Timeout: 10 * time.Second}}, nil
}

// RateQuery describes a parcel.
type RateQuery struct {
	Country     string
	PostalCode  string
	WeightGrams int32
	Currency    string
}

// Rate is one offer.
type Rate struct {
	Carrier       string `json:"carrier"`
	Service       string `json:"service"`
	PriceCents    int64  `json:"price_cents"`
	EstimatedDays int32  `json:"estimated_days"`
}

func (s *ShippingRates) newRequest(q RateQuery) (*http.Request, error) {
	u := *s.base
	u.Path = "/v3/rates"
	u.RawQuery = url.Values{
		"country":  {q.Country},
		"postcode": {q.PostalCode},
		"grams":    {strconv.Itoa(int(q.WeightGrams))},
		"currency": {q.Currency},
	}.Encode()
	req, err := http.NewRequest(http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+s.apiKey)
	req.Header.Set("Accept", "application/json")
	return req, nil
}

func (s *ShippingRates) do(req *http.Request) ([]Rate, error) {
	resp, err := s.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("shipping: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("shipping: rates: %s", resp.Status)
	}
	var body struct {
		Rates []Rate `json:"rates"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return nil, fmt.Errorf("shipping: decode rates: %w", err)
	}
	return body.Rates, nil
}

// Quote returns the offers for a parcel. The client's 10s timeout applies.
func (s *ShippingRates) Quote(q RateQuery) ([]Rate, error) {
	req, err := s.newRequest(q)
	if err != nil {
		return nil, err
	}
	return s.do(req)
}

// QuoteContext is Quote bounded by ctx.
func (s *ShippingRates) QuoteContext(ctx context.Context, q RateQuery) ([]Rate, error) {
	req, err := s.newRequest(q)
	if err != nil {
		return nil, err
	}
	return s.do(req.WithContext(ctx))
}
