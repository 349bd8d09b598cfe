package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// A sample is one timed run of one tool on one corpus.
type sample struct {
	wall  time.Duration
	cpu   time.Duration // user + system time of the whole process tree
	rssKB int64         // peak resident set of the largest process in the tree
	exit  int
}

// runOnce runs argv in dir with env added to the environment, sending its
// output to logPath, and returns its wall time and peak RSS. The RSS comes
// from wait4's rusage: for a process tree (go vet) it is the peak of the
// largest single process, not the sum.
func runOnce(ctx context.Context, dir string, env, argv []string, logPath string) (sample, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return sample{}, err
	}
	defer logf.Close()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout = logf
	cmd.Stderr = logf
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return sample{}, fmt.Errorf("%s: %v", filepath.Base(argv[0]), err)
	}
	s := sample{wall: wall, exit: cmd.ProcessState.ExitCode()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.rssKB = ru.Maxrss // kilobytes on Linux
		s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return s, nil
}

// stats summarises the samples of one tool on one corpus.
type stats struct {
	runs     int
	wall     time.Duration // median
	wallMin  time.Duration
	wallMax  time.Duration
	cpu      time.Duration // median
	rssKB    int64         // median
	exits    []int         // distinct exit codes seen
	failures int           // runs whose exit code the tool does not allow
}

func summarise(samples []sample, okExit func(int) bool) stats {
	st := stats{runs: len(samples)}
	if len(samples) == 0 {
		return st
	}
	walls := make([]time.Duration, len(samples))
	cpus := make([]time.Duration, len(samples))
	rss := make([]int64, len(samples))
	for i, s := range samples {
		walls[i], cpus[i], rss[i] = s.wall, s.cpu, s.rssKB
		if !slices.Contains(st.exits, s.exit) {
			st.exits = append(st.exits, s.exit)
		}
		if !okExit(s.exit) {
			st.failures++
		}
	}
	slices.Sort(walls)
	slices.Sort(cpus)
	slices.Sort(rss)
	st.cpu = median(cpus)
	st.wall, st.wallMin, st.wallMax = median(walls), walls[0], walls[len(walls)-1]
	st.rssKB = median(rss)
	slices.Sort(st.exits)
	return st
}

// median returns the middle of sorted xs, the mean of the two middles for
// an even count.
func median[T int64 | time.Duration](xs []T) T {
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
