// Package liblog logs with root contexts through a dependency's logger whose package
// functions reach, through its Logger variable, methods that read the ctx's fields and call
// back into the package functions: only values are read, nothing is reported. A root handed
// to a dependency's client whose Run reaches a pipeline's send through an interface declared
// by another it embeds is work, and is reported.
package liblog

import (
	"context"
	"errors"

	"example.com/pipes"
	"example.com/zlog"
)

//deadlinelint:scope
func Handle(ctx context.Context, c *pipes.Client) error {
	zlog.Info(context.Background(), "handle")                    // only logged: silent
	zlog.Error(context.TODO(), "handle", errors.New("x"), "odd") // only logged: silent
	return c.Run(context.Background())                           // want `context.Background\(\) in request scope Handle drops the caller's deadline`
}
