// Package notify implements notify.v1.NotifyService over connect-go.
package notify

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"text/template"
	"time"

	"connectrpc.com/connect"

	notifyv1 "example.test/torture/gen/notify/v1"
	"example.test/torture/gen/notify/v1/notifyv1connect"
	"example.test/torture/internal/ctxkit"
	"example.test/torture/internal/store"
)

const (
	receiptBudget     = 2 * time.Second
	unsubscribeBudget = time.Second
)

// builtinTemplates are compiled at start-up; stored templates override them.
var builtinTemplates map[string]*template.Template

var builtinSources = map[string]string{
	"welcome": "Welcome, {{.name}}!",
	"rotated": "Key {{.key}} was rotated.",
}

func init() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second) // OK
	defer cancel()
	t, err := compileAll(ctx, builtinSources)
	if err != nil {
		panic(err)
	}
	builtinTemplates = t
}

func compileAll(ctx context.Context, src map[string]string) (map[string]*template.Template, error) {
	out := make(map[string]*template.Template, len(src))
	for name, body := range src {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t, err := template.New(name).Parse(body)
		if err != nil {
			return nil, fmt.Errorf("template %s: %w", name, err)
		}
		out[name] = t
	}
	return out, nil
}

// Service implements notifyv1connect.NotifyServiceHandler.
type Service struct {
	notifyv1connect.UnimplementedNotifyServiceHandler

	repo       *store.Repo
	http       *http.Client
	webhookURL string
	mirrors    []string
	node       string
	log        *slog.Logger

	templates *ctxkit.Cache[string, *template.Template]

	lifetime context.Context
	cancel   context.CancelFunc

	mu   sync.Mutex
	subs map[string][]chan *notifyv1.Notification
}

// New returns a notify service posting deliveries to webhookURL.
func New(repo *store.Repo, webhookURL, node string, log *slog.Logger, mirrors ...string) *Service {
	lifetime, cancel := context.WithCancel(context.Background()) // OK
	s := &Service{
		repo:       repo,
		http:       &http.Client{Timeout: 5 * time.Second},
		webhookURL: webhookURL,
		mirrors:    mirrors,
		node:       node,
		log:        log,
		lifetime:   lifetime,
		cancel:     cancel,
		subs:       make(map[string][]chan *notifyv1.Notification),
	}
	s.templates = ctxkit.NewCache(10*time.Minute, ctxkit.Loader[string, *template.Template](s.loadTemplate))
	return s
}

// Close stops the service.
func (s *Service) Close() { s.cancel() }

func (s *Service) loadTemplate(ctx context.Context, name string) (*template.Template, error) {
	body, err := s.repo.Template(ctx, name)
	if errors.Is(err, sql.ErrNoRows) {
		if t, ok := builtinTemplates[name]; ok {
			return t, nil
		}
	}
	if err != nil {
		return nil, err
	}
	return template.New(name).Parse(body)
}

