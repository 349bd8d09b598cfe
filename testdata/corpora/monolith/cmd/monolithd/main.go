// Command monolithd runs every API of the monolith in one process: the four gRPC services on
// one listener, the connect notification service on another, and the background jobs.
package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"

	"example.test/acme/fxrates"
	"example.test/acme/geo"
	"example.test/acme/mailer"
	"example.test/monolith/gen/notify/v1/notifyv1connect"
	"example.test/monolith/internal/api/accounts"
	"example.test/monolith/internal/api/catalog"
	"example.test/monolith/internal/api/interceptors"
	"example.test/monolith/internal/api/notify"
	"example.test/monolith/internal/api/orders"
	"example.test/monolith/internal/api/shipping"
	"example.test/monolith/internal/clients/carrierapi"
	"example.test/monolith/internal/clients/notifyclient"
	"example.test/monolith/internal/clients/shippingclient"
	"example.test/monolith/internal/domain/account"
	domcatalog "example.test/monolith/internal/domain/catalog"
	"example.test/monolith/internal/domain/order"
	"example.test/monolith/internal/domain/pricing"
	"example.test/monolith/internal/jobs"
	"example.test/monolith/internal/platform/audit"
	"example.test/monolith/internal/platform/auth"
	"example.test/monolith/internal/platform/cache"
	"example.test/monolith/internal/platform/db"
	"example.test/monolith/internal/platform/events"
	"example.test/monolith/internal/platform/fxcache"
	"example.test/monolith/internal/platform/ratelimit"
	"example.test/monolith/internal/platform/tenant"
	"example.test/monolith/internal/repository/pgrepo"
	"example.test/monolith/internal/service/accountsvc"
	"example.test/monolith/internal/service/catalogsvc"
	"example.test/monolith/internal/service/ordersvc"
	"example.test/monolith/internal/service/shippingsvc"
	"example.test/monolith/pkg/legacy"
)

