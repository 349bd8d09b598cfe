package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log"
	"net/http"
	"strconv"
	"time"

	"connectrpc.com/connect"

	accountsv1 "example.test/gateway/gen/accounts/v1"
	"example.test/gateway/gen/accounts/v1/accountsv1connect"
)

var errRecordAttempt = errors.New("webhook: recording the failed attempt took too long")

// Processor delivers one webhook at a time.
type Processor struct {
	store       *Store
	client      *http.Client
	accounts    accountsv1connect.AccountsServiceClient
	secret      []byte
	maxAttempts int
	backoff     time.Duration
}

// NewProcessor returns a processor.
func NewProcessor(store *Store, client *http.Client, accounts accountsv1connect.AccountsServiceClient, secret []byte, maxAttempts int, backoff time.Duration) *Processor {
	return &Processor{store: store, client: client, accounts: accounts, secret: secret, maxAttempts: maxAttempts, backoff: backoff}
}

func (p *Processor) sign(d Delivery, ts string) string {
	mac := hmac.New(sha256.New, p.secret)
	mac.Write([]byte(ts + "." + string(d.Payload)))
	return hex.EncodeToString(mac.Sum(nil))
}

func (p *Processor) post(ctx context.Context, d Delivery) (int, error) {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(d.Payload))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Gateway-Event", d.Event)
	req.Header.Set("X-Gateway-Timestamp", ts)
	req.Header.Set("X-Gateway-Signature", "v1="+p.sign(d, ts))
	resp, err := p.client.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// Handle delivers d. The consumer calls it with a ctx bounded by the delivery's
// lease; everything Handle does must fit in it.
//
//deadlinelint:scope
func (p *Processor) Handle(ctx context.Context, d Delivery) error {
	if ctx == nil {
		ctx = context.Background() // OK
	}
	acct, err := p.accounts.GetAccount(ctx, connect.NewRequest(&accountsv1.GetAccountRequest{Id: d.AccountID})) // OK
	if err != nil && connect.CodeOf(err) != connect.CodeNotFound {
		return fmt.Errorf("webhook %d: account %s: %w", d.ID, d.AccountID, err)
	}
	if err != nil || acct.Msg.GetDisabled() {
		return p.store.MarkSkipped(context.Background(), d.ID, "account disabled or deleted") // BUG: ctxbackground
	}
	var code int
	for attempt := 1; ; attempt++ {
		code, err = p.post(ctx, d) // OK
		if err == nil && code < 300 {
			break
		}
		if attempt == p.maxAttempts || (err == nil && code < 500 && code != http.StatusTooManyRequests) {
			reason := fmt.Sprintf("status %d", code)
			if err != nil {
				reason = err.Error()
			}
			// A failed attempt is recorded even when the lease ran out during it;
			// otherwise the delivery would be retried without the attempt counting.
			fctx, cancel := context.WithTimeoutCause(context.WithoutCancel(ctx), 2*time.Second, errRecordAttempt) // OK
			defer cancel()
			return p.store.MarkFailed(fctx, d.ID, reason, d.Attempts >= 10) // OK
		}
		time.Sleep(p.backoff << (attempt - 1)) // BUG: ctxless
	}
	// The delivery already happened; recording it must not be lost with the lease.
	dctx := context.WithoutCancel(ctx)
	// ^BUG: detach
	go func() {
		if err := p.store.MarkDelivered(dctx, d.ID, code); err != nil {
			log.Printf("webhook %d: mark delivered: %v", d.ID, err)
		}
	}()
	return nil
}
