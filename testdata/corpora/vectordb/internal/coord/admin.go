package coord

import (
	"context"
	"fmt"

	"connectrpc.com/connect"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/gen/vdbpb/vdbpbconnect"
	"example.test/vectordb/internal/log"
	"example.test/vectordb/internal/storage"
)

// Admin serves the connect-go admin service.
type Admin struct {
	kv  *storage.MetaKV
	reg *Registry
}

var _ vdbpbconnect.AdminServiceHandler = (*Admin)(nil)

// NewAdmin returns the admin service.
func NewAdmin(kv *storage.MetaKV, reg *Registry) *Admin { return &Admin{kv: kv, reg: reg} }

func (a *Admin) GetConfig(ctx context.Context, req *connect.Request[vdbpb.GetConfigRequest]) (*connect.Response[vdbpb.GetConfigResponse], error) {
	v, err := a.kv.Load(ctx, "config/"+req.Msg.GetKey())
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("load config %q: %w", req.Msg.GetKey(), err)) // BUG: statusmask — the request's deadline on the kv read becomes Internal
	}
	return connect.NewResponse(&vdbpb.GetConfigResponse{Key: req.Msg.GetKey(), Value: v}), nil
}

func (a *Admin) SetConfig(ctx context.Context, req *connect.Request[vdbpb.SetConfigRequest]) (*connect.Response[vdbpb.SetConfigResponse], error) {
	if err := a.kv.Save(ctx, "config/"+req.Msg.GetKey(), req.Msg.GetValue()); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, connect.NewError(connect.CodeDeadlineExceeded, ctxErr)
		}
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("save config: %w", err)) // OK: statusmask — ctx.Err() is checked first
	}
	log.Ctx(ctx).Info("config changed", log.String("key", req.Msg.GetKey())) // OK: ctxless — Logger.InfoContext only reads the trace id from its ctx
	return connect.NewResponse(&vdbpb.SetConfigResponse{}), nil
}

func (a *Admin) ListNodes(ctx context.Context, req *connect.Request[vdbpb.ListNodesRequest]) (*connect.Response[vdbpb.ListNodesResponse], error) {
	addrs := a.reg.snapshot(req.Msg.GetRole())
	log.Ctx(context.TODO()).Info("list nodes", log.String("role", req.Msg.GetRole()), log.Int("count", len(addrs))) // OK: ctxbackground — a root used only to log with
	return connect.NewResponse(&vdbpb.ListNodesResponse{Addrs: addrs}), nil
}
