// Package interceptor holds clients whose connection sets a default deadline in a unary
// client interceptor (not reported), and clients whose interceptors do not (reported).
package interceptor

import (
	"context"
	"log"
	"time"

	"example.com/gen/catalogpb"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/timeout"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// defaultDeadline gives every call without a deadline one of 5s.
func defaultDeadline(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
	}
	return invoker(ctx, method, req, reply, cc, opts...)
}

// withDefault is a factory of the same interceptor.
func withDefault(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); ok {
			return invoker(ctx, method, req, reply, cc, opts...)
		}
		ctx, cancel := context.WithDeadline(ctx, time.Now().Add(d))
		defer cancel()
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

// logging logs and passes the ctx on unchanged.
func logging(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	log.Println("calling", method)
	return invoker(ctx, method, req, reply, cc, opts...)
}

// warnOnly checks for a deadline but only complains.
func warnOnly(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	if _, ok := ctx.Deadline(); !ok {
		log.Println("no deadline for", method)
	}
	return invoker(ctx, method, req, reply, cc, opts...)
}

func creds() grpc.DialOption { return grpc.WithTransportCredentials(insecure.NewCredentials()) }

// dialDefault returns a client on a connection with the default-deadline interceptor.
func dialDefault(addr string) (catalogpb.CatalogClient, error) {
	conn, err := grpc.NewClient(addr, creds(), grpc.WithUnaryInterceptor(defaultDeadline))
	if err != nil {
		return nil, err
	}
	return catalogpb.NewCatalogClient(conn), nil
}

type app struct {
	catalog catalogpb.CatalogClient // default deadline from a chained interceptor
	logged  catalogpb.CatalogClient // logging only
	conn    *grpc.ClientConn        // default deadline, options built up in a slice
}

func newApp() (*app, error) {
	chained, err := grpc.NewClient("catalog:443", creds(), grpc.WithChainUnaryInterceptor(logging, withDefault(time.Second)))
	if err != nil {
		return nil, err
	}
	plain, err := grpc.NewClient("catalog:443", creds(), grpc.WithUnaryInterceptor(logging))
	if err != nil {
		return nil, err
	}
	opts := []grpc.DialOption{creds()}
	opts = append(opts, grpc.WithUnaryInterceptor(defaultDeadline))
	conn, err := grpc.NewClient("catalog:443", opts...)
	if err != nil {
		return nil, err
	}
	return &app{catalog: catalogpb.NewCatalogClient(chained), logged: catalogpb.NewCatalogClient(plain), conn: conn}, nil
}

func (a *app) run() {
	ctx := context.Background()
	_, _ = a.catalog.GetItem(ctx, &catalogpb.GetItemRequest{Id: "1"}) // the interceptor sets a deadline
	_, _ = a.logged.GetItem(ctx, &catalogpb.GetItemRequest{Id: "2"})  // want `RPC CatalogClient.GetItem has no deadline \(ctx from context.Background\(\)`
	_ = a.conn.Invoke(ctx, "/catalog.v1.Catalog/GetItem", nil, nil)   // the interceptor sets a deadline
}

func main() {
	c, err := dialDefault("catalog:443")
	if err != nil {
		log.Fatal(err)
	}
	_, _ = c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "1"}) // the interceptor sets a deadline

	warned, _ := grpc.NewClient("catalog:443", creds(), grpc.WithUnaryInterceptor(warnOnly))
	_ = warned.Invoke(context.Background(), "/catalog.v1.Catalog/GetItem", nil, nil) // want `RPC ClientConn.Invoke has no deadline`

	a, _ := newApp()
	a.run()
	useConn(a.conn)
}

// useConn cannot know how conn was built: it is a parameter.
func useConn(conn *grpc.ClientConn) {
	client := catalogpb.NewCatalogClient(conn)
	_, _ = client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "p"}) // want `RPC CatalogClient.GetItem`
}

// either may return a client without the default.
func either(fast bool) catalogpb.CatalogClient {
	if fast {
		c, _ := dialDefault("catalog:443")
		return c
	}
	conn, _ := grpc.NewClient("catalog:443", creds())
	return catalogpb.NewCatalogClient(conn)
}

func useEither() {
	_, _ = either(true).GetItem(context.Background(), &catalogpb.GetItemRequest{}) // want `RPC CatalogClient.GetItem`
}

// global is assigned once, with the default interceptor.
var global = mustDial()

func mustDial() catalogpb.CatalogClient {
	c, err := dialDefault("catalog:443")
	if err != nil {
		panic(err)
	}
	return c
}

func useGlobal() {
	_, _ = global.GetItem(context.TODO(), &catalogpb.GetItemRequest{}) // the interceptor sets a deadline
}

// captured clients live in variables that closures capture (spilled to an Alloc): the
// closures still see the connection with the default deadline; one reassigns its variable.
func captured() {
	c, _ := dialDefault("catalog:443")
	do := func(id string) {
		_, _ = c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // the interceptor sets a deadline
	}
	do("1")
	_, _ = c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "2"}) // the interceptor sets a deadline

	plain, _ := dialDefault("catalog:443")
	swap := func() {
		conn, _ := grpc.NewClient("catalog:443", creds())
		plain = catalogpb.NewCatalogClient(conn)
	}
	swap()
	_, _ = plain.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "3"}) // want `RPC CatalogClient.GetItem`
}

// always bounds every call, with no Deadline() check: the shorter deadline wins.
func always(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return invoker(ctx, method, req, reply, cc, opts...)
}

// onlyRetries bounds retried calls only, and never looks at the caller's deadline.
func onlyRetries(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	if err := invoker(ctx, method, req, reply, cc, opts...); err == nil {
		return nil
	}
	rctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return invoker(rctx, method, req, reply, cc, opts...)
}

func alwaysBounded() {
	a, _ := grpc.NewClient("catalog:443", creds(), grpc.WithUnaryInterceptor(always))
	_ = a.Invoke(context.Background(), "/catalog.v1.Catalog/GetItem", nil, nil) // the interceptor sets a deadline

	m, _ := grpc.NewClient("catalog:443", creds(), grpc.WithChainUnaryInterceptor(logging, timeout.UnaryClientInterceptor(2*time.Second)))
	_, _ = catalogpb.NewCatalogClient(m).GetItem(context.Background(), &catalogpb.GetItemRequest{}) // go-grpc-middleware's timeout sets a deadline

	r, _ := grpc.NewClient("catalog:443", creds(), grpc.WithUnaryInterceptor(onlyRetries))
	_ = r.Invoke(context.Background(), "/catalog.v1.Catalog/GetItem", nil, nil) // want `RPC ClientConn.Invoke has no deadline`
}

// viaMethodExpression calls a client with a default deadline through a method expression:
// its receiver is the thunk's first argument.
func viaMethodExpression() {
	c, _ := dialDefault("catalog:443")
	_, _ = catalogpb.CatalogClient.GetItem(c, context.Background(), &catalogpb.GetItemRequest{}) // the interceptor sets a deadline
}
