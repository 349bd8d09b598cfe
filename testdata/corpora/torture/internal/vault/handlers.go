package vault

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	ledgerv1 "example.test/torture/gen/ledger/v1"
	vaultv1 "example.test/torture/gen/vault/v1"
	"example.test/torture/internal/audit"
	"example.test/torture/internal/ctxkit"
	"example.test/torture/internal/store"
)

// GetSecret returns one secret, from the cache when allowed.
func (s *Server) GetSecret(ctx context.Context, req *vaultv1.GetSecretRequest) (*vaultv1.Secret, error) {
	if req.GetId() == "" {
		return nil, status.Error(codes.InvalidArgument, "id is required")
	}
	if !req.GetFresh() {
		if sec, err := s.secrets.Get(req.GetId()); err == nil { // BUG: ctxless
			return toProto(sec), nil
		}
	}
	sec, err := ctxkit.Fetch(ctx, s.repo.LoadSecret, req.GetId()) // OK
	if errors.Is(err, store.ErrNotFound) {
		sec, err = s.fetchRemote(ctx, req.GetId()) // BUG: ctxbackground
	}
	if err != nil {
		return nil, toStatus(err)
	}
	s.secrets.Put(sec.ID, sec)
	touch := s.repo.Touch
	if err := touch(ctx, sec.ID); err != nil && !errors.Is(err, store.ErrStale) { // OK
		s.log.WarnContext(ctx, "touch", "id", sec.ID, "err", err)
	}
	if hook, ok := s.hooks["audit"]; ok {
		_ = hook(ctx, sec.ID) // OK
	}
	return toProto(sec), nil
}

// PutSecret stores a new version of a secret.
func (s *Server) PutSecret(ctx context.Context, req *vaultv1.PutSecretRequest) (*vaultv1.PutSecretResponse, error) {
	if req.GetSecret().GetId() == "" {
		return nil, status.Error(codes.InvalidArgument, "secret.id is required")
	}
	sec := fromProto(req.GetSecret())
	var tenant string
	switch c := ctx.(type) {
	case ctxkit.TenantContext:
		tenant = c.Tenant()
		if err := s.checkQuota(c, tenant); err != nil { // OK
			return nil, status.Error(codes.ResourceExhausted, err.Error())
		}
	default:
		tenant, _ = ctxkit.TenantFrom(ctx)
		{
			ctx := ctxkit.WithTenant(ctx, tenant)             // OK
			if err := s.checkQuota(ctx, tenant); err != nil { // OK
				return nil, status.Error(codes.ResourceExhausted, err.Error())
			}
		}
	}
	sec.Tenant = tenant
	version, err := s.repo.SaveSecret(ctx, sec) // OK
	if err != nil {
		return nil, toStatus(err)
	}
	s.secrets.Invalidate(sec.ID)
	s.publish(event{id: sec.ID, kind: "put", version: version})

	entry := audit.Entry{Actor: actorFrom(ctx), Action: "put", Subject: sec.ID,
		Detail: map[string]any{"version": version, "fp": fingerprint(sec.Value)}}
	if req.GetAsyncAudit() {
		go s.audit.Write(context.WithoutCancel(ctx), entry)
		// ^BUG: detach
	} else if err := s.audit.Write(ctx, entry); err != nil { // OK
		return nil, toStatus(err)
	}
	if _, err := s.ledger.Post(ctx, &ledgerv1.PostRequest{ // OK
		Account:        "tenant:" + tenant,
		AmountCents:    -1,
		Memo:           "secret write " + sec.ID,
		IdempotencyKey: sec.ID + "@" + time.Now().UTC().Format(time.RFC3339),
	}); err != nil {
		s.log.WarnContext(ctx, "billing", "err", err)
	}
	return &vaultv1.PutSecretResponse{Version: version}, nil
}

// ListSecrets lists secrets under a prefix, skipping those encrypted with a
// retired key.
func (s *Server) ListSecrets(parent context.Context, req *vaultv1.ListSecretsRequest) (*vaultv1.ListSecretsResponse, error) {
	ctx, cancel, _ := ctxkit.Budget(parent, listBudget) // OK
	defer cancel()
	// marker note: currentSchema's root lives inside sync.Once (legitimate per the
	// corpus brief), but the spec's transitive rule would report this call site
	schema, err := s.currentSchema() // OK?
	if err != nil {
		return nil, toStatus(err)
	}
	limit := int(req.GetPageSize())
	if limit <= 0 {
		limit = 100
	}
	resp := &vaultv1.ListSecretsResponse{}
outer:
	for sec, err := range s.repo.Secrets(ctx, req.GetPrefix()) { // OK
		if err != nil {
			return nil, toStatus(err)
		}
		for _, k := range schema.KeyIDs {
			if k == "retired:"+sec.KeyID {
				continue outer
			}
		}
		if len(resp.Secrets) == limit {
			break outer
		}
		if err := s.hooks["touch"](ctx, sec.ID); err != nil { // OK
			s.log.DebugContext(ctx, "touch", "err", err)
		}
		resp.Secrets = append(resp.Secrets, toProto(sec))
	}
	return resp, nil
}

