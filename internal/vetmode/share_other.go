//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package vetmode

// lockKey reports false: without flock(2) the processes of a run do not share analyses.
func lockKey(string) bool { return false }
