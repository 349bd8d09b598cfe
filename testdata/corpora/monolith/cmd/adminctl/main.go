// Command adminctl is the operator CLI for the monolith's gRPC and connect APIs.
//
//	adminctl [-addr host:port] [-timeout 10s] <command> [args]
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"

	accountsv1 "example.test/monolith/gen/accounts/v1"
	catalogv1 "example.test/monolith/gen/catalog/v1"
	ordersv1 "example.test/monolith/gen/orders/v1"
	"example.test/monolith/internal/clients/notifyclient"
	"example.test/monolith/internal/clients/shippingclient"
	"example.test/monolith/internal/platform/grpcx"
)

type clients struct {
	conn     *grpc.ClientConn
	accounts accountsv1.AccountServiceClient
	orders   ordersv1.OrderServiceClient
	catalog  catalogv1.CatalogServiceClient
	ship     *shippingclient.Client
	notify   *notifyclient.Client
	timeout  time.Duration
}

const usage = `usage: adminctl [flags] <command> [args]

commands:
  account <id>                    show a profile
  charge <id> <amount> <ccy> <key> book a charge
  export <id> <year>              download statements as CSV
  orders <account>                list orders
  cancel-order <id> [reason]      cancel an order
  shipment <id>                   show a shipment
  shipment-status <id> [-v]       show the status of a shipment
  notify <account> <template> [k=v...]  send a notification
  watch <account>                 follow notifications
  import <file.tsv>               import products
  raw <method> <json>             invoke any unary method
`

func main() {
	addr := flag.String("addr", "localhost:9090", "gRPC address of monolithd")
	notifyURL := flag.String("notify", "http://localhost:8080", "notification service base URL")
	timeout := flag.Duration("timeout", 10*time.Second, "per-call timeout; 0 disables it where supported")
	flag.Usage = func() { fmt.Fprint(os.Stderr, usage) }
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 {
		flag.Usage()
		os.Exit(2)
	}

	conn, err := grpcx.Dial(*addr, "adminctl")
	if err != nil {
		fmt.Fprintln(os.Stderr, "dial:", err)
		os.Exit(1)
	}
	defer conn.Close()
	cl := &clients{
		conn:     conn,
		accounts: accountsv1.NewAccountServiceClient(conn),
		orders:   ordersv1.NewOrderServiceClient(conn),
		catalog:  catalogv1.NewCatalogServiceClient(conn),
		ship:     shippingclient.New(conn, *timeout),
		notify:   notifyclient.New(*notifyURL),
		timeout:  *timeout,
	}

	cmd, rest := args[0], args[1:]
	switch cmd {
	case "account":
		err = cmdAccount(cl, rest)
	case "charge":
		err = cmdCharge(cl, rest)
	case "export":
		err = cmdExport(cl, rest)
	case "orders":
		err = cmdOrders(cl, rest)
	case "cancel-order":
		err = cmdCancelOrder(cl, rest)
	case "shipment":
		err = cmdShipment(cl, rest)
	case "shipment-status":
		err = cmdShipmentStatus(cl, rest)
	case "notify":
		err = cmdNotify(cl, rest)
	case "watch":
		err = cmdWatch(cl, rest)
	case "import":
		err = cmdImport(cl, rest)
	case "raw":
		err = cmdRaw(cl, rest)
	default:
		err = fmt.Errorf("unknown command %q", cmd)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "adminctl %s: %v\n", cmd, err)
		os.Exit(1)
	}
}

func need(args []string, n int, what string) error {
	if len(args) < n {
		return fmt.Errorf("want %s", what)
	}
	return nil
}

// parseVars turns k=v arguments into a map.
func parseVars(args []string) (map[string]string, error) {
	vars := make(map[string]string, len(args))
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("bad variable %q, want key=value", a)
		}
		vars[k] = v
	}
	return vars, nil
}
