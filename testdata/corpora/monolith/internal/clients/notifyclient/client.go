// Package notifyclient sends notifications through the notification service.
package notifyclient

import (
	"context"
	"fmt"
	"net/http"

	"connectrpc.com/connect"

	notifyv1 "example.test/monolith/gen/notify/v1"
	"example.test/monolith/gen/notify/v1/notifyv1connect"
	"example.test/monolith/pkg/money"
)

// Client wraps the connect client.
type Client struct {
	api notifyv1connect.NotificationServiceClient
}

// New returns a client for the notification service at baseURL.
func New(baseURL string) *Client {
	return &Client{api: notifyv1connect.NewNotificationServiceClient(http.DefaultClient, baseURL)}
}

// Send sends one templated notification.
func (c *Client) Send(ctx context.Context, accountID, template string, vars map[string]string) (string, error) {
	resp, err := c.api.Send(ctx, connect.NewRequest(&notifyv1.SendRequest{AccountId: accountID, Template: template, Vars: vars}))
	if err != nil {
		return "", err
	}
	return resp.Msg.GetMessageId(), nil
}

// OrderPlaced sends the order confirmation.
func (c *Client) OrderPlaced(ctx context.Context, accountID, orderID string, totalMinor int64, currency string) error {
	_, err := c.Send(ctx, accountID, "order_placed", map[string]string{
		"order_id": orderID,
		"total":    money.Format(totalMinor, currency),
	})
	if err != nil {
		return fmt.Errorf("notify: order placed: %w", err)
	}
	return nil
}

// Subscribe opens the notification stream of an account.
func (c *Client) Subscribe(ctx context.Context, accountID string) (*connect.ServerStreamForClient[notifyv1.Notification], error) {
	return c.api.Subscribe(ctx, connect.NewRequest(&notifyv1.SubscribeRequest{AccountId: accountID}))
}
