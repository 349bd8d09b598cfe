// Package store persists cluster state (nodes, workloads, events, leases and
// the audit log) in PostgreSQL.
package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ErrNotFound is returned when a row does not exist.
var ErrNotFound = errors.New("store: not found")

// ErrConflict is returned when an optimistic-concurrency check fails.
var ErrConflict = errors.New("store: generation conflict")

// Node is the persisted view of a cluster node.
type Node struct {
	Name          string
	Address       string
	Phase         string
	Unschedulable bool
	Labels        map[string]string
	CPUMillis     int64
	MemoryBytes   int64
	LastHeartbeat time.Time
	AgentVersion  string
}

// Workload is a desired set of replicas of one image.
type Workload struct {
	Name          string
	Image         string
	Replicas      int32
	NodeSelector  map[string]string
	Args          []string
	Generation    int64
	ReadyReplicas int32
	UpdatedAt     time.Time
	Deleted       bool
}

// Event is a user-visible record of something the control plane did.
type Event struct {
	Kind    string
	Object  string
	Reason  string
	Message string
	At      time.Time
}

// AuditEntry records a mutating API call.
type AuditEntry struct {
	Actor  string
	Method string
	Target string
	Detail string
	At     time.Time
}

// Store is the PostgreSQL-backed state store.
type Store struct {
	db *sql.DB
}

// New wraps an open database handle.
func New(db *sql.DB) *Store { return &Store{db: db} }

// DB exposes the handle for health checks.
func (s *Store) DB() *sql.DB { return s.db }

// GetNode loads one node.
func (s *Store) GetNode(ctx context.Context, name string) (*Node, error) {
	row := s.db.QueryRowContext(ctx, `
		SELECT name, address, phase, unschedulable, labels, cpu_millis, memory_bytes, last_heartbeat, agent_version
		FROM nodes WHERE name = $1`, name)
	return scanNode(row)
}

// ListNodes loads every node.
func (s *Store) ListNodes(ctx context.Context) ([]*Node, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT name, address, phase, unschedulable, labels, cpu_millis, memory_bytes, last_heartbeat, agent_version
		FROM nodes ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("list nodes: %w", err)
	}
	defer rows.Close()
	var out []*Node
	for rows.Next() {
		n, err := scanNode(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// CountNodes returns the number of registered nodes.
func (s *Store) CountNodes(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM nodes`).Scan(&n)
	return n, err
}

// UpsertNode inserts or refreshes a node registration.
func (s *Store) UpsertNode(ctx context.Context, n *Node) error {
	labels, _ := json.Marshal(n.Labels)
	_, err := s.db.ExecContext(ctx, `
		INSERT INTO nodes (name, address, phase, unschedulable, labels, cpu_millis, memory_bytes, last_heartbeat, agent_version)
		VALUES ($1, $2, $3, false, $4, $5, $6, now(), $7)
		ON CONFLICT (name) DO UPDATE SET address = $2, labels = $4, cpu_millis = $5, memory_bytes = $6,
			last_heartbeat = now(), agent_version = $7`,
		n.Name, n.Address, n.Phase, labels, n.CPUMillis, n.MemoryBytes, n.AgentVersion)
	return err
}

// SetUnschedulable cordons or uncordons a node.
func (s *Store) SetUnschedulable(ctx context.Context, name string, v bool) (*Node, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE nodes SET unschedulable = $2 WHERE name = $1`, name, v)
	if err != nil {
		return nil, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, ErrNotFound
	}
	return s.GetNode(ctx, name)
}

// UpdateNodeStatus records the phase observed by the controller.
func (s *Store) UpdateNodeStatus(ctx context.Context, name, phase string, heartbeat time.Time) error {
	_, err := s.db.ExecContext(ctx, `UPDATE nodes SET phase = $2, last_heartbeat = $3 WHERE name = $1`, name, phase, heartbeat)
	return err
}

// DeleteNode removes a node that has been gone for too long.
func (s *Store) DeleteNode(ctx context.Context, name string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM nodes WHERE name = $1`, name)
	return err
}

// GetWorkload loads one workload.
func (s *Store) GetWorkload(ctx context.Context, name string) (*Workload, error) {
	row := s.db.QueryRowContext(ctx, `
		SELECT name, image, replicas, node_selector, args, generation, ready_replicas, updated_at, deleted
		FROM workloads WHERE name = $1`, name)
	return scanWorkload(row)
}

// ListWorkloads loads every workload that is not deleted.
func (s *Store) ListWorkloads(ctx context.Context) ([]*Workload, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT name, image, replicas, node_selector, args, generation, ready_replicas, updated_at, deleted
		FROM workloads WHERE NOT deleted ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("list workloads: %w", err)
	}
	defer rows.Close()
	var out []*Workload
	for rows.Next() {
		w, err := scanWorkload(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// PutWorkload creates or replaces the spec of a workload and bumps its generation.
func (s *Store) PutWorkload(ctx context.Context, w *Workload) (int64, error) {
	sel, _ := json.Marshal(w.NodeSelector)
	args, _ := json.Marshal(w.Args)
	var gen int64
	err := s.db.QueryRowContext(ctx, `
		INSERT INTO workloads (name, image, replicas, node_selector, args, generation, updated_at, deleted)
		VALUES ($1, $2, $3, $4, $5, 1, now(), false)
		ON CONFLICT (name) DO UPDATE SET image = $2, replicas = $3, node_selector = $4, args = $5,
			generation = workloads.generation + 1, updated_at = now(), deleted = false
		RETURNING generation`, w.Name, w.Image, w.Replicas, sel, args).Scan(&gen)
	return gen, err
}

// UpdateReplicas changes the replica count if the generation still matches
// (expected == 0 skips the check).
func (s *Store) UpdateReplicas(ctx context.Context, name string, replicas int32, expected int64) (int64, error) {
	var gen int64
	err := s.db.QueryRowContext(ctx, `
		UPDATE workloads SET replicas = $2, generation = generation + 1, updated_at = now()
		WHERE name = $1 AND NOT deleted AND ($3 = 0 OR generation = $3)
		RETURNING generation`, name, replicas, expected).Scan(&gen)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrConflict
	}
	return gen, err
}

// UpdateWorkloadStatus records how many replicas are ready.
func (s *Store) UpdateWorkloadStatus(ctx context.Context, name string, ready int32) error {
	_, err := s.db.ExecContext(ctx, `UPDATE workloads SET ready_replicas = $2 WHERE name = $1`, name, ready)
	return err
}

// DeleteWorkload soft-deletes a workload (purge removes the row).
func (s *Store) DeleteWorkload(ctx context.Context, name string, purge bool) (int64, error) {
	if purge {
		_, err := s.db.ExecContext(ctx, `DELETE FROM workloads WHERE name = $1`, name)
		return 0, err
	}
	var gen int64
	err := s.db.QueryRowContext(ctx, `
		UPDATE workloads SET deleted = true, generation = generation + 1, updated_at = now()
		WHERE name = $1 RETURNING generation`, name).Scan(&gen)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrNotFound
	}
	return gen, err
}

// RecordEvent appends a user-visible event.
func (s *Store) RecordEvent(ctx context.Context, ev Event) error {
	if ev.At.IsZero() {
		ev.At = time.Now()
	}
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO events (kind, object, reason, message, at) VALUES ($1, $2, $3, $4, $5)`,
		ev.Kind, ev.Object, ev.Reason, ev.Message, ev.At)
	return err
}

