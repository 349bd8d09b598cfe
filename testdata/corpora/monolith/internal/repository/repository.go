// Package repository declares the persistence interfaces of the monolith and the records they
// store. The Postgres implementation lives in pgrepo; test doubles live in mocks.
package repository

import (
	"context"
	"errors"
	"time"
)

// ErrNotFound is returned when a record does not exist.
var ErrNotFound = errors.New("repository: not found")

// ErrConflict is returned when a write loses an optimistic-locking race.
var ErrConflict = errors.New("repository: conflict")

type Account struct {
	ID          string
	Email       string
	DisplayName string
	Locale      string
	Tier        string
	UpdatedAt   time.Time
	ClosedAt    *time.Time
}

type Session struct {
	ID        string
	AccountID string
	UserAgent string
	IP        string
	LastSeen  time.Time
}

type Contact struct {
	AccountID string
	Email     string
	Name      string
}

type Invoice struct {
	ID          string
	AccountID   string
	AmountMinor int64
	Currency    string
	Status      string
	IssuedAt    time.Time
}

type LedgerEntry struct {
	ID          string
	AccountID   string
	AmountMinor int64
	Currency    string
	Memo        string
	At          time.Time
}

type LineItem struct {
	SKU            string
	Quantity       int32
	UnitPriceMinor int64
}

type Order struct {
	ID         string
	AccountID  string
	Items      []LineItem
	Status     string
	TotalMinor int64
	TaxMinor   int64
	Currency   string
	ShipmentID string
	CreatedAt  time.Time
}

type Refund struct {
	ID          string
	OrderID     string
	AmountMinor int64
	ProviderRef string
}

type Product struct {
	SKU            string
	Title          string
	Description    string
	Tags           []string
	BasePriceMinor int64
	Currency       string
	Active         bool
	UpdatedAt      time.Time
}

type PriceRule struct {
	ID         string
	SKU        string
	Kind       string
	PercentOff int32
	Tier       string
}

type Shipment struct {
	ID           string
	OrderID      string
	Carrier      string
	Status       string
	TrackingCode string
	WeightGrams  int32
	ToPostcode   string
}

type ShipmentEvent struct {
	ShipmentID string
	Status     string
	Location   string
	At         time.Time
}

type Carrier struct {
	Code    string
	Name    string
	Host    string
	Country string
	Active  bool
}

type Preferences struct {
	AccountID  string
	Email      bool
	SMS        bool
	Push       bool
	QuietHours string
}

// AccountStore persists accounts, sessions and contacts.
type AccountStore interface {
	GetAccount(ctx context.Context, id string) (*Account, error)
	UpdateAccount(ctx context.Context, a *Account) error
	CloseAccount(ctx context.Context, id, reason string) error
	ListSessions(ctx context.Context, accountID string) ([]Session, error)
	TouchSessions(ctx context.Context, accountID string, ids []string) error
	DeleteSession(ctx context.Context, accountID, sessionID string) (bool, error)
	UpsertContact(ctx context.Context, c Contact) error
	RebuildContactIndex(ctx context.Context) error
}

// LedgerStore persists balances, charges and invoices.
type LedgerStore interface {
	Balance(ctx context.Context, accountID, currency string) (int64, error)
	ListInvoices(ctx context.Context, accountID string, limit int, after string) ([]Invoice, error)
	Charge(ctx context.Context, accountID string, amountMinor int64, currency, idempotencyKey string) (chargeID string, balance int64, err error)
	ChargeExists(idempotencyKey string) (bool, error)
	Entries(ctx context.Context, accountID string, from, to time.Time) ([]LedgerEntry, error)
}

// OrderStore persists orders, holds and refunds.
type OrderStore interface {
	Insert(ctx context.Context, o *Order) error
	Get(ctx context.Context, id string) (*Order, error)
	List(ctx context.Context, accountID, status string, limit int) ([]Order, error)
	UpdateStatus(ctx context.Context, id, from, to string) error
	ReleaseHold(ctx context.Context, orderID string) error
	InsertRefund(ctx context.Context, r *Refund) error
	Changes(ctx context.Context, id string, since time.Time) ([]Order, error)
}

// ProductStore persists the catalog.
type ProductStore interface {
	Get(ctx context.Context, sku string) (*Product, error)
	Search(ctx context.Context, query string, tags []string, limit int) ([]Product, error)
	Upsert(ctx context.Context, p *Product) error
	UpsertBatch(ctx context.Context, ps []Product) (int, error)
	Delete(ctx context.Context, sku string) error
	Reindex(ctx context.Context) error
}

// PriceRuleStore persists pricing rules.
type PriceRuleStore interface {
	ForSKU(ctx context.Context, sku string) ([]PriceRule, error)
}

// ShipmentStore persists shipments and carrier data.
type ShipmentStore interface {
	Insert(ctx context.Context, s *Shipment) error
	Get(ctx context.Context, id string) (*Shipment, error)
	SetStatus(ctx context.Context, id, status string) error
	Events(ctx context.Context, id string, limit int) ([]ShipmentEvent, error)
	Carriers(ctx context.Context, country string) ([]Carrier, error)
}

// PreferenceStore persists notification preferences.
type PreferenceStore interface {
	Get(ctx context.Context, accountID string) (*Preferences, error)
	Put(ctx context.Context, p *Preferences) error
}
