// Package recwalk walks a tree recursively, checking its ctx at each node: the recursion is a
// loop that the check stops, so a root handed to the walk is work, cycle or not.
package recwalk

import (
	"context"
	"errors"
)

type Node struct {
	L, R *Node
	Val  int
}

var errStopped = errors.New("stopped")

func visit(ctx context.Context, n *Node, sum *int) error {
	if n == nil {
		return nil
	}
	if ctx.Err() != nil {
		return errStopped
	}
	*sum += n.Val
	if err := visit(ctx, n.L, sum); err != nil {
		return err
	}
	return visit(ctx, n.R, sum)
}

// Sum walks the tree with a root of its own.
func Sum(root *Node) int { // want Sum:"drops ctx"
	s := 0
	_ = visit(context.Background(), root, &s)
	return s
}
