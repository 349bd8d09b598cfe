// Package retryopt is a sync job whose calls go through go-grpc-middleware's retry
// interceptor: an attempt given WithPerRetryTimeout has a deadline of its own, an attempt only
// retried (WithMax) does not.
package retryopt

import (
	"context"
	"time"

	grpc_retry "github.com/grpc-ecosystem/go-grpc-middleware/retry"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"

	"example.com/gen/catalogpb"
)

func sync(c catalogpb.CatalogClient, ids []string) {
	for _, id := range ids {
		_, _ = c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}, retry.WithMax(5), retry.WithPerRetryTimeout(5*time.Second))
		_, _ = c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}, grpc_retry.WithPerRetryTimeout(time.Second))
		_, _ = c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}, retry.WithMax(5)) // want `RPC CatalogClient.GetItem has no deadline \(ctx from context.Background\(\)`
	}
}