func main() {
	var (
		grpcAddr   = flag.String("grpc", ":9090", "gRPC listen address")
		httpAddr   = flag.String("http", ":8080", "connect/HTTP listen address")
		dsn        = flag.String("dsn", os.Getenv("DATABASE_URL"), "Postgres DSN")
		redisAddr  = flag.String("redis", "localhost:6379", "Redis address")
		brokers    = flag.String("kafka", "localhost:9092", "comma-separated Kafka brokers")
		shipTarget = flag.String("shipping", "dns:///shipping.internal:9090", "shipping service target")
		notifyURL  = flag.String("notify", "http://localhost:8080", "notification service base URL")
		keysURL    = flag.String("keys", "http://identity.internal/keys", "token signing keys URL")
		warehouse  = flag.String("warehouse", "1011AB", "warehouse postcode")
	)
	flag.Parse()
	log := slog.New(slog.NewJSONHandler(os.Stdout, nil))
	brokerList := strings.Split(*brokers, ",")

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // OK
	defer stop()

	openCtx, cancelOpen := context.WithTimeout(ctx, 10*time.Second) // OK
	database, err := db.Open(openCtx, *dsn, log)
	cancelOpen()
	if err != nil {
		log.Error("database", "err", err)
		os.Exit(1)
	}
	defer database.Close()

	settings := legacy.New(database.SQL, "monolith.")
	if err := settings.Ping(); err != nil { // OK
		log.Error("settings store unreachable", "err", err)
		os.Exit(1)
	}
	rc := cache.New(*redisAddr, "mono:", log)
	defer rc.Close()
	pub := events.NewPublisher(brokerList, "monolith", log)
	defer pub.Close()
	aw := audit.NewWriter(database.SQL, 2*time.Second, log)
	fx := fxrates.New(os.Getenv("FX_URL"), os.Getenv("FX_CLIENT_ID"), os.Getenv("FX_SECRET"))
	fxc := fxcache.New(fx, 10*time.Minute)
	geoClient := geo.New(os.Getenv("GEO_URL"), os.Getenv("GEO_KEY"))

	accountsSrv := accounts.NewServer(accounts.Deps{
		Accounts:   accountsvc.New(account.NewService(database), rc, log),
		Billing:    accountsvc.NewBilling(account.NewLedger(database), settings, fxc.Convert, log),
		DB:         database.SQL,
		Settings:   settings,
		FX:         fx,
		Audit:      aw,
		Events:     pub,
		Log:        log,
		ExportPace: 50 * time.Millisecond,
	})
	defer accountsSrv.Close()

	ship, err := shippingclient.Dial(*shipTarget, "monolith-orders", 3*time.Second)
	if err != nil {
		log.Error("shipping client", "err", err)
		os.Exit(1)
	}
	defer ship.Close()
	ordersSvc := ordersvc.New(order.NewService(database), pub, log)
	ordersSrv := orders.NewServer(ordersSvc, ship, notifyclient.New(*notifyURL), orders.Config{
		WarehousePostcode: *warehouse,
		FraudURL:          os.Getenv("FRAUD_URL"),
		PSPURL:            os.Getenv("PSP_URL"),
		BulkTimeout:       time.Minute,
	}, log)
	defer ordersSrv.Close()

	catalogSvc := catalogsvc.New(domcatalog.NewService(database), rc, pub, log)
	catalogSrv := catalog.NewServer(ctx, catalogSvc, pricing.NewEngine(database), fx, settings, aw,
		catalog.Config{PurgeScript: os.Getenv("PURGE_SCRIPT"), CDNPurgeURL: os.Getenv("CDN_PURGE_URL")}, log)

	carriers := carrierapi.New(os.Getenv("CARRIER_GATEWAY"), os.Getenv("CARRIER_KEY"), []string{"postnl", "dhl", "ups"})
	shippingSrv := shipping.NewServer(ctx,
		shippingsvc.New(pgrepo.NewShipments(database), carriers, geoClient, pub, os.Getenv("LABEL_PRINTER"), *warehouse),
		geoClient, shipping.Config{CarrierTimeout: 4 * time.Second, Country: "NL"}, log)
	defer shipping.StopTracking()

	notifyHandler := notify.NewHandler(ctx, database, mailer.New(os.Getenv("MAIL_RELAY"), "noreply@example.test"),
		settings, jobs.NewOutbox(database.SQL), pub, log)

	limiter := ratelimit.New(20, 40)
	go limiter.Sweep(ctx, time.Minute) // OK
	auditor := interceptors.NewAuditor(aw, log,
		"/accounts.v1.AccountService/CloseAccount",
		"/accounts.v1.AccountService/ChargeAccount",
		"/orders.v1.OrderService/RefundOrder",
		"/catalog.v1.CatalogService/ImportProducts",
	)
	verifier := auth.NewVerifier(*keysURL)
	srv := grpc.NewServer(
		grpc.ChainUnaryInterceptor(
			interceptors.Recover(log),
			interceptors.DeadlineCap(10*time.Second, 30*time.Second),
			interceptors.Tenant(tenant.NewResolver(database.SQL, time.Second)),
			interceptors.Auth(verifier),
			interceptors.RateLimit(limiter),
			auditor.Unary,
		),
		grpc.ChainStreamInterceptor(interceptors.StreamAuth(verifier), auditor.Stream),
	)
	accountsSrv.Register(srv)
	ordersSrv.Register(srv)
	catalogSrv.Register(srv)
	shippingSrv.Register(srv)

	mux := http.NewServeMux()
	mux.Handle(notifyv1connect.NewNotificationServiceHandler(notifyHandler))
	httpSrv := &http.Server{Addr: *httpAddr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}

	go jobs.NewRelay(database.SQL, pub, log).Run(ctx)                               // OK
	go jobs.NewCacheWarmer(database.SQL, catalogSvc, log).Run(context.Background()) // OK
	go func() {
		if err := jobs.NewOrderEventsConsumer(brokerList, ordersSvc, log).Run(ctx); err != nil && !errors.Is(err, context.Canceled) { // OK
			log.Error("order events consumer stopped", "err", err)
		}
	}()

	checkCtx, cancelCheck := context.WithTimeout(ctx, 3*time.Second)           // OK
	if _, err := ship.Quote(checkCtx, *warehouse, *warehouse, 1); err != nil { // OK
		log.Warn("shipping service not answering yet", "err", err)
	}
	cancelCheck()

	lis, err := net.Listen("tcp", *grpcAddr)
	if err != nil {
		log.Error("listen", "err", err)
		os.Exit(1)
	}
	go func() {
		if err := srv.Serve(lis); err != nil {
			log.Error("grpc serve", "err", err)
		}
	}()
	go func() {
		if err := httpSrv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("http serve", "err", err)
		}
	}()
	log.Info("monolithd up", "grpc", *grpcAddr, "http", *httpAddr)

	<-ctx.Done()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second) // OK
	defer cancel()
	if err := httpSrv.Shutdown(shutdownCtx); err != nil {
		log.Warn("http shutdown", "err", err)
	}
	srv.GracefulStop()
}
