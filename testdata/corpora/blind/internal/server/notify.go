package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"connectrpc.com/connect"
	notifyv1 "example.test/blind/gen/notifyv1"
	"example.test/blind/internal/audit"
)

func (n *Notifier) Send(ctx context.Context, req *connect.Request[notifyv1.SendRequest]) (*connect.Response[notifyv1.SendResponse], error) {
	tmpl, ok := n.tmpl[req.Msg.GetTemplate()]
	if !ok {
		return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("no template %q", req.Msg.GetTemplate()))
	}
	score, err := n.http.FraudScore(ctx, req.Msg.GetCustomerId()) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	if score > 0.95 {
		return nil, connect.NewError(connect.CodePermissionDenied, fmt.Errorf("customer blocked"))
	}
	rate, err := n.http.Rate(context.Background(), "EUR") // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	body := strings.ReplaceAll(tmpl, "{{rate}}", fmt.Sprint(rate))
	hreq, err := http.NewRequest(http.MethodPost, "http://smtp-relay.internal/send", strings.NewReader(body)) // BUG: ctxless
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(hreq)
	if err != nil {
		return nil, connect.NewError(connect.CodeUnavailable, err)
	}
	resp.Body.Close()

	// the delivery row must be written even if the caller disconnects
	actx, cancel := context.WithDeadline(context.WithoutCancel(ctx), time.Now().Add(2*time.Second)) // OK: bounded and explained
	defer cancel()
	_ = n.audit.Write(actx, audit.Entry{Action: "notify", OrderID: req.Msg.OrderId, At: time.Now()})

	// delivery metrics are best-effort and must not be lost when the caller goes away
	go n.audit.Write(context.WithoutCancel(ctx), audit.Entry{Action: "notify-metric", At: time.Now()}) // BUG: detach

	dctx, dcancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	// ^BUG: detach
	defer dcancel()
	_ = n.audit.Write(dctx, audit.Entry{Action: "notify-done", At: time.Now()})

	return connect.NewResponse(&notifyv1.SendResponse{MessageId: resp.Header.Get("X-Message-Id")}), nil
}
