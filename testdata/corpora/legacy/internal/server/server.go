// Package server implements loyalty.v1.LoyaltyService.
package server

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	loyaltyv1 "example.test/legacy/gen/loyalty/v1"
	rewardsv1 "example.test/legacy/gen/rewards/v1"
	"example.test/legacy/internal/db"
	"example.test/legacy/internal/store"
	"example.test/legacy/internal/util"
)

var (
	appCtx     = context.Background()
	logger     = log.New(os.Stderr, "[loyalty] ", log.LstdFlags|log.Lshortfile)
	httpClient = &http.Client{Timeout: 10 * time.Second}

	referralURL = "http://marketing.internal/referrals"
	docStoreURL = "http://docstore.internal"
	mailerURL   = "http://mailer.internal/v1/send"
	fraudURL    = "http://fraud.internal/v2/score"
	financeURL  = "http://finance.internal/adjustments"
	relayHost   = "mailer.internal"
	relayAddrs  []string

	welcomeRewardID = "welcome-coffee"
)

func init() {
	if v := os.Getenv("REFERRAL_URL"); v != "" {
		referralURL = v
	}
	if v := os.Getenv("DOCSTORE_URL"); v != "" {
		docStoreURL = v
	}
	if v := os.Getenv("MAIL_RELAY_HOST"); v != "" {
		relayHost = v
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // OK
	defer cancel()
	addrs, err := net.DefaultResolver.LookupHost(ctx, relayHost)
	if err != nil {
		logger.Printf("mail relay %s not resolvable yet: %v", relayHost, err)
	}
	relayAddrs = addrs
}

// MemberStore is what the handlers need from the member repository.
type MemberStore interface {
	Load(ctx context.Context, id string) (*db.MemberRow, error)
	SetStatus(ctx context.Context, id, status string) error
}

// Server is the LoyaltyService implementation.
type Server struct {
	loyaltyv1.UnimplementedLoyaltyServiceServer

	db      *sql.DB
	rewards rewardsv1.RewardsServiceClient
	dir     *util.StoreDirectory
	store   MemberStore
	tierFn  func(memberID string) (string, error)

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// NewServer wires the handlers to their dependencies and starts the outbox flusher.
func NewServer(database *sql.DB, rc rewardsv1.RewardsServiceClient) *Server {
	ctx, cancel := context.WithCancel(context.Background()) // OK
	s := &Server{
		db:      database,
		rewards: rc,
		dir:     util.NewStoreDirectory(os.Getenv("PARTNER_API_URL")),
		store:   store.NewPG(database),
		tierFn:  util.TierFromHistory,
		ctx:     ctx,
		cancel:  cancel,
	}
	s.wg.Add(1)
	go s.flushOutbox(ctx)
	return s
}

// Close stops the background work.
func (s *Server) Close() {
	s.cancel()
	s.wg.Wait()
}

// baseContext is the context cache maintenance runs under.
func baseContext() context.Context { return appCtx }

func (s *Server) lookupTier(memberID string) (string, error) {
	var tier string
	err := s.db.QueryRowContext(context.Background(), `SELECT tier FROM members WHERE id = $1`, memberID).Scan(&tier)
	if err != nil {
		return "", fmt.Errorf("tier of %s: %w", memberID, err)
	}
	return tier, nil
}

func newID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
