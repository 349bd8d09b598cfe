// Command migrate-ledger backfills the ledger service from billing's invoice
// history, one account at a time, and cleans up the reservations of void
// invoices that the old billing system never released.
//
//	migrate-ledger -accounts accounts.txt [-since 2019-01-01] [-parallel 8]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	billingv1 "example.test/clients/gen/billing/v1"
	inventoryv1 "example.test/clients/gen/inventory/v1"
	ledgerv1 "example.test/clients/gen/ledger/v1"
	"example.test/clients/pkg/sdk"
)

type config struct {
	ledgerAddr, inventoryAddr, inventoryAdminAddr string
	billingAddr, jobsAddr                         string
	accountsFile                                  string
	since                                         string
	parallel                                      int
	accountTimeout                                time.Duration
}

func main() {
	var cfg config
	flag.StringVar(&cfg.ledgerAddr, "ledger", "dns:///ledger.internal:7600", "ledger service address")
	flag.StringVar(&cfg.inventoryAddr, "inventory", "dns:///inventory.internal:8443", "inventory service address")
	flag.StringVar(&cfg.inventoryAdminAddr, "inventory-admin", "", "inventory admin endpoint (default: same as -inventory)")
	flag.StringVar(&cfg.billingAddr, "billing", "dns:///billing.internal:8443", "billing service address")
	flag.StringVar(&cfg.jobsAddr, "jobs", "dns:///jobs.internal:8443", "job queue address")
	flag.StringVar(&cfg.accountsFile, "accounts", "", "file with one account ID per line")
	flag.StringVar(&cfg.since, "since", "", "only migrate invoices since this date (YYYY-MM-DD)")
	flag.IntVar(&cfg.parallel, "parallel", 8, "accounts migrated at once")
	flag.DurationVar(&cfg.accountTimeout, "account-timeout", 0, "budget per account for the reservation clean-up (0: none)")
	flag.Parse()

	if err := run(cfg); err != nil {
		slog.Error("migration failed", "err", err)
		os.Exit(1)
	}
}

