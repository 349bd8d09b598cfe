// Package mocks holds in-memory test doubles of the repository interfaces.
package mocks

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"example.test/monolith/internal/repository"
)

// Call records one invocation.
type Call struct {
	Method string
	Args   []any
}

type recorder struct {
	mu    sync.Mutex
	calls []Call
}

func (r *recorder) record(ctx context.Context, method string, args ...any) error {
	r.mu.Lock()
	r.calls = append(r.calls, Call{Method: method, Args: args})
	r.mu.Unlock()
	if ctx != nil {
		return ctx.Err()
	}
	return nil
}

// Calls returns the recorded invocations.
func (r *recorder) Calls() []Call {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Call(nil), r.calls...)
}

// AccountStore is an in-memory repository.AccountStore.
type AccountStore struct {
	recorder
	Accounts map[string]*repository.Account
	Sessions map[string][]repository.Session
	Err      error
}

var _ repository.AccountStore = (*AccountStore)(nil)

// NewAccountStore returns an empty store.
func NewAccountStore() *AccountStore {
	return &AccountStore{Accounts: map[string]*repository.Account{}, Sessions: map[string][]repository.Session{}}
}

func (m *AccountStore) GetAccount(ctx context.Context, id string) (*repository.Account, error) {
	if err := m.record(ctx, "GetAccount", id); err != nil {
		return nil, err
	}
	if m.Err != nil {
		return nil, m.Err
	}
	a, ok := m.Accounts[id]
	if !ok {
		return nil, repository.ErrNotFound
	}
	cp := *a
	return &cp, nil
}

func (m *AccountStore) UpdateAccount(ctx context.Context, a *repository.Account) error {
	if err := m.record(ctx, "UpdateAccount", a.ID); err != nil {
		return err
	}
	cp := *a
	cp.UpdatedAt = time.Now()
	m.Accounts[a.ID] = &cp
	return m.Err
}

func (m *AccountStore) CloseAccount(ctx context.Context, id, reason string) error {
	if err := m.record(ctx, "CloseAccount", id, reason); err != nil {
		return err
	}
	if a, ok := m.Accounts[id]; ok {
		now := time.Now()
		a.ClosedAt = &now
	}
	return m.Err
}

func (m *AccountStore) ListSessions(ctx context.Context, accountID string) ([]repository.Session, error) {
	return m.Sessions[accountID], m.record(ctx, "ListSessions", accountID)
}

func (m *AccountStore) TouchSessions(ctx context.Context, accountID string, ids []string) error {
	return m.record(ctx, "TouchSessions", accountID, ids)
}

func (m *AccountStore) DeleteSession(ctx context.Context, accountID, sessionID string) (bool, error) {
	if err := m.record(ctx, "DeleteSession", accountID, sessionID); err != nil {
		return false, err
	}
	ss := m.Sessions[accountID]
	for i, s := range ss {
		if s.ID == sessionID {
			m.Sessions[accountID] = append(ss[:i], ss[i+1:]...)
			return true, nil
		}
	}
	return false, nil
}

func (m *AccountStore) UpsertContact(ctx context.Context, c repository.Contact) error {
	return m.record(ctx, "UpsertContact", c.AccountID, c.Email)
}

func (m *AccountStore) RebuildContactIndex(ctx context.Context) error {
	return m.record(ctx, "RebuildContactIndex")
}

// LedgerStore is an in-memory repository.LedgerStore.
type LedgerStore struct {
	recorder
	Balances map[string]int64
	Keys     map[string]bool
	Invoices []repository.Invoice
	n        int
}

var _ repository.LedgerStore = (*LedgerStore)(nil)

// NewLedgerStore returns an empty ledger.
func NewLedgerStore() *LedgerStore {
	return &LedgerStore{Balances: map[string]int64{}, Keys: map[string]bool{}}
}

func (m *LedgerStore) Balance(ctx context.Context, accountID, currency string) (int64, error) {
	return m.Balances[accountID+"/"+currency], m.record(ctx, "Balance", accountID, currency)
}

func (m *LedgerStore) ListInvoices(ctx context.Context, accountID string, limit int, after string) ([]repository.Invoice, error) {
	var out []repository.Invoice
	for _, in := range m.Invoices {
		if in.AccountID == accountID && in.ID > after && len(out) < limit {
			out = append(out, in)
		}
	}
	return out, m.record(ctx, "ListInvoices", accountID, limit, after)
}

