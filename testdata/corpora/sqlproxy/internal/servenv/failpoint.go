package servenv

// Inject marks a failpoint named name. The failpoint build tool rewrites
// Inject calls into their body in failpoint-enabled builds; in a normal
// build Inject does nothing and the body never runs.
func Inject(name string, fn func()) {}
