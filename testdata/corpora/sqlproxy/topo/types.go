// Package topo is the topology service: keyspaces, shards, tablets and the
// serving graph, kept in a consistent key-value store (etcd, consul or, in
// tests and single-process setups, memory).
package topo

import (
	"errors"
	"time"
)

// ErrNoNode is returned when a path does not exist.
var ErrNoNode = errors.New("topo: node doesn't exist")

// ErrBadVersion is returned when an update races another writer.
var ErrBadVersion = errors.New("topo: bad node version")

// RemoteOperationTimeout bounds the topo operations that run on a context of
// their own (unlocks, releases).
var RemoteOperationTimeout = 15 * time.Second

// LockTTL is the lease of a keyspace or shard lock.
var LockTTL = 30 * time.Second

// Version is the version of a node, as the store reports it.
type Version int64

// Keyspace is the record of one keyspace.
type Keyspace struct {
	Name           string   `json:"name"`
	ShardingColumn string   `json:"sharding_column"`
	Shards         []string `json:"shards"`
	Served         bool     `json:"served"`
}

// Shard is the record of one shard.
type Shard struct {
	Keyspace       string `json:"keyspace"`
	Name           string `json:"name"`
	PrimaryAlias   string `json:"primary_alias"`
	IsPrimaryServe bool   `json:"is_primary_serving"`
}

// Tablet is the record of one tablet.
type Tablet struct {
	Alias    string `json:"alias"`
	Cell     string `json:"cell"`
	Keyspace string `json:"keyspace"`
	Shard    string `json:"shard"`
	Type     string `json:"type"`
	Addr     string `json:"addr"`
	MySQLDSN string `json:"mysql_dsn"`
}

// SrvKeyspace is the serving graph of a keyspace in one cell.
type SrvKeyspace struct {
	Keyspace string   `json:"keyspace"`
	Shards   []string `json:"shards"`
	Served   []string `json:"served_types"`
}

// VSchema is the routing schema of a keyspace.
type VSchema struct {
	Sharded bool              `json:"sharded"`
	Tables  map[string]string `json:"tables"`
	Vindex  string            `json:"vindex"`
}

// RoutingRules redirect tables between keyspaces during migrations.
type RoutingRules struct {
	Rules map[string][]string `json:"rules"`
}