func (m *LedgerStore) Charge(ctx context.Context, accountID string, amountMinor int64, currency, key string) (string, int64, error) {
	if err := m.record(ctx, "Charge", accountID, amountMinor, currency, key); err != nil {
		return "", 0, err
	}
	m.n++
	m.Keys[key] = true
	k := accountID + "/" + currency
	m.Balances[k] -= amountMinor
	return fmt.Sprintf("ch_%d", m.n), m.Balances[k], nil
}

func (m *LedgerStore) ChargeExists(key string) (bool, error) {
	_ = m.record(nil, "ChargeExists", key)
	return m.Keys[key], nil
}

func (m *LedgerStore) Entries(ctx context.Context, accountID string, from, to time.Time) ([]repository.LedgerEntry, error) {
	return nil, m.record(ctx, "Entries", accountID, from, to)
}

// ProductStore is an in-memory repository.ProductStore.
type ProductStore struct {
	recorder
	Products map[string]*repository.Product
}

var _ repository.ProductStore = (*ProductStore)(nil)

// NewProductStore returns an empty catalog.
func NewProductStore() *ProductStore {
	return &ProductStore{Products: map[string]*repository.Product{}}
}

func (m *ProductStore) Get(ctx context.Context, sku string) (*repository.Product, error) {
	if err := m.record(ctx, "Get", sku); err != nil {
		return nil, err
	}
	p, ok := m.Products[sku]
	if !ok {
		return nil, repository.ErrNotFound
	}
	return p, nil
}

func (m *ProductStore) Search(ctx context.Context, query string, tags []string, limit int) ([]repository.Product, error) {
	var out []repository.Product
	for _, p := range m.Products {
		if strings.Contains(strings.ToLower(p.Title), strings.ToLower(query)) && len(out) < limit {
			out = append(out, *p)
		}
	}
	return out, m.record(ctx, "Search", query, tags, limit)
}

func (m *ProductStore) Upsert(ctx context.Context, p *repository.Product) error {
	m.Products[p.SKU] = p
	return m.record(ctx, "Upsert", p.SKU)
}

func (m *ProductStore) UpsertBatch(ctx context.Context, ps []repository.Product) (int, error) {
	for i := range ps {
		m.Products[ps[i].SKU] = &ps[i]
	}
	return len(ps), m.record(ctx, "UpsertBatch", len(ps))
}

func (m *ProductStore) Delete(ctx context.Context, sku string) error {
	delete(m.Products, sku)
	return m.record(ctx, "Delete", sku)
}

func (m *ProductStore) Reindex(ctx context.Context) error { return m.record(ctx, "Reindex") }

// ShipmentStore is an in-memory repository.ShipmentStore.
type ShipmentStore struct {
	recorder
	Shipments map[string]*repository.Shipment
	Carrier   []repository.Carrier
}

var _ repository.ShipmentStore = (*ShipmentStore)(nil)

func (m *ShipmentStore) Insert(ctx context.Context, s *repository.Shipment) error {
	if m.Shipments == nil {
		m.Shipments = map[string]*repository.Shipment{}
	}
	s.ID = fmt.Sprintf("shp_%d", len(m.Shipments)+1)
	m.Shipments[s.ID] = s
	return m.record(ctx, "Insert", s.OrderID)
}

func (m *ShipmentStore) Get(ctx context.Context, id string) (*repository.Shipment, error) {
	s, ok := m.Shipments[id]
	if !ok {
		return nil, repository.ErrNotFound
	}
	return s, m.record(ctx, "Get", id)
}

func (m *ShipmentStore) SetStatus(ctx context.Context, id, status string) error {
	if s, ok := m.Shipments[id]; ok {
		s.Status = status
	}
	return m.record(ctx, "SetStatus", id, status)
}

func (m *ShipmentStore) Events(ctx context.Context, id string, limit int) ([]repository.ShipmentEvent, error) {
	return nil, m.record(ctx, "Events", id, limit)
}

func (m *ShipmentStore) Carriers(ctx context.Context, country string) ([]repository.Carrier, error) {
	return m.Carrier, m.record(ctx, "Carriers", country)
}
