package plugin

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"google.golang.org/grpc"
)

// Catalog knows the driver plugins installed on this host. It launches and
// handshakes all of them the first time any is asked for.
type Catalog struct {
	dir     string
	dial    func(ctx context.Context, target string) (*grpc.ClientConn, error)
	once    sync.Once
	drivers map[string]*GRPCDriver
	loadErr error
}

func NewCatalog(dir string, dial func(ctx context.Context, target string) (*grpc.ClientConn, error)) *Catalog {
	return &Catalog{dir: dir, dial: dial}
}

func (c *Catalog) load() {
	c.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c.drivers = map[string]*GRPCDriver{}
		for _, name := range []string{"exec", "docker", "qemu"} {
			conn, err := c.dial(ctx, "unix://"+c.dir+"/"+name+".sock")
			if err != nil {
				continue
			}
			d := NewGRPCDriver(name, conn)
			if _, err := d.Handshake(ctx); err != nil {
				c.loadErr = err
				continue
			}
			c.drivers[name] = d
		}
	})
}

// Get returns the named driver.
func (c *Catalog) Get(ctx context.Context, name string) (Driver, error) {
	c.load()
	d, ok := c.drivers[name]
	if !ok {
		return nil, fmt.Errorf("driver %q not installed (load: %v)", name, c.loadErr)
	}
	return d, nil
}

// Names lists the installed drivers.
func (c *Catalog) Names() []string {
	c.load()
	out := make([]string, 0, len(c.drivers))
	for n := range c.drivers {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Pool caches connections to remote driver hosts.
type Pool struct {
	mu    sync.Mutex
	conns map[string]*grpc.ClientConn
	dial  func(ctx context.Context, target string) (*grpc.ClientConn, error)
}

func NewPool(dial func(ctx context.Context, target string) (*grpc.ClientConn, error)) *Pool {
	return &Pool{conns: map[string]*grpc.ClientConn{}, dial: dial}
}

// With runs fn on a driver for addr. If fn fails while ctx is still live the
// failure is the connection's, and the cached connection is dropped; a
// failure after ctx is done was the caller's deadline and keeps it.
func (p *Pool) With(ctx context.Context, addr string, fn func(d *GRPCDriver) error) error {
	p.mu.Lock()
	conn, ok := p.conns[addr]
	p.mu.Unlock()
	if !ok {
		return fmt.Errorf("no connection to %s", addr)
	}
	err := fn(NewGRPCDriver(addr, conn))
	if err != nil && ctx.Err() == nil {
		p.mu.Lock()
		delete(p.conns, addr)
		p.mu.Unlock()
		_ = conn.Close()
	}
	return err
}
