//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package vetmode

import (
	"os"
	"syscall"
)

// lockKey takes the exclusive lock of the file name, waiting while another process holds it,
// and keeps it until this process exits. It reports whether it holds the lock.
func lockKey(name string) bool {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return false
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return false
	}
	lockFiles = append(lockFiles, f) // the lock lives as long as the open file
	return true
}

// lockFiles keeps the locked files open until the process exits.
var lockFiles []*os.File
