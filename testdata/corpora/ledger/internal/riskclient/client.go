// Package riskclient wraps the internal Risk service.
package riskclient

import (
	"context"
	"fmt"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/ledger/gen/riskpb"
	"example.test/ledger/internal/retry"
)

// Client calls the Risk service.
type Client struct {
	target         string
	legacy         bool
	defaultTimeout time.Duration

	initOnce sync.Once
	initErr  error
	raw      riskpb.RiskClient
}

// New returns a client for target. The connection is established lazily.
func New(target string, legacy bool) *Client {
	return &Client{target: target, legacy: legacy, defaultTimeout: 800 * time.Millisecond}
}

func (c *Client) client() (riskpb.RiskClient, error) {
	c.initOnce.Do(func() {
		var cc *grpc.ClientConn
		var err error
		if c.legacy {
			cc, err = dialReady(c.target, grpc.WithTransportCredentials(insecure.NewCredentials()))
		} else {
			cc, err = grpc.NewClient(c.target, grpc.WithTransportCredentials(insecure.NewCredentials()))
		}
		if err != nil {
			c.initErr = fmt.Errorf("risk client: %w", err)
			return
		}
		c.raw = riskpb.NewRiskClient(cc)
	})
	return c.raw, c.initErr
}

// Decision is the outcome of a risk check.
type Decision struct {
	Score  float64
	Block  bool
	Reason string
}

// Score asks Risk to score a transfer. If ctx has no deadline a default one
// is applied so a hung Risk instance cannot hold the caller forever.
func (c *Client) Score(ctx context.Context, from, to string, amount int64, currency string) (Decision, error) {
	rc, err := c.client()
	if err != nil {
		return Decision{}, err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.defaultTimeout)
		defer cancel()
	}
	var resp *riskpb.ScoreResponse
	err = retry.Do(ctx, retry.Policy{Attempts: 2, Base: 20 * time.Millisecond, Max: 100 * time.Millisecond},
		func(ctx context.Context) error {
			var err error
			resp, err = rc.Score(ctx, &riskpb.ScoreRequest{FromAccount: from, ToAccount: to, AmountMinor: amount, Currency: currency})
			return err
		})
	if err != nil {
		return Decision{}, fmt.Errorf("risk score: %w", err)
	}
	return Decision{Score: resp.GetScore(), Block: resp.GetBlock(), Reason: resp.GetReason()}, nil
}

// Report tells Risk the final outcome of a transfer. It is fire-and-forget
// from the caller's point of view; the caller owns ctx.
func (c *Client) Report(ctx context.Context, transferID, outcome string) error {
	rc, err := c.client()
	if err != nil {
		return err
	}
	_, err = rc.Report(ctx, &riskpb.ReportRequest{TransferId: transferID, Outcome: outcome})
	return err
}