// PruneEvents deletes events older than the retention.
func (s *Store) PruneEvents(ctx context.Context, olderThan time.Time) (int64, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM events WHERE at < $1`, olderThan)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// AppendAudit writes an audit row. Audit rows are written on their own budget
// so that a slow caller never loses the record of what it changed.
func (s *Store) AppendAudit(ctx context.Context, e AuditEntry) error {
	if e.At.IsZero() {
		e.At = time.Now()
	}
	actx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err := s.db.ExecContext(actx,
		`INSERT INTO audit_log (actor, method, target, detail, at) VALUES ($1, $2, $3, $4, $5)`,
		e.Actor, e.Method, e.Target, e.Detail, e.At)
	return err
}

// MarkOperation persists the terminal state of a long-running operation.
func (s *Store) MarkOperation(ctx context.Context, id, state, errMsg string) error {
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO operations (id, state, error, updated_at) VALUES ($1, $2, $3, now())
		 ON CONFLICT (id) DO UPDATE SET state = $2, error = $3, updated_at = now()`, id, state, errMsg)
	return err
}

type scanner interface{ Scan(dest ...any) error }

func scanNode(r scanner) (*Node, error) {
	var n Node
	var labels []byte
	var hb sql.NullTime
	err := r.Scan(&n.Name, &n.Address, &n.Phase, &n.Unschedulable, &labels, &n.CPUMillis, &n.MemoryBytes, &hb, &n.AgentVersion)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	n.LastHeartbeat = hb.Time
	_ = json.Unmarshal(labels, &n.Labels)
	return &n, nil
}

func scanWorkload(r scanner) (*Workload, error) {
	var w Workload
	var sel, args []byte
	err := r.Scan(&w.Name, &w.Image, &w.Replicas, &sel, &args, &w.Generation, &w.ReadyReplicas, &w.UpdatedAt, &w.Deleted)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	_ = json.Unmarshal(sel, &w.NodeSelector)
	_ = json.Unmarshal(args, &w.Args)
	return &w, nil
}