// Send stores a notification and delivers it to the tenant's webhook.
func (s *Service) Send(ctx context.Context, req *connect.Request[notifyv1.SendRequest]) (*connect.Response[notifyv1.SendResponse], error) {
	msg := req.Msg
	if msg.GetTenant() == "" {
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("tenant is required"))
	}
	sc := ctxkit.NewScoped(ctxkit.WithTenant(ctx, msg.GetTenant()), "notify.send")
	id, err := s.repo.SaveNotification(sc, store.Notification{ // OK
		Tenant: msg.GetTenant(), Channel: msg.GetChannel(), Body: msg.GetBody(),
	})
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	payload, _ := json.Marshal(map[string]string{"id": id, "body": msg.GetBody()})
	hreq, err := http.NewRequest(http.MethodPost, s.webhookURL+"/"+msg.GetTenant(), bytes.NewReader(payload)) // BUG: ctxless
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	// marker note: the ctxless rule names http.NewRequest "(+ Do)"; the one lost
	// deadline is reported at NewRequest above, a second report on Do is arguable
	resp, err := s.http.Do(hreq) // OK?
	if err != nil {
		return nil, connect.NewError(connect.CodeUnavailable, err)
	}
	resp.Body.Close()
	var wg sync.WaitGroup
	for _, u := range s.mirrors {
		wg.Go(func() {
			mresp, err := http.Post(u+"/"+msg.GetTenant(), "application/json", bytes.NewReader(payload)) // BUG: ctxless
			if err != nil {
				s.log.WarnContext(ctx, "mirror delivery", "mirror", u, "err", err)
				return
			}
			mresp.Body.Close()
		})
	}
	wg.Wait()
	s.fanOut(msg.GetTenant(), &notifyv1.Notification{Id: id, Body: msg.GetBody(), CreatedUnix: time.Now().Unix()})

	// the delivery receipt is written after we answer; bounded so that a slow
	// database cannot pile receipts up
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), receiptBudget) // OK
	go func() {
		defer cancel()
		if _, err := s.repo.SaveNotification(rctx, store.Notification{Tenant: msg.GetTenant(), Channel: "receipt", Body: id}); err != nil { // OK
			s.log.WarnContext(rctx, "receipt", "err", err)
		}
	}()
	return connect.NewResponse(&notifyv1.SendResponse{Id: id}), nil
}

// Preview renders a template with the given variables.
func (s *Service) Preview(ctx context.Context, req *connect.Request[notifyv1.PreviewRequest]) (*connect.Response[notifyv1.PreviewResponse], error) {
	tpl, err := s.templates.GetContext(s.lifetime, req.Msg.GetTemplate()) // BUG: ctxflow
	if err != nil {
		return nil, connect.NewError(connect.CodeNotFound, err)
	}
	var b strings.Builder
	render := func() error {
		return func() error {
			return func() error {
				if err := ctx.Err(); err != nil { // OK
					return err
				}
				return tpl.Execute(&b, req.Msg.GetVars())
			}()
		}()
	}
	if err := render(); err != nil {
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("render: %w", err))
	}
	return connect.NewResponse(&notifyv1.PreviewResponse{Rendered: b.String()}), nil
}

// Subscribe streams the tenant's notifications until the client goes away.
func (s *Service) Subscribe(ctx context.Context, req *connect.Request[notifyv1.SubscribeRequest], stream *connect.ServerStream[notifyv1.Notification]) error {
	tenant := req.Msg.GetTenant()
	subID, err := s.repo.AddSubscription(ctx, tenant, s.node) // OK
	if err != nil {
		return connect.NewError(connect.CodeInternal, err)
	}
	stop := context.AfterFunc(ctx, func() {
		// the subscription row outlives the stream; drop it with a budget of its own
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), unsubscribeBudget) // OK
		defer cancel()
		if err := s.repo.DropSubscription(cctx, subID); err != nil { // OK
			s.log.WarnContext(cctx, "drop subscription", "id", subID, "err", err)
		}
	})
	defer stop()

	ch := s.add(tenant)
	defer s.remove(tenant, ch)
	for {
		select {
		case <-ctx.Done(): // OK
			return nil
		case n := <-ch:
			if err := stream.Send(n); err != nil {
				return err
			}
		}
	}
}

func (s *Service) add(tenant string) chan *notifyv1.Notification {
	ch := make(chan *notifyv1.Notification, 8)
	s.mu.Lock()
	s.subs[tenant] = append(s.subs[tenant], ch)
	s.mu.Unlock()
	return ch
}

func (s *Service) remove(tenant string, ch chan *notifyv1.Notification) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.subs[tenant]
	for i, c := range list {
		if c == ch {
			s.subs[tenant] = append(list[:i], list[i+1:]...)
			return
		}
	}
}

func (s *Service) fanOut(tenant string, n *notifyv1.Notification) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ch := range s.subs[tenant] {
		select {
		case ch <- n:
		default:
		}
	}
}
