package server

import (
	"context"
	"encoding/json"
	"time"

	rewardsv1 "example.test/legacy/gen/rewards/v1"
	"example.test/legacy/internal/helpers"
)

type memberEvent struct {
	Kind     string `json:"kind"`
	MemberID string `json:"member_id"`
	Points   int64  `json:"points"`
	Ref      string `json:"ref"`
}

// publish writes an event to the outbox; flushOutbox delivers it.
func (s *Server) publish(ctx context.Context, ev memberEvent) {
	b, _ := json.Marshal(ev)
	if _, err := s.db.ExecContext(ctx, `INSERT INTO outbox (kind, member_id, payload, created_at) VALUES ($1, $2, $3, now())`, ev.Kind, ev.MemberID, b); err != nil {
		logger.Printf("publish %s %s: %v", ev.Kind, ev.MemberID, err)
	}
}

// flushOutbox runs for the life of the server and forwards outbox rows to the partners.
func (s *Server) flushOutbox(ctx context.Context) {
	defer s.wg.Done()
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		rows, err := s.db.QueryContext(ctx,
			`SELECT o.id, o.payload, coalesce(m.partner_code, '') FROM outbox o JOIN members m ON m.id = o.member_id
			  WHERE o.sent_at IS NULL ORDER BY o.id LIMIT 100`)
		if err != nil {
			logger.Printf("outbox: %v", err)
			continue
		}
		var sent []int64
		for rows.Next() {
			var (
				id      int64
				payload []byte
				partner string
			)
			if err := rows.Scan(&id, &payload, &partner); err != nil {
				break
			}
			var ev memberEvent
			_ = json.Unmarshal(payload, &ev)
			helpers.NotifyPartner(partner, helpers.PartnerEvent{Type: ev.Kind, MemberID: ev.MemberID, Points: ev.Points, At: time.Now()}) // OK
			sent = append(sent, id)
		}
		rows.Close()
		for _, id := range sent {
			if _, err := s.db.ExecContext(ctx, `UPDATE outbox SET sent_at = now() WHERE id = $1`, id); err != nil {
				logger.Printf("outbox %d: %v", id, err)
			}
		}
	}
}

// ReconcileGrants retries reward grants that failed during RedeemPoints.
// main starts it once; it never returns.
func (s *Server) ReconcileGrants(every time.Duration) {
	for {
		time.Sleep(every) // OK

		rows, err := s.db.Query(`SELECT member_id, reward_id, idempotency_key FROM pending_grants WHERE attempts < 10 ORDER BY created_at LIMIT 50`) // OK
		if err != nil {
			logger.Printf("reconcile: %v", err)
			continue
		}
		type pending struct{ member, reward, key string }
		var todo []pending
		for rows.Next() {
			var p pending
			if err := rows.Scan(&p.member, &p.reward, &p.key); err == nil {
				todo = append(todo, p)
			}
		}
		rows.Close()

		for _, p := range todo {
			_, err := s.rewards.GrantReward(context.Background(), &rewardsv1.GrantRewardRequest{ // BUG: missingdeadline
				MemberId:       p.member,
				RewardId:       p.reward,
				Reason:         "reconcile",
				IdempotencyKey: p.key,
			})
			if err != nil {
				logger.Printf("reconcile %s: %v", p.key, err)
				_, _ = s.db.Exec(`UPDATE pending_grants SET attempts = attempts + 1 WHERE idempotency_key = $1`, p.key)
				continue
			}
			_, _ = s.db.Exec(`DELETE FROM pending_grants WHERE idempotency_key = $1`, p.key)
		}
	}
}
