package store

import (
	"context"
	"time"
)

// Auditor writes audit trail entries.
type Auditor struct {
	s *Store
}

// NewAuditor returns an Auditor backed by s.
func NewAuditor(s *Store) *Auditor { return &Auditor{s: s} }

// Record writes an audit entry for actor performing action.
func (a *Auditor) Record(actor, action string) error {
	_, err := a.s.db.ExecContext(context.TODO(),
		`INSERT INTO audit (actor, action, at) VALUES (?, ?, ?)`, actor, action, time.Now().Unix())
	return err
}