// withDefaultTimeout bounds unary calls that carry no deadline of their own.
func withDefaultTimeout(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

func run(cfg config) error {
	accounts, err := readAccounts(cfg.accountsFile)
	if err != nil {
		return err
	}
	var since time.Time
	if cfg.since != "" {
		if since, err = time.Parse(time.DateOnly, cfg.since); err != nil {
			return fmt.Errorf("-since: %w", err)
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt) // OK
	defer stop()

	ledgerConn, err := grpc.NewClient(cfg.ledgerAddr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(withDefaultTimeout(20*time.Second)),
	)
	if err != nil {
		return err
	}
	defer ledgerConn.Close()
	ledger := ledgerv1.NewLedgerSyncClient(ledgerConn)

	invConn, err := grpc.NewClient(cfg.inventoryAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer invConn.Close()
	inventory := inventoryv1.NewInventoryServiceClient(invConn)

	admin, closeAdmin, err := dialAdmin(invConn, cfg.inventoryAdminAddr)
	if err != nil {
		return err
	}
	defer closeAdmin()

	client, err := sdk.New(sdk.Config{
		BillingAddr:   cfg.billingAddr,
		InventoryAddr: cfg.inventoryAddr,
		JobsAddr:      cfg.jobsAddr,
		UserAgent:     "migrate-ledger",
	})
	if err != nil {
		return err
	}
	defer client.Close()

	// Preflight: both services must answer before we start writing.
	if _, err := ledger.SyncAccount(ctx, &ledgerv1.SyncAccountRequest{AccountId: accounts[0]}); err != nil { // OK
		return fmt.Errorf("preflight ledger: %w", err)
	}
	if _, err := inventory.GetItem(ctx, &inventoryv1.GetItemRequest{Sku: "PREFLIGHT"}); status.Code(err) == codes.Unavailable { // BUG: missingdeadline
		return fmt.Errorf("preflight inventory: %w", err)
	}

	var (
		mu   sync.Mutex
		done []string
	)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(cfg.parallel)
	for _, acct := range accounts {
		g.Go(func() error {
			push, err := ledger.PushEntries(gctx) // OK
			if err != nil {
				return err
			}
			var voidReservations []string
			err = client.ListInvoices(gctx, acct, since, func(inv *billingv1.Invoice) error { // OK
				if inv.GetStatus() == "void" {
					voidReservations = append(voidReservations, inv.GetReservationIds()...)
				}
				return push.Send(&ledgerv1.LedgerEntry{
					EntryId:     "inv-" + inv.GetInvoiceId(),
					AccountId:   acct,
					AmountCents: inv.GetAmountDueCents(),
					Source:      "migration",
				})
			})
			if err != nil {
				return fmt.Errorf("account %s: %w", acct, err)
			}
			sum, err := push.CloseAndRecv()
			if err != nil {
				return fmt.Errorf("account %s: %w", acct, err)
			}

			cleanupCtx := gctx
			if cfg.accountTimeout > 0 {
				var cancel context.CancelFunc
				cleanupCtx, cancel = context.WithTimeout(gctx, cfg.accountTimeout)
				defer cancel()
			}
			for _, rid := range voidReservations {
				_, err := inventory.ReleaseStock(cleanupCtx, &inventoryv1.ReleaseStockRequest{ReservationId: rid}) // OK: the deadline is the user's -timeout flag, applied when set (precision issue)
				if err != nil && status.Code(err) != codes.NotFound {
					return fmt.Errorf("account %s: release %s: %w", acct, rid, err)
				}
			}

			if _, err := ledger.SyncAccount(gctx, &ledgerv1.SyncAccountRequest{AccountId: acct, Force: true}); err != nil { // OK
				return fmt.Errorf("account %s: sync: %w", acct, err)
			}
			slog.Info("account migrated", "account", acct, "accepted", sum.GetAccepted(), "duplicates", sum.GetDuplicates(), "released", len(voidReservations))
			mu.Lock()
			done = append(done, acct)
			mu.Unlock()
			return nil
		})
	}
	werr := g.Wait()

	// Record how far we got even when interrupted, so that a rerun resumes
	// instead of starting over.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second) // OK
	defer cancel()
	if err := writeCheckpoint(cctx, ledgerConn, done); err != nil { // OK
		slog.Warn("checkpoint not written", "err", err)
	}
	if werr != nil {
		return werr
	}

	// The void reservations are gone; have inventory rebuild its index.
	if err := admin.Invoke(ctx, "/inventory.v1.InventoryAdmin/RebuildReservationIndex", &emptypb.Empty{}, &emptypb.Empty{}); err != nil { // OK: the same ctx, on the same path, as the finding at main.go:130, which lists this call (one finding per ctx, precision issue)
		return fmt.Errorf("rebuild index: %w", err)
	}
	slog.Info("migration complete", "accounts", len(done))
	return nil
}

// writeCheckpoint stores the list of migrated accounts on the ledger side.
func writeCheckpoint(ctx context.Context, cc grpc.ClientConnInterface, accounts []string) error {
	b, err := json.Marshal(accounts)
	if err != nil {
		return err
	}
	return cc.Invoke(ctx, "/ledger.v1.LedgerAdmin/SaveCheckpoint", wrapperspb.String(string(b)), &emptypb.Empty{}) // OK
}

// dialAdmin returns the connection for inventory's admin API: the main
// connection unless a separate admin endpoint is configured.
func dialAdmin(main *grpc.ClientConn, addr string) (grpc.ClientConnInterface, func(), error) {
	if addr == "" {
		return main, func() {}, nil
	}
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, nil, fmt.Errorf("dial inventory admin: %w", err)
	}
	return cc, func() { cc.Close() }, nil
}

func readAccounts(path string) ([]string, error) {
	if path == "" {
		return nil, errors.New("-accounts is required")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return scanIDs(f)
}

func scanIDs(r io.Reader) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if id := strings.TrimSpace(sc.Text()); id != "" && !strings.HasPrefix(id, "#") {
			out = append(out, id)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no accounts to migrate")
	}
	return out, nil
}
