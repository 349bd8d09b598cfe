// Package queue consumes key-rotation requests from the work queue.
package queue

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"example.test/torture/internal/store"
)

// Message is one queued rotation request.
type Message struct {
	SecretID string `json:"secret_id"`
	KeyID    string `json:"key_id"`
	Deadline int64  `json:"deadline_unix"`
}

// Source yields raw queue messages.
type Source interface {
	Next(ctx context.Context) ([]byte, error)
	Ack(ctx context.Context, raw []byte) error
}

// Consumer processes rotation messages.
type Consumer struct {
	src     Source
	repo    *store.Repo
	log     *slog.Logger
	backoff time.Duration
}

// NewConsumer returns a consumer reading src.
func NewConsumer(src Source, repo *store.Repo, log *slog.Logger) *Consumer {
	return &Consumer{src: src, repo: repo, log: log, backoff: 250 * time.Millisecond}
}

// Run reads messages until ctx is done. Each message is handled under its own
// deadline, taken from the message.
func (c *Consumer) Run(ctx context.Context) error {
	for {
		raw, err := c.src.Next(ctx)
		if errors.Is(err, context.Canceled) {
			return nil
		}
		if err != nil {
			c.log.Warn("queue next", "err", err)
			time.Sleep(c.backoff) // OK
			continue
		}
		var msg Message
		if err := json.Unmarshal(raw, &msg); err != nil {
			c.log.Warn("bad message", "err", err)
			continue
		}
		mctx, cancel := context.WithDeadline(ctx, time.Unix(msg.Deadline, 0))
		if err := c.Handle(mctx, msg); err != nil {
			c.log.Warn("handle", "id", msg.SecretID, "err", err)
		}
		_ = c.src.Ack(mctx, raw)
		cancel()
	}
}

// Handle applies one rotation message. It runs on behalf of the producer
// that queued the message and honours the message's deadline.
//
//deadlinelint:scope
func (c *Consumer) Handle(ctx context.Context, msg Message) error {
	for attempt := 0; ; attempt++ {
		sec, err := c.repo.LoadSecret(ctx, msg.SecretID) // OK
		if err != nil {
			return err
		}
		sec.KeyID = msg.KeyID
		_, err = c.repo.SaveSecret(ctx, sec) // OK
		if !errors.Is(err, store.ErrStale) || attempt == 2 {
			return err
		}
		time.Sleep(c.backoff) // BUG: ctxless
	}
}
