package vtgate

import (
	"context"
	"fmt"
	"hash/fnv"
	"regexp"
	"strings"
	"sync"
	"time"

	"example.test/sqlproxy/gen/querypb"
	"example.test/sqlproxy/internal/servenv"
	"example.test/sqlproxy/topo"
)

type plan struct {
	kind     string
	keyspace string
	table    string
	readOnly bool
	sharded  bool
	columns  []string
	keyVar   string
}

var stmtRE = regexp.MustCompile(`(?is)^\s*(?:(select|delete)\b.*?\bfrom|(insert)\s+into|(update))\s+` + "`?" + `([a-z0-9_]+(?:\.[a-z0-9_]+)?)`)

// parse is the router's (very) small SQL front end: it finds the
// statement's kind, its table and the bind variable of its sharding key.
func parse(sql string) (*plan, error) {
	m := stmtRE.FindStringSubmatch(sql)
	if m == nil {
		return nil, fmt.Errorf("unsupported statement %q", sql)
	}
	p := &plan{kind: strings.ToLower(m[1] + m[2] + m[3])}
	p.readOnly = p.kind == "select"
	if ks, t, ok := strings.Cut(m[4], "."); ok {
		p.keyspace, p.table = ks, t
	} else {
		p.table = m[4]
	}
	if i := strings.IndexByte(sql, ':'); i >= 0 {
		p.keyVar = strings.TrimRight(strings.Fields(sql[i+1:])[0], ",;()")
	}
	return p, nil
}

type planCache struct {
	mu sync.Mutex
	m  map[string]*plan
}

func (c *planCache) get(sql string) (*plan, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.m[sql]
	return p, ok
}

func (c *planCache) put(sql string, p *plan) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[sql] = p
}

func (vtg *VTGate) buildPlan(ctx context.Context, sql string) (*plan, error) {
	p, err := parse(sql)
	if err != nil || p.keyspace == "" {
		return p, err
	}
	vs, err := vtg.ts.GetVSchema(ctx, p.keyspace)
	if err != nil {
		return nil, err
	}
	p.sharded = vs.Sharded
	if cols, ok := vs.Tables[p.table]; ok {
		p.columns = strings.Split(cols, ",")
	}
	return p, nil
}

// planFor returns the plan of sql. Concurrent requests for the same query
// text share one build.
func (vtg *VTGate) planFor(ctx context.Context, sql string) (*plan, error) {
	if p, ok := vtg.planCache.get(sql); ok {
		return p, nil
	}
	// Every request waiting for this plan shares the build: none of their
	// ctxs may cut it off for the others.
	v, err, _ := vtg.plans.Do(sql, func() (any, error) {
		pctx, cancel := context.WithTimeout(context.Background(), vtg.cfg.PlanTimeout)
		defer cancel()
		return vtg.buildPlan(pctx, sql)
	})
	if err != nil {
		return nil, err
	}
	p := v.(*plan)
	vtg.planCache.put(sql, p)
	servenv.Infof(ctx, "planned %q as %s", sql, p.kind)
	return p, nil
}

type keyspaceExecutor struct {
	ks *topo.Keyspace
}

func (e *keyspaceExecutor) shardFor(p *plan, bindVars map[string]string) (string, error) {
	switch {
	case len(e.ks.Shards) == 0:
		return "", fmt.Errorf("keyspace %s has no shards", e.ks.Name)
	case len(e.ks.Shards) == 1 || p.keyVar == "":
		return e.ks.Shards[0], nil
	}
	h := fnv.New32a()
	h.Write([]byte(bindVars[p.keyVar]))
	return e.ks.Shards[int(h.Sum32()%uint32(len(e.ks.Shards)))], nil
}

// executorFor returns the executor of keyspace, creating it on first use;
// it is shared by every later request of the keyspace.
func (vtg *VTGate) executorFor(ctx context.Context, keyspace string) (*keyspaceExecutor, error) {
	vtg.mu.Lock()
	defer vtg.mu.Unlock()
	if e, ok := vtg.executors[keyspace]; ok {
		return e, nil
	}
	ks, err := vtg.ts.GetKeyspace(ctx, keyspace)
	if err != nil {
		return nil, err
	}
	e := &keyspaceExecutor{ks: ks}
	vtg.executors[keyspace] = e
	return e, nil
}

// shardsFor returns the shards of keyspace from the serving graph. With
// ensureInit it loads the serving graph when the router does not know it.
func (vtg *VTGate) shardsFor(ctx context.Context, keyspace string, ensureInit bool) ([]string, error) {
	vtg.mu.Lock()
	sk, ok := vtg.srvKeyspaces[keyspace]
	vtg.mu.Unlock()
	if ok {
		return sk.Shards, nil
	}
	if !ensureInit {
		return nil, fmt.Errorf("keyspace %s: %w", keyspace, ErrUnknownKeyspace)
	}
	servenv.Infof(ctx, "loading the serving graph of %s", keyspace)
	lctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sk, err := vtg.ts.GetSrvKeyspace(lctx, vtg.cfg.Cell, keyspace)
	if err != nil {
		return nil, err
	}
	vtg.mu.Lock()
	vtg.srvKeyspaces[keyspace] = sk
	vtg.mu.Unlock()
	return sk.Shards, nil
}

func (vtg *VTGate) loadVindexes(ctx context.Context) (map[string]string, error) {
	names, err := vtg.ts.GetKeyspaceNames(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, n := range names {
		vs, err := vtg.ts.GetVSchema(ctx, n)
		if err != nil {
			continue
		}
		out[n] = vs.Vindex
	}
	return out, nil
}

// watchKeyspace follows the serving graph of keyspace for as long as ctx
// lives, on a goroutine of its own.
func (vtg *VTGate) watchKeyspace(ctx context.Context, keyspace string) {
	go func() {
		for sk := range vtg.ts.WatchSrvKeyspace(ctx, vtg.cfg.Cell, keyspace) {
			vtg.mu.Lock()
			vtg.srvKeyspaces[keyspace] = sk
			vtg.mu.Unlock()
			vtg.vschemas.invalidate(keyspace)
		}
	}()
}

// evaluator resolves the lookup vindexes of bind variables. Evaluators are
// pooled; each request sets the ctx its lookups run with.
type evaluator struct {
	ctx context.Context
	gw  *TabletGateway
}

// SetContext sets the ctx the evaluator's lookups run with.
func (e *evaluator) SetContext(ctx context.Context) { e.ctx = ctx }

// Eval checks that the sharding key of p resolves through vindex.
func (e *evaluator) Eval(p *plan, vindex string, bindVars map[string]string) ([]string, error) {
	if p.keyVar == "" || vindex == "" {
		return p.columns, nil
	}
	target := &querypb.Target{Keyspace: vindex, Shard: "0", TabletType: "replica"}
	qr, err := e.gw.Execute(e.ctx, target, "SELECT keyspace_id FROM "+vindex+"_lookup WHERE v = :v", // OK?: missingdeadline — e.ctx is the request ctx while Eval runs; the Background the handler sets afterwards only marks the pooled evaluator idle
		map[string]string{"v": bindVars[p.keyVar]}, 0)
	if err != nil {
		return nil, err
	}
	if len(qr.GetRows()) == 0 {
		return nil, fmt.Errorf("no keyspace id for %s=%q", p.keyVar, bindVars[p.keyVar])
	}
	return p.columns, nil
}
