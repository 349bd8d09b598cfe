// Package suite holds an end-to-end test suite outside _test.go files, as large repositories
// keep their integration suites: methods of a struct embedding testify's suite.Suite, and
// conditions given assert.CollectT, are run by a test. The package does not import testing.
// A production type that merely has Suite in its name is not one.
package suite

import (
	"context"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/suite"

	"example.com/gen/catalogpb"
)

type e2eSuite struct {
	suite.Suite
	client catalogpb.CatalogClient
}

func (s *e2eSuite) waitReady() {
	s.EventuallyWithT(func(c *assert.CollectT) {
		_, _ = s.client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "probe"})
	}, 10, 1)
}

func (s *e2eSuite) TestGet() {
	_, _ = s.client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "1"})
}

// xdcSuite embeds a suite: its methods are the suite's too.
type xdcSuite struct {
	*e2eSuite
}

func (s *xdcSuite) TestReplicate() {
	_, _ = s.client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "2"})
}

func poll(c *assert.CollectT, client catalogpb.CatalogClient) {
	_, _ = client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "3"})
}

// Suite is a production type named like one: a set of checks a prober runs.
type Suite struct {
	client catalogpb.CatalogClient
}

func (s *Suite) check() {
	_, _ = s.client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "4"}) // want `RPC CatalogClient\.GetItem has no deadline`
}

// runner holds a suite.Suite in a named field, not embedded: not a suite itself.
type runner struct {
	s      suite.Suite
	client catalogpb.CatalogClient
}

func (r *runner) run() {
	_, _ = r.client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "5"}) // want `RPC CatalogClient\.GetItem has no deadline`
}

var _, _, _, _, _ = (*e2eSuite).waitReady, (*xdcSuite).TestReplicate, poll, (*runner).run, (*Suite).check
