// Package kms is a small client of the key management service that holds the mesh CA's keys.
// Keys never leave the KMS: the CA sends digests to be signed.
package kms

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Client calls the KMS over HTTP.
type Client struct {
	base string
	http *http.Client
}

// New returns a client for the KMS at base.
func New(base string) *Client {
	return &Client{base: base, http: &http.Client{Transport: http.DefaultTransport}}
}

type signRequest struct {
	KeyID  string `json:"key_id"`
	Digest string `json:"digest"`
	Alg    string `json:"alg"`
}

type signResponse struct {
	Signature string `json:"signature"`
}

func (c *Client) post(ctx context.Context, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("kms %s: %s", path, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// Sign signs a SHA-256 digest with the key.
func (c *Client) Sign(ctx context.Context, keyID string, digest []byte) ([]byte, error) {
	var out signResponse
	if err := c.post(ctx, "/v1/sign", signRequest{KeyID: keyID, Digest: base64.StdEncoding.EncodeToString(digest), Alg: "ECDSA_SHA_256"}, &out); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(out.Signature)
}

// PublicKey returns the DER public key of a key.
func (c *Client) PublicKey(ctx context.Context, keyID string) ([]byte, error) {
	var out struct {
		DER string `json:"der"`
	}
	if err := c.post(ctx, "/v1/public-key", map[string]string{"key_id": keyID}, &out); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(out.DER)
}

// Rotate creates a new version of a key and returns its id.
func (c *Client) Rotate(ctx context.Context, keyID string) (string, error) {
	var out struct {
		KeyID string `json:"key_id"`
	}
	err := c.post(ctx, "/v1/rotate", map[string]string{"key_id": keyID, "at": time.Now().UTC().Format(time.RFC3339)}, &out)
	return out.KeyID, err
}
