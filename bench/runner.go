package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A measurer runs tools on corpora, in each corpus's directory (the corpus module's by
// default).
type measurer struct {
	dir    string
	logs   string
	runs   int
	warmup bool // run every tool once untimed first
	seq    int  // run counter, feeds the vet nonce
}

// result holds the statistics of every tool on one corpus, by tool key.
type result struct {
	corpus corpus
	stats  map[string]stats
	warmup map[string]string // tool key -> problem seen in the warm-up run
	// differs lists the runs whose findings differ from the first run of their group.
	differs []string
}

// measure runs every tool once untimed if m.warmup is set (to warm caches
// and check that it works), then m.runs alternating timed rounds:
// a, b, c, ..., a, b, c, ...
func (m *measurer) measure(ctx context.Context, c corpus, tools []tool) (result, error) {
	res := result{corpus: c, stats: make(map[string]stats), warmup: make(map[string]string)}
	samples := make(map[string][]sample)
	outputs := make(map[string]string) // tool.same -> the first run's output
	first := 1
	if m.warmup {
		first = 0
	}
	for round := first; round <= m.runs; round++ {
		for _, t := range tools {
			m.seq++
			log := filepath.Join(m.logs, fmt.Sprintf("%s-%s-%d.log", slug(c.name), slug(t.key), round))
			var env []string
			if t.env != nil {
				env = t.env(m.seq)
			}
			dir := c.dir
			if dir == "" {
				dir = m.dir
			}
			if t.edit && c.leafFile == "" {
				continue
			}
			if t.warm && round == 1 && !m.warmup {
				if _, err := runOnce(ctx, dir, env, t.command(c), log); err != nil {
					return result{}, err
				}
			}
			if t.edit {
				if err := appendComment(c.leafFile, fmt.Sprintf("// bench edit %d\n", m.seq)); err != nil {
					return result{}, err
				}
			}
			s, err := runOnce(ctx, dir, env, t.command(c), log)
			if err != nil {
				return result{}, err
			}
			if !t.okExit(s.exit) {
				warn("%s on %s exited %d; last lines of %s:\n%s", t.key, c.name, s.exit, log, tail(log))
			}
			if ctx.Err() != nil {
				return result{}, ctx.Err()
			}
			if t.same != "" {
				out, err := os.ReadFile(log)
				if err != nil {
					return result{}, err
				}
				if want, ok := outputs[t.same]; !ok {
					outputs[t.same] = string(out)
				} else if string(out) != want {
					res.differs = append(res.differs, fmt.Sprintf("%s run %d (see %s)", t.key, round, log))
					warn("%s on %s printed other findings than the first %s run; see %s", t.key, c.name, t.same, log)
				}
			}
			if round == 0 {
				progress("%s: warm-up %-3s %6.1fs wall %6.1fs CPU %6d MiB exit %d", c.name, t.key, s.wall.Seconds(), s.cpu.Seconds(), s.rssKB>>10, s.exit)
				if !t.okExit(s.exit) {
					res.warmup[t.key] = fmt.Sprintf("exit %d", s.exit)
				}
				continue
			}
			progress("%s: run %d/%d %-3s %6.1fs wall %6.1fs CPU %6d MiB exit %d", c.name, round, m.runs, t.key, s.wall.Seconds(), s.cpu.Seconds(), s.rssKB>>10, s.exit)
			samples[t.key] = append(samples[t.key], s)
		}
	}
	for _, t := range tools {
		res.stats[t.key] = summarise(samples[t.key], t.okExit)
	}
	return res, nil
}

// appendComment appends text to the file name.
func appendComment(name, text string) error {
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func slug(s string) string {
	return strings.NewReplacer(" ", "_", "'", "p", "/", "_").Replace(s)
}

func tail(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	return lastLines(string(data), 8)
}
