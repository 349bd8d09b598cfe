package store

import (
	"context"
	"database/sql"
	"errors"
	"iter"
	"time"
)

// Secret is one stored secret.
type Secret struct {
	ID      string
	Tenant  string
	Value   []byte
	Version int64
	KeyID   string
	Updated time.Time
}

// Schema describes the encryption schema version in use.
type Schema struct {
	Version int
	KeyIDs  []string
}

// LoadSecret returns the current version of a secret.
func (r *Repo) LoadSecret(ctx context.Context, id string) (*Secret, error) {
	var s Secret
	err := r.db.QueryRowContext(ctx,
		`SELECT id, tenant, value, version, key_id, updated_at FROM secrets WHERE id = $1 AND deleted_at IS NULL`, id).
		Scan(&s.ID, &s.Tenant, &s.Value, &s.Version, &s.KeyID, &s.Updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return &s, nil
}

// SaveSecret writes a new version of a secret, failing with ErrStale when the
// caller's version is not the current one.
func (r *Repo) SaveSecret(ctx context.Context, s *Secret) (int64, error) {
	var version int64
	err := r.InTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`UPDATE secrets SET value = $2, version = version + 1, key_id = $3, updated_at = now()
			 WHERE id = $1 AND version = $4`, s.ID, s.Value, s.KeyID, s.Version)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			if s.Version != 0 {
				return ErrStale
			}
			if _, err := tx.ExecContext(ctx,
				`INSERT INTO secrets (id, tenant, value, version, key_id, updated_at) VALUES ($1, $2, $3, 1, $4, now())`,
				s.ID, s.Tenant, s.Value, s.KeyID); err != nil {
				return err
			}
		}
		return tx.QueryRowContext(ctx, `SELECT version FROM secrets WHERE id = $1`, s.ID).Scan(&version)
	})
	return version, err
}

// DeleteSecret soft- or hard-deletes a secret.
func (r *Repo) DeleteSecret(ctx context.Context, id string, hard bool) error {
	q := `UPDATE secrets SET deleted_at = now() WHERE id = $1`
	if hard {
		q = `DELETE FROM secrets WHERE id = $1`
	}
	_, err := r.db.ExecContext(ctx, q, id)
	return err
}

// Touch bumps a secret's access time.
func (r *Repo) Touch(ctx context.Context, id string) error {
	res, err := r.db.ExecContext(ctx, `UPDATE secrets SET accessed_at = now() WHERE id = $1`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrStale
	}
	return nil
}

// Count returns the number of live secrets.
func (r *Repo) Count(ctx context.Context) (int64, error) {
	var n int64
	err := r.db.QueryRowContext(ctx, `SELECT count(*) FROM secrets WHERE deleted_at IS NULL`).Scan(&n)
	return n, err
}

// LoadSchema reads the encryption schema.
func (r *Repo) LoadSchema(ctx context.Context) (*Schema, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT version, key_id FROM key_schema ORDER BY key_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var s Schema
	for rows.Next() {
		var k string
		if err := rows.Scan(&s.Version, &k); err != nil {
			return nil, err
		}
		s.KeyIDs = append(s.KeyIDs, k)
	}
	return &s, rows.Err()
}

// Secrets iterates over the live secrets whose id starts with prefix. The
// query runs when iteration starts and uses ctx.
func (r *Repo) Secrets(ctx context.Context, prefix string) iter.Seq2[*Secret, error] {
	return func(yield func(*Secret, error) bool) {
		rows, err := r.db.QueryContext(ctx,
			`SELECT id, tenant, value, version, key_id, updated_at FROM secrets
			 WHERE id LIKE $1 || '%' AND deleted_at IS NULL ORDER BY id`, prefix)
		if err != nil {
			yield(nil, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			var s Secret
			if err := rows.Scan(&s.ID, &s.Tenant, &s.Value, &s.Version, &s.KeyID, &s.Updated); err != nil {
				yield(nil, err)
				return
			}
			if !yield(&s, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(nil, err)
		}
	}
}

// Snapshot loads a secret as it was in the named snapshot.
func (r *Repo) Snapshot(ctx context.Context, snapshot, id string) (*Secret, error) {
	var s Secret
	err := r.db.QueryRowContext(ctx,
		`SELECT id, tenant, value, version, key_id, taken_at FROM snapshots WHERE name = $1 AND id = $2`, snapshot, id).
		Scan(&s.ID, &s.Tenant, &s.Value, &s.Version, &s.KeyID, &s.Updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return &s, err
}

// PurgeTenant hard-deletes a tenant's soft-deleted secrets.
func (r *Repo) PurgeTenant(ctx context.Context, tenant string) (int64, error) {
	res, err := r.db.ExecContext(ctx, `DELETE FROM secrets WHERE tenant = $1 AND deleted_at IS NOT NULL`, tenant)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// SaveBlob stores one uploaded chunk.
func (r *Repo) SaveBlob(ctx context.Context, id string, chunk []byte) error {
	_, err := r.db.ExecContext(ctx, `INSERT INTO blobs (id, chunk) VALUES ($1, $2)`, id, chunk)
	return err
}

// SealBlobs marks a set of uploaded blobs complete.
func (r *Repo) SealBlobs(ctx context.Context, ids []string) error {
	return r.InTx(ctx, func(tx *sql.Tx) error {
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE blobs SET sealed = true WHERE id = $1`, id); err != nil {
				return err
			}
		}
		return nil
	})
}
