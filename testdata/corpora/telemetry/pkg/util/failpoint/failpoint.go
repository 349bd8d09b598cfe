// Package failpoint marks places where tests inject faults. In production
// builds Inject does nothing; the failpoint tool rewrites the marked call
// sites in test builds.
package failpoint

// Inject marks a failpoint named name; fn is the fault, run only in builds
// rewritten by the failpoint tool.
func Inject(name string, fn func()) {}
