// Package statement renders monthly account statements asynchronously.
package statement

import (
	"context"
	"fmt"
	"time"

	"example.test/ledger/internal/store"
)

// Job is one statement to render.
type Job struct {
	ID        string
	AccountID string
	Month     time.Month
	Year      int
	Owner     string
	Currency  string
}

// Generator prepares and renders statements.
type Generator struct {
	store *store.Store
}

// NewGenerator returns a Generator reading from s.
func NewGenerator(s *store.Store) *Generator { return &Generator{store: s} }

// Prepare validates the account and fills in the job header.
func (g *Generator) Prepare(accountID string, month time.Month, year int) (Job, error) {
	acct, err := g.header(accountID)
	if err != nil {
		return Job{}, err
	}
	return Job{
		ID:        fmt.Sprintf("st-%s-%04d%02d-%d", accountID, year, month, time.Now().UnixNano()),
		AccountID: acct.ID,
		Month:     month,
		Year:      year,
		Owner:     acct.Owner,
		Currency:  acct.Currency,
	}, nil
}

func (g *Generator) header(accountID string) (store.Account, error) {
	return g.store.LookupAccount(context.Background(), accountID)
}

// Render produces the statement body. It honours ctx throughout.
func (g *Generator) Render(ctx context.Context, j Job) ([]byte, error) {
	from := time.Date(j.Year, j.Month, 1, 0, 0, 0, 0, time.UTC)
	to := from.AddDate(0, 1, 0)
	ps, err := g.store.MonthlyPostings(ctx, j.AccountID, from.Unix(), to.Unix())
	if err != nil {
		return nil, err
	}
	var total int64
	out := fmt.Appendf(nil, "statement %s for %s (%s)\n", j.ID, j.Owner, j.Currency)
	for i, p := range ps {
		if i%512 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		total += p.Amount
		out = fmt.Appendf(out, "%d\t%d\n", p.At, p.Amount)
	}
	out = fmt.Appendf(out, "net\t%d\n", total)
	return out, nil
}