// RotateKey re-encrypts secrets with a new key.
func (s *Server) RotateKey(ctx context.Context, req *vaultv1.RotateKeyRequest) (*vaultv1.RotateKeyResponse, error) {
	s.ringOnce.Do(func() {
		ictx, cancel := context.WithTimeout(context.Background(), ringInitTimeout) // OK
		defer cancel()
		s.ring, s.ringErr = loadKeyRing(ictx, s.repo)
	})
	if s.ringErr != nil {
		return nil, toStatus(s.ringErr)
	}
	ids := req.GetSecretIds()
	if len(ids) == 0 {
		tenant, _ := ctxkit.TenantFrom(ctx)
		ctx := context.Background() // BUG: ctxbackground
		for sec, err := range s.repo.Secrets(ctx, tenant+"/") {
			if err != nil {
				return nil, toStatus(err)
			}
			ids = append(ids, sec.ID)
		}
	}

	g, gctx := errgroup.WithContext(ctx) // OK
	g.SetLimit(rotateParallelism)
	var rotated atomic.Int32
	for _, id := range ids {
		g.Go(func() error {
			sec, err := s.repo.LoadSecret(gctx, id) // OK
			if err != nil {
				return err
			}
			if sec.Value, err = s.ring.reencrypt(sec.Value, req.GetKeyId()); err != nil {
				return err
			}
			sec.KeyID = req.GetKeyId()
			if _, err := s.repo.SaveSecret(gctx, sec); err != nil { // OK
				return err
			}
			rotated.Add(1)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, toStatus(err)
	}

	bill := struct {
		ctx     context.Context
		account string
	}{s.baseCtx, "vault:rotations"}
	if _, err := s.ledger.Post(bill.ctx, &ledgerv1.PostRequest{ // BUG: ctxflow
		Account:     bill.account,
		AmountCents: int64(rotated.Load()),
		Memo:        "rotate " + req.GetKeyId(),
	}); err != nil {
		s.log.WarnContext(ctx, "billing", "err", err)
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.secrets.Invalidate(id)
			_ = s.repo.Touch(ctx, id) // OK
		}()
	}
	wg.Wait()
	s.emit("rotate", ctx, req.GetKeyId()) // OK
	return &vaultv1.RotateKeyResponse{Rotated: rotated.Load()}, nil
}

// DeleteSecret removes a secret. The delete is short and must not be cut off
// half way, so it runs on its own budget.
func (s *Server) DeleteSecret(_ context.Context, req *vaultv1.DeleteSecretRequest) (*vaultv1.DeleteSecretResponse, error) {
	ctx, cancel := context.WithTimeout(context.Background(), deleteTimeout) // BUG: ctxbackground
	defer cancel()
	if err := s.repo.DeleteSecret(ctx, req.GetId(), req.GetHard()); err != nil {
		return nil, toStatus(err)
	}
	s.secrets.Invalidate(req.GetId())
	s.publish(event{id: req.GetId(), kind: "delete"})
	_ = s.audit.Record(ctx, "system", "delete", req.GetId())
	return &vaultv1.DeleteSecretResponse{}, nil
}

// BatchGet loads many secrets in parallel, one tenant-scoped context per shard.
func (s *Server) BatchGet(c context.Context, req *vaultv1.BatchGetRequest) (*vaultv1.BatchGetResponse, error) {
	if c == context.Background() { // OK
		return nil, status.Error(codes.Internal, "no request context")
	}
	shardCtx := map[string]context.Context{}
	for _, id := range req.GetIds() {
		shard := shardOf(id)
		if _, ok := shardCtx[shard]; !ok {
			shardCtx[shard] = ctxkit.WithTenant(c, shard)
		}
	}
	parallelism := int(req.GetParallelism())
	if parallelism == 1 {
		secs, err := ctxkit.Map(c, req.GetIds(), s.repo.LoadSecret) // OK
		if err != nil {
			return nil, toStatus(err)
		}
		resp := &vaultv1.BatchGetResponse{}
		for _, sec := range secs {
			resp.Secrets = append(resp.Secrets, toProto(sec))
		}
		return resp, nil
	}
	if parallelism <= 0 {
		parallelism = 4
	}
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		resp = &vaultv1.BatchGetResponse{}
		sem  = make(chan struct{}, parallelism)
	)
	for _, id := range req.GetIds() {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			sec, err := s.repo.LoadSecret(shardCtx[shardOf(id)], id) // OK
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				resp.Missing = append(resp.Missing, id)
				return
			}
			resp.Secrets = append(resp.Secrets, toProto(sec))
		})
	}
	wg.Wait()

	// Touch the secrets we returned, batched, stopping if the caller gives up.
	found := make([]string, 0, len(resp.Secrets))
	for _, sec := range resp.Secrets {
		found = append(found, sec.GetId())
	}
	for chunk := range ctxkit.Chunks(found, 16) {
		if c.Err() != nil {
			break
		}
		if err := ctxkit.ForEach(c, chunk, s.repo.Touch); err != nil && !errors.Is(err, store.ErrStale) { // OK
			s.log.WarnContext(c, "touch batch", "err", err)
		}
	}
	var carrier any = c
	if rc, ok := carrier.(context.Context); ok {
		s.emit("batch-get", rc, "batch") // OK
	}
	return resp, nil
}
