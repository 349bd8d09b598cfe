// Command invoice-reminder runs nightly: it reminds the owners of overdue
// invoices, escalates the old ones to dunning, and suspends accounts that
// are far behind.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc/metadata"

	billingv1 "example.test/clients/gen/billing/v1"
	notifyv1 "example.test/clients/gen/notify/v1"
	"example.test/clients/gen/notify/v1/notifyv1connect"
	"example.test/clients/internal/ops"
	"example.test/clients/pkg/sdk"
)

type runIDKey struct{}

type config struct {
	billingAddr, inventoryAddr, jobsAddr string
	notifyURL                            string
	graceDays, dunningDays, suspendDays  int
	dryRun                               bool
}

func main() {
	var cfg config
	flag.StringVar(&cfg.billingAddr, "billing", "dns:///billing.internal:8443", "billing service address")
	flag.StringVar(&cfg.inventoryAddr, "inventory", "dns:///inventory.internal:8443", "inventory service address")
	flag.StringVar(&cfg.jobsAddr, "jobs", "dns:///jobs.internal:8443", "job queue address")
	flag.StringVar(&cfg.notifyURL, "notify", "https://notify.internal", "notifier base URL")
	flag.IntVar(&cfg.graceDays, "grace-days", 3, "days after the due date before the first reminder")
	flag.IntVar(&cfg.dunningDays, "dunning-days", 30, "days overdue before dunning")
	flag.IntVar(&cfg.suspendDays, "suspend-days", 90, "days overdue before the account is suspended")
	flag.BoolVar(&cfg.dryRun, "dry-run", false, "log what would be done")
	flag.Parse()

	if err := run(cfg); err != nil {
		slog.Error("invoice-reminder failed", "err", err)
		os.Exit(1)
	}
}

type stats struct {
	Reminded, Escalated, Suspended, Failed int
}

func run(cfg config) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt) // OK
	defer stop()
	runID := time.Now().UTC().Format("20060102T150405")
	ctx = context.WithValue(ctx, runIDKey{}, runID)

	client, err := sdk.New(sdk.Config{
		BillingAddr:    cfg.billingAddr,
		InventoryAddr:  cfg.inventoryAddr,
		JobsAddr:       cfg.jobsAddr,
		UserAgent:      "invoice-reminder",
		DefaultTimeout: 20 * time.Second,
	})
	if err != nil {
		return err
	}
	defer client.Close()
	notifier := notifyv1connect.NewNotifierServiceClient(http.DefaultClient, cfg.notifyURL)

	now := time.Now()
	cutoff := now.AddDate(0, 0, -cfg.graceDays)
	var st stats
	token := ""
	for {
		lctx, cancel := context.WithTimeout(ctx, time.Minute)
		page, err := client.ListOverdue(lctx, cutoff, token) // OK
		cancel()
		if err != nil {
			return err
		}
		for _, inv := range page.Invoices {
			age := int(now.Sub(inv.GetDueAt().AsTime()).Hours() / 24)
			if cfg.dryRun {
				slog.Info("would remind", "invoice", inv.GetInvoiceId(), "days", age)
				continue
			}
			switch {
			case age >= cfg.suspendDays:
				// Re-read the invoice: it may have been paid since the page was listed.
				// (No deadline here, but the billing connection is dialed by the SDK's
				// transport package with an interceptor that applies a default one.)
				fresh, err := client.GetInvoice(ctx, inv.GetInvoiceId()) // OK?
				if err != nil || fresh.GetStatus() == "paid" {
					continue
				}
				if _, err := ops.SuspendAccount(ctx, client, inv.GetAccountId(), "dunning: "+inv.GetInvoiceId()); err != nil { // OK: the same ctx, on the same path, as the finding at main.go:100, which lists this call (one finding per ctx, precision issue)
					slog.Warn("suspend failed", "account", inv.GetAccountId(), "err", err)
					st.Failed++
					continue
				}
				st.Suspended++
			case age >= cfg.dunningDays:
				if err := escalate(client, inv); err != nil {
					slog.Warn("dunning failed", "invoice", inv.GetInvoiceId(), "err", err)
					st.Failed++
					continue
				}
				st.Escalated++
			default:
				_, err := notifier.SendReminder(ctx, connect.NewRequest(&notifyv1.SendReminderRequest{ // BUG: missingdeadline
					AccountId:      inv.GetAccountId(),
					InvoiceId:      inv.GetInvoiceId(),
					Template:       "invoice-overdue",
					AmountDueCents: inv.GetAmountDueCents(),
				}))
				if err != nil {
					slog.Warn("reminder failed", "invoice", inv.GetInvoiceId(), "err", err)
					st.Failed++
					continue
				}
				st.Reminded++
			}
		}
		if page.NextToken == "" {
			break
		}
		token = page.NextToken
	}

	sctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if _, err := notifier.SendSummary(sctx, connect.NewRequest(&notifyv1.SendSummaryRequest{ // OK
		Job:    "invoice-reminder/" + runID,
		Sent:   int32(st.Reminded + st.Escalated),
		Failed: int32(st.Failed),
	})); err != nil {
		slog.Warn("summary not sent", "err", err)
	}

	if err := writeRunMarker(ctx, client, runID, st); err != nil {
		slog.Warn("run marker not written", "err", err)
	}
	if err := client.FlushUsage(int64(st.Reminded + st.Escalated + st.Suspended)); err != nil { // OK
		slog.Warn("usage not reported", "err", err)
	}
	slog.Info("done", "reminded", st.Reminded, "escalated", st.Escalated, "suspended", st.Suspended, "failed", st.Failed)
	return nil
}

// escalate hands an invoice over to the dunning workflow.
func escalate(client *sdk.Client, inv *billingv1.Invoice) error {
	payload, err := json.Marshal(map[string]string{"invoice_id": inv.GetInvoiceId(), "account_id": inv.GetAccountId()})
	if err != nil {
		return err
	}
	ctx := metadata.NewOutgoingContext(context.Background(), metadata.Pairs("x-origin", "invoice-reminder"))
	_, err = client.EnqueueJob(ctx, "dunning", payload) // BUG: missingdeadline
	return err
}

// writeRunMarker records that tonight's run finished, so the next run and
// the on-call dashboard can tell a crashed run from a completed one.
func writeRunMarker(ctx context.Context, client *sdk.Client, runID string, st stats) error {
	payload, err := json.Marshal(struct {
		RunID string `json:"run_id"`
		stats
	}{runID, st})
	if err != nil {
		return err
	}
	mctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	// ^BUG: detach
	defer cancel()
	if _, err := client.EnqueueJob(mctx, "reminder-run-finished", payload); err != nil { // OK
		return fmt.Errorf("run marker: %w", err)
	}
	return nil
}
