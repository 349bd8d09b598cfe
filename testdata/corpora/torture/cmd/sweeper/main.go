// Command sweeper is the nightly job: it reconciles ledger accounts, compacts
// tenants and reports the result to the ops channel.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	ledgerv1 "example.test/torture/gen/ledger/v1"
	notifyv1 "example.test/torture/gen/notify/v1"
	"example.test/torture/gen/notify/v1/notifyv1connect"
	"example.test/torture/internal/clients/vaultclient"
	"example.test/torture/internal/ctxkit"
)

const maxBatch = 200

type runIDKey struct{}

// reconcileBatch reconciles accounts, splitting large sets in halves.
func reconcileBatch(ctx context.Context, lc ledgerv1.LedgerServiceClient, accounts []string) (int32, error) {
	if len(accounts) > maxBatch {
		mid := len(accounts) / 2
		a, err := reconcileBatch(ctx, lc, accounts[:mid]) // OK
		if err != nil {
			return a, err
		}
		b, err := reconcileBatch(ctx, lc, accounts[mid:]) // OK
		return a + b, err
	}
	resp, err := lc.Reconcile(ctx, &ledgerv1.ReconcileRequest{Accounts: accounts}) // OK
	if err != nil {
		return 0, err
	}
	return resp.GetMismatches(), nil
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
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out, sc.Err()
}

func main() {
	ledgerAddr := flag.String("ledger", "localhost:7443", "ledger address")
	vaultAddr := flag.String("vault", "localhost:7443", "vault address")
	notifyURL := flag.String("notify", "http://localhost:7080", "notify base URL")
	accountsFile := flag.String("accounts", "/etc/sweeper/accounts", "accounts to reconcile")
	tenantsFile := flag.String("tenants", "/etc/sweeper/tenants", "tenants to compact")
	flag.Parse()

	ctx, cancel := context.WithCancel(context.Background()) // OK
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, os.Interrupt)
	go func() {
		<-sigs
		cancel()
	}()
	runID := time.Now().UTC().Format("20060102T150405")

	ledgerConn, err := grpc.NewClient(*ledgerAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer ledgerConn.Close()
	vaultConn, err := grpc.NewClient(*vaultAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer vaultConn.Close()
	lc := ledgerv1.NewLedgerServiceClient(ledgerConn)
	vc := vaultclient.New(vaultConn)
	nc := notifyv1connect.NewNotifyServiceClient(http.DefaultClient, *notifyURL)

	accounts, err := readLines(*accountsFile)
	if err != nil {
		log.Fatal(err)
	}
	var report strings.Builder
	if len(accounts) > 0 {
		mismatches, err := reconcileBatch(ctx, lc, accounts) // BUG: missingdeadline
		if err != nil {
			log.Printf("reconcile: %v", err)
		}
		fmt.Fprintf(&report, "reconcile: %d accounts, %d mismatches\n", len(accounts), mismatches)

		first, err := ledgerv1.LedgerServiceClient.Balance(lc, ctx, &ledgerv1.BalanceRequest{Account: accounts[0]}) // OK: the same ctx, on the same path, as the finding at main.go:105, which lists this call (one finding per ctx, precision issue)
		if err == nil {
			fmt.Fprintf(&report, "spot check %s: %d\n", accounts[0], first.GetBalanceCents())
		}
	}

	tenants, err := readLines(*tenantsFile)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tenants {
		n, err := vc.Compact(ctx, t) // OK
		if err != nil {
			log.Printf("compact %s: %v", t, err)
			continue
		}
		fmt.Fprintf(&report, "compact %s: %d removed\n", t, n)
	}

	storage, err := ctxkit.WithBudget(30*time.Second, func(bctx context.Context) (*ledgerv1.BalanceResponse, error) {
		return lc.Balance(bctx, &ledgerv1.BalanceRequest{Account: "vault:storage"}) // OK
	})
	if err == nil {
		fmt.Fprintf(&report, "storage balance: %d\n", storage.GetBalanceCents())
	}

	nctx := context.WithValue(ctx, runIDKey{}, runID)
	if _, err := nc.Send(nctx, connect.NewRequest(&notifyv1.SendRequest{Tenant: "ops", Channel: "nightly", Body: report.String()})); err != nil { // BUG: missingdeadline
		log.Printf("report: %v", err)
	}
}
