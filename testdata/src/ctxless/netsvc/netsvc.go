// Package netsvc holds handlers that reach the network, child processes and the clock without
// the request ctx: net/http, net, os/exec and time.
package netsvc

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

// Proxy implements catalogpb.CatalogServer by calling an HTTP backend.
type Proxy struct {
	catalogpb.UnimplementedCatalogServer
	client  *http.Client
	backend string
}

func (p *Proxy) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	resp, err := http.Get(p.backend + "/items/" + req.GetId()) // want `http.Get in handler Proxy.GetItem cannot be cancelled with the request; use http.NewRequestWithContext\(ctx, \.\.\.\) and Client.Do`
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	if resp, err := http.Head(p.backend); err == nil { // want `http.Head in handler Proxy.GetItem`
		resp.Body.Close()
	}
	if resp, err := http.Post(p.backend, "text/plain", strings.NewReader(req.GetId())); err == nil { // want `http.Post in handler Proxy.GetItem`
		resp.Body.Close()
	}
	if resp, err := http.PostForm(p.backend, url.Values{"id": {req.GetId()}}); err == nil { // want `http.PostForm in handler Proxy.GetItem`
		resp.Body.Close()
	}
	if resp, err := p.client.Get(p.backend); err == nil { // want `Client.Get in handler Proxy.GetItem .*use http.NewRequestWithContext\(ctx, \.\.\.\) and Client.Do`
		resp.Body.Close()
	}
	if resp, err := http.DefaultClient.Head(p.backend); err == nil { // want `Client.Head in handler Proxy.GetItem`
		resp.Body.Close()
	}
	if resp, err := p.client.Post(p.backend, "text/plain", nil); err == nil { // want `Client.Post in handler Proxy.GetItem`
		resp.Body.Close()
	}
	if resp, err := p.client.PostForm(p.backend, nil); err == nil { // want `Client.PostForm in handler Proxy.GetItem`
		resp.Body.Close()
	}
	// The request is reported, not the Do that sends it.
	hreq, err := http.NewRequest(http.MethodGet, p.backend, nil) // want `http.NewRequest in handler Proxy.GetItem cannot be cancelled with the request; use http.NewRequestWithContext\(ctx, \.\.\.\)$`
	if err != nil {
		return nil, err
	}
	resp, err = p.client.Do(hreq)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return &catalogpb.Item{Id: req.GetId(), Name: string(body)}, err
}

// ListItems resolves and dials a backend from a streaming handler.
func (p *Proxy) ListItems(req *catalogpb.ListItemsRequest, stream grpc.ServerStreamingServer[catalogpb.Item]) error {
	addrs, err := net.LookupHost(req.GetCategory()) // want `net.LookupHost in handler Proxy.ListItems cannot be cancelled with the request; use net.DefaultResolver.LookupHost\(stream.Context\(\), \.\.\.\)$`
	if err != nil {
		return err
	}
	ips, _ := net.LookupIP(addrs[0])                               // want `net.LookupIP in handler Proxy.ListItems .*use net.DefaultResolver.LookupIP\(stream.Context\(\), "ip", \.\.\.\)$`
	names, _ := net.LookupAddr(ips[0].String())                    // want `net.LookupAddr in handler`
	cname, _ := net.LookupCNAME(names[0])                          // want `net.LookupCNAME in handler`
	mx, _ := net.LookupMX(cname)                                   // want `net.LookupMX in handler`
	txt, _ := net.LookupTXT(mx[0].Host)                            // want `net.LookupTXT in handler`
	_, srv, _ := net.LookupSRV("grpc", "tcp", txt[0])              // want `net.LookupSRV in handler`
	ns, _ := net.LookupNS(srv[0].Target)                           // want `net.LookupNS in handler`
	port, _ := net.LookupPort("tcp", ns[0].Host)                   // want `net.LookupPort in handler`
	conn, err := net.Dial("tcp", net.JoinHostPort(addrs[0], "80")) // want `net.Dial in handler Proxy.ListItems cannot be cancelled with the request; use \(&net.Dialer\{\}\).DialContext\(stream.Context\(\), \.\.\.\)$`
	if err != nil {
		return err
	}
	conn.Close()
	conn, err = net.DialTimeout("tcp", addrs[0], time.Second) // want `net.DialTimeout in handler Proxy.ListItems .*use \(&net.Dialer\{Timeout: timeout\}\).DialContext\(stream.Context\(\), \.\.\.\)$`
	if err != nil {
		return err
	}
	conn.Close()
	d := &net.Dialer{Timeout: time.Second}
	if conn, err := d.Dial("tcp", addrs[0]); err == nil { // want `Dialer.Dial in handler Proxy.ListItems .*use DialContext\(stream.Context\(\), \.\.\.\)$`
		conn.Close()
	}
	return stream.Send(&catalogpb.Item{Id: addrs[0], Name: string(rune(port))})
}

// UploadItems shells out and backs off between retries.
func (p *Proxy) UploadItems(stream grpc.ClientStreamingServer[catalogpb.Item, catalogpb.UploadSummary]) error {
	for attempt := 0; attempt < 3; attempt++ {
		out, err := exec.Command("convert", "--in", "items.csv").Output() // want `exec.Command in handler Proxy.UploadItems cannot be cancelled with the request; use exec.CommandContext\(stream.Context\(\), \.\.\.\)$`
		if err == nil {
			return stream.SendAndClose(&catalogpb.UploadSummary{Count: int32(len(out))})
		}
		time.Sleep(100 * time.Millisecond) // want `time.Sleep in handler Proxy.UploadItems keeps the loop sleeping after the request is cancelled; use a select on stream.Context\(\).Done\(\) and a time.Timer$`
	}
	return nil
}

// goodProxy passes the request ctx to every call that can take one: nothing to report.
type goodProxy struct {
	catalogpb.UnimplementedCatalogServer
	client  *http.Client
	backend string
}

func (p *goodProxy) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, p.backend, nil)
	if err != nil {
		return nil, err
	}
	resp, err := p.client.Do(hreq)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	addrs, err := net.DefaultResolver.LookupHost(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addrs[0])
	if err != nil {
		return nil, err
	}
	conn.Close()
	if err := exec.CommandContext(ctx, "true").Run(); err != nil {
		return nil, err
	}
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// authUnary is a server interceptor: a request scope too.
func authUnary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	resp, err := http.PostForm("http://auth/check", url.Values{"method": {info.FullMethod}}) // want `http.PostForm in interceptor authUnary`
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return handler(ctx, req)
}

// indexAll is a queue consumer marked as a request scope.
//
//deadlinelint:scope
func indexAll(ctx context.Context, dir string) error {
	return exec.Command("indexer", dir).Run() // want `exec.Command in request scope indexAll .*use exec.CommandContext\(ctx, \.\.\.\)`
}

// warmUp, main-like setup and background loops are not request scopes.
func warmUp(backend string) {
	if resp, err := http.Get(backend); err == nil {
		resp.Body.Close()
	}
	_, _ = net.LookupHost("localhost")
	_ = exec.Command("true").Run()
	time.Sleep(time.Second)
}

func (p *Proxy) pollForever() {
	for {
		if resp, err := p.client.Get(p.backend); err == nil {
			resp.Body.Close()
		}
		time.Sleep(time.Minute)
	}
}
