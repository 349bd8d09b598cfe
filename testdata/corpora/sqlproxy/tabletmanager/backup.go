package tabletmanager

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"time"

	"example.test/sqlproxy/topo"
)

// BackupStorage stores backup files.
type BackupStorage interface {
	Write(ctx context.Context, name string, r io.Reader) (int64, error)
	Close() error
}

type backupEvent struct {
	msg   string
	bytes int64
}

func (tm *TabletManager) runBackup(ctx context.Context, bs BackupStorage, concurrency int, events chan<- backupEvent) error {
	send := func(ev backupEvent) error {
		select {
		case events <- ev:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if concurrency <= 0 {
		concurrency = 4
	}
	cmd := exec.CommandContext(ctx, "xtrabackup", "--backup", "--stream=xbstream", "--parallel="+strconv.Itoa(concurrency))
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	if err := send(backupEvent{msg: "xtrabackup started"}); err != nil {
		return err
	}
	name := fmt.Sprintf("%s/%s.xbstream", tm.alias, time.Now().UTC().Format("2006-01-02.150405"))
	n, werr := bs.Write(ctx, name, out)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("xtrabackup: %w", err)
	}
	if werr != nil {
		return werr
	}
	return send(backupEvent{msg: "backup " + name + " written", bytes: n})
}

// replicationReporter records the primary's replication position in the
// topo every few seconds, for as long as the tablet is primary.
type replicationReporter struct {
	mysqld *Mysqld
	ts     *topo.Server
	alias  string

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
}

func newReplicationReporter(m *Mysqld, ts *topo.Server, alias string) *replicationReporter {
	return &replicationReporter{mysqld: m, ts: ts, alias: alias}
}

// Run starts the reporter; it runs until Stop.
func (r *replicationReporter) Run(ctx context.Context) {
	r.ctx, r.cancel = context.WithCancel(ctx)
	r.done = make(chan struct{})
	go r.loop()
}

func (r *replicationReporter) loop() {
	defer close(r.done)
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-r.ctx.Done():
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(r.ctx, 5*time.Second)
		if pos, err := r.mysqld.PrimaryPosition(ctx); err == nil {
			_ = r.ts.RecordEvent(ctx, "", "position", r.alias+"@"+pos)
		}
		cancel()
	}
}

// Stop stops the reporter and waits for it.
func (r *replicationReporter) Stop() {
	r.cancel()
	<-r.done
}
