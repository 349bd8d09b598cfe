// Package helpers glues util and db together for the handlers and the jobs.
package helpers

import (
	"context"
	"log"
	"os"
	"time"

	"example.test/legacy/internal/db"
	"example.test/legacy/internal/util"
)

var hlog = log.New(os.Stderr, "[helpers] ", log.LstdFlags)

// MemberView is what the app shows on the profile screen.
type MemberView struct {
	ID          string
	Email       string
	Name        string
	Tier        string
	TierLabel   string
	Points      int64
	PartnerCode string
	EnrolledAt  time.Time
	Active      bool
}

// LoadMemberView loads a member and decorates it for display.
func LoadMemberView(memberID string) (*MemberView, error) {
	m, label, err := util.GetStuff(memberID)
	if err != nil {
		return nil, err
	}
	return &MemberView{
		ID:          m.ID,
		Email:       m.Email,
		Name:        m.Name,
		Tier:        m.Tier,
		TierLabel:   label,
		Points:      m.Points,
		PartnerCode: m.PartnerCode,
		EnrolledAt:  m.EnrolledAt,
		Active:      m.Status == "active",
	}, nil
}

// PartnerEvent is posted to the partner program.
type PartnerEvent struct {
	Type     string    `json:"type"`
	MemberID string    `json:"member_id"`
	Points   int64     `json:"points,omitempty"`
	At       time.Time `json:"at"`
}

// NotifyPartner tells the partner program about a member event. Failures are
// logged; the partner reconciles nightly anyway.
func NotifyPartner(partnerCode string, ev PartnerEvent) {
	if partnerCode == "" {
		return
	}
	if err := util.PostJSON("/partners/"+partnerCode+"/events", ev); err != nil {
		hlog.Printf("notify partner %s (%s): %v", partnerCode, ev.Type, err)
	}
}

// ProcessReceipt turns a receipt into points. Receipts without an id (manual
// entry at the till) earn one point per currency unit.
func ProcessReceipt(ctx context.Context, receiptID, storeID string, amountCents int64) (int64, error) {
	if receiptID == "" {
		return amountCents / 100, nil
	}
	pts, err := util.Process2(ctx, receiptID, storeID)
	if err != nil {
		return 0, err
	}
	if pts <= 0 {
		pts = amountCents / 100
	}
	return pts, nil
}

// Earn is the common booking path of EarnPoints and ImportPoints.
func Earn(ctx context.Context, memberID string, points int64, kind, ref string) (string, error) {
	return util.DoIt(ctx, memberID, points, kind, ref)
}

// RefreshBalanceCache makes the next GetBalance read through to the db.
func RefreshBalanceCache(memberID string) {
	util.Invalidate(memberID)
}

// TierFor maps 12-month spend (cents) to a tier.
func TierFor(spendCents int64) string {
	switch {
	case spendCents >= 500_000:
		return "platinum"
	case spendCents >= 200_000:
		return "gold"
	case spendCents >= 50_000:
		return "silver"
	}
	return "basic"
}

// Audit is a shorthand kept for the old call sites.
func Audit(action, memberID, detail string) {
	db.SaveAudit(action, memberID, detail)
}
