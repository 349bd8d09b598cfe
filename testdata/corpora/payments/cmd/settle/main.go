// Command settle is the nightly settlement job: it sweeps merchant balances
// to their payout accounts, checks disputed payments, closes the business day
// and exports the day's entries for accounting.
package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	ledgerv1 "example.test/payments/gen/ledger/v1"
	paymentsv1 "example.test/payments/gen/payments/v1"
	"example.test/payments/internal/payclient"
)

type account struct {
	merchant string
	ledgerID string
	payoutID string
	currency string
}

func main() {
	var (
		addr         = flag.String("addr", "localhost:8443", "payments/ledger API address")
		accountsFile = flag.String("accounts", "/etc/settle/accounts.csv", "merchant,ledger_account,payout_account,currency")
		disputedFile = flag.String("disputed", "", "file with one disputed payment id per line")
		dateFlag     = flag.String("date", "", "business date to settle (default: yesterday, UTC)")
		exportPath   = flag.String("export", "entries.csv", "where to write the day's entries")
	)
	flag.Parse()

	date := *dateFlag
	if date == "" {
		date = time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK
	defer stop()
	ctx = metadata.AppendToOutgoingContext(ctx, "x-job", "settle", "x-business-date", date)

	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatalf("dial: %v", err)
	}
	defer conn.Close()
	lc := ledgerv1.NewLedgerServiceClient(conn)
	pc := payclient.New(paymentsv1.NewPaymentServiceClient(conn), 10*time.Second)

	accounts, err := loadAccounts(*accountsFile)
	if err != nil {
		log.Fatal(err)
	}
	var failed int
	for _, a := range accounts {
		if err := settleAccount(ctx, lc, a, date); err != nil { // OK
			log.Printf("settle %s: %v", a.merchant, err)
			failed++
		}
	}

	if *disputedFile != "" {
		ids, err := readLines(*disputedFile)
		if err != nil {
			log.Fatal(err)
		}
		for _, id := range ids {
			p, err := pc.Get(ctx, id) // BUG: missingdeadline
			if err != nil {
				log.Printf("disputed payment %s: %v", id, err)
				continue
			}
			if p.GetStatus() == paymentsv1.PaymentStatus_PAYMENT_STATUS_CAPTURED {
				log.Printf("disputed payment %s is still captured; held from today's payout", id)
			}
		}
	}

	closed, err := lc.CloseDay(ctx, &ledgerv1.CloseDayRequest{BusinessDate: date}) // BUG: missingdeadline
	if err != nil {
		log.Fatalf("close day %s: %v", date, err)
	}
	log.Printf("closed %s: %d entries", date, closed.GetEntriesClosed())

	if err := exportEntries(ctx, lc, date, *exportPath); err != nil {
		log.Fatalf("export: %v", err)
	}
	if failed > 0 {
		log.Printf("%d accounts failed to settle", failed)
		os.Exit(1)
	}
}

// settleAccount sweeps one merchant's available balance to its payout account.
func settleAccount(ctx context.Context, lc ledgerv1.LedgerServiceClient, a account, date string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	b, err := lc.GetBalance(ctx, &ledgerv1.GetBalanceRequest{AccountId: a.ledgerID}) // OK
	if err != nil {
		return err
	}
	if b.GetAvailableMinor() <= 0 {
		return nil
	}
	_, err = lc.PostTransfer(ctx, &ledgerv1.PostTransferRequest{ // OK
		FromAccount: a.ledgerID,
		ToAccount:   a.payoutID,
		Currency:    a.currency,
		AmountMinor: b.GetAvailableMinor(),
		Reference:   "payout:" + a.merchant + ":" + date,
	})
	return err
}

// exportEntries streams the day's entries into a CSV file.
func exportEntries(ctx context.Context, lc ledgerv1.LedgerServiceClient, date, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := csv.NewWriter(f)
	stream, err := lc.ListEntries(ctx, &ledgerv1.ListEntriesRequest{BusinessDate: date}) // OK
	if err != nil {
		return err
	}
	for {
		e, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := w.Write([]string{e.GetId(), e.GetAccountId(), e.GetCurrency(),
			fmt.Sprint(e.GetAmountMinor()), e.GetReference(), e.GetPostedAt().AsTime().Format(time.RFC3339)}); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

func loadAccounts(path string) ([]account, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []account
	for _, r := range recs {
		if len(r) != 4 || r[0] == "merchant" {
			continue
		}
		out = append(out, account{merchant: r[0], ledgerID: r[1], payoutID: r[2], currency: r[3]})
	}
	return out, nil
}

func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out, sc.Err()
}
