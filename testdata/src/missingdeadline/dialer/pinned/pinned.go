// Package pinned opens catalog clients through an interface of its own, one implementation on
// a connection whose unary calls get a default deadline, one on a bare connection; a job whose
// field only ever holds the first is bounded, one whose opener its caller chooses is not known
// to be.
package pinned

import (
	"context"
	"io"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"missingdeadline/dialer/clientset"
)

type opener interface {
	open() (io.Closer, catalogpb.CatalogClient, error)
}

// bounded opens clients on the client set's connection, whose interceptor sets a deadline.
type bounded struct{ addr string }

func (b bounded) open() (io.Closer, catalogpb.CatalogClient, error) {
	conn, err := clientset.NewConnection(b.addr, time.Second)
	if err != nil {
		return nil, nil, err
	}
	return conn, catalogpb.NewCatalogClient(conn), nil
}

// bare opens clients on a connection with no default deadline.
type bare struct{ addr string }

func (b bare) open() (io.Closer, catalogpb.CatalogClient, error) {
	conn, err := grpc.NewClient(b.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, nil, err
	}
	return conn, catalogpb.NewCatalogClient(conn), nil
}

// Job's opener is only ever the bounded one: bare is never there.
type Job struct{ o opener }

func NewJob(addr string) *Job { return &Job{o: bounded{addr: addr}} }

func (j *Job) run(id string) error {
	closer, client, err := j.o.open()
	if err != nil {
		return err
	}
	defer closer.Close()
	_, err = client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // bounded's interceptor sets a deadline
	return err
}

// Chosen's opener is its caller's: bare may be there.
type Chosen struct{ o opener }

func NewChosen(o opener) *Chosen { return &Chosen{o: o} }

func (c *Chosen) run(id string) error {
	closer, client, err := c.o.open()
	if err != nil {
		return err
	}
	defer closer.Close()
	_, err = client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient.GetItem has no deadline \(ctx from context.Background\(\)`
	return err
}

var _ = []any{bare{}, NewJob, (*Job).run, NewChosen, (*Chosen).run}
