package vault

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash/fnv"
	"iter"
	"strings"
	"time"

	"google.golang.org/grpc/metadata"

	vaultv1 "example.test/torture/gen/vault/v1"
	"example.test/torture/internal/ctxkit"
	"example.test/torture/internal/store"
)

func toProto(s *store.Secret) *vaultv1.Secret {
	return &vaultv1.Secret{
		Id:          s.ID,
		Tenant:      s.Tenant,
		Value:       s.Value,
		Version:     s.Version,
		UpdatedUnix: s.Updated.Unix(),
		KeyId:       s.KeyID,
	}
}

func fromProto(p *vaultv1.Secret) *store.Secret {
	return &store.Secret{
		ID:      p.GetId(),
		Tenant:  p.GetTenant(),
		Value:   p.GetValue(),
		Version: p.GetVersion(),
		KeyID:   p.GetKeyId(),
		Updated: time.Unix(p.GetUpdatedUnix(), 0),
	}
}

func actorFrom(ctx context.Context) string {
	md, ok := metadata.FromIncomingContext(ctx)
	if !ok {
		return "anonymous"
	}
	if v := md.Get("x-actor"); len(v) > 0 {
		return v[0]
	}
	return "anonymous"
}

func shardOf(id string) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	return "shard-" + string(rune('a'+h.Sum32()%4))
}

func isTransient(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "connection reset")
}

// recentIDs yields the ids of recently changed secrets under prefix from the
// in-memory change log.
func (s *Server) recentIDs(prefix string) iter.Seq[string] {
	return func(yield func(string) bool) {
		s.subsMu.Lock()
		var ids []string
		for _, ev := range s.recent {
			if strings.HasPrefix(ev.id, prefix) {
				ids = append(ids, ev.id)
			}
		}
		s.subsMu.Unlock()
		for _, id := range ids {
			if !yield(id) {
				return
			}
		}
	}
}

// keyRing holds the data-encryption keys.
type keyRing struct {
	keys map[string][]byte
}

func loadKeyRing(ctx context.Context, repo *store.Repo) (*keyRing, error) {
	schema, err := repo.LoadSchema(ctx)
	if err != nil {
		return nil, err
	}
	r := &keyRing{keys: make(map[string][]byte, len(schema.KeyIDs))}
	for _, k := range schema.KeyIDs {
		sum := sha256.Sum256([]byte(k))
		r.keys[k] = sum[:]
	}
	return r, nil
}

func (r *keyRing) reencrypt(value []byte, keyID string) ([]byte, error) {
	k, ok := r.keys[keyID]
	if !ok {
		return nil, errors.New("unknown key " + keyID)
	}
	out := make([]byte, len(value))
	for i, b := range value {
		out[i] = b ^ k[i%len(k)]
	}
	return out, nil
}

func fingerprint(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// quotaFor returns the tenant's secret quota from the schema.
func (s *Server) checkQuota(ctx ctxkit.TenantContext, tenant string) error {
	n, err := s.repo.Count(ctx)
	if err != nil {
		return err
	}
	if tenant != "" && n > 1_000_000 {
		return errors.New("quota exceeded for " + ctx.Tenant())
	}
	return nil
}
