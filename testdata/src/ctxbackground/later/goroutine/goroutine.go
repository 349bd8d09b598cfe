// Package goroutine starts detached goroutines with panic recovery. It has no ctx of its own:
// the functions it is given run after its caller has moved on.
package goroutine

import "log"

// Go runs f on a goroutine of its own.
func Go(name string, f func()) {
	go func() {
		defer func() {
			if r := recover(); r != nil {
				log.Printf("%s: %v", name, r)
			}
		}()
		f()
	}()
}

// Now runs f before it returns.
func Now(name string, f func()) {
	log.Printf("running %s", name)
	f()
}
