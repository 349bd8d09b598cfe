// Package ledger is the Postgres-backed store for payments, refunds and the
// double-entry ledger.
package ledger

import (
	"errors"
	"time"
)

// ErrNotFound is returned when a row does not exist.
var ErrNotFound = errors.New("ledger: not found")

// Status is the lifecycle state of a payment.
type Status string

const (
	StatusPending    Status = "pending"
	StatusAuthorized Status = "authorized"
	StatusCaptured   Status = "captured"
	StatusRefunded   Status = "refunded"
	StatusDeclined   Status = "declined"
	StatusExpired    Status = "expired"
)

// Terminal reports whether no further transitions are possible.
func (s Status) Terminal() bool {
	switch s {
	case StatusRefunded, StatusDeclined, StatusExpired:
		return true
	}
	return false
}

// Payment is a card payment as stored.
type Payment struct {
	ID              string
	MerchantID      string
	Currency        string
	AmountMinor     int64
	CapturedMinor   int64
	Status          Status
	CardFingerprint string
	IdempotencyKey  string
	WebhookURL      string
	CreatedAt       time.Time
}

// Limits are the risk limits configured for a merchant.
type Limits struct {
	MaxAmountMinor int64
	DailyCountMax  int
	Blocked        bool
}

// Refund is a (possibly partial) refund of a captured payment.
type Refund struct {
	ID          string
	PaymentID   string
	Currency    string
	AmountMinor int64
	Reason      string
	AcquirerRef string
	CreatedAt   time.Time
}

// Transfer moves money between two ledger accounts.
type Transfer struct {
	From        string
	To          string
	Currency    string
	AmountMinor int64
	Reference   string
}

// Entry is one leg of a posted transfer.
type Entry struct {
	ID          string
	AccountID   string
	Currency    string
	AmountMinor int64
	Reference   string
	PostedAt    time.Time
}

// Balance is the materialised balance of an account.
type Balance struct {
	AccountID      string
	Currency       string
	AvailableMinor int64
	PendingMinor   int64
	AsOf           time.Time
}
