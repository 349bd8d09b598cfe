package missingdeadline

import (
	"fmt"
	"slices"
	"strings"
)

// needsDeadline is the object fact of a function whose ctx parameter reaches a unary client
// call without a deadline being added on the way: a call to it is checked like the client
// call itself, with the argument for that parameter as its ctx.
type needsDeadline struct {
	// Param is the index of the ctx parameter among the function's SSA parameters (the
	// receiver of a method is parameter 0), so that it indexes the arguments of a static call.
	Param int
	// Path names the calls from the function down to the client call, the client call last:
	// "Client.Item → CatalogClient.GetItem".
	Path string
	// At is where the client call is: its file's base name and line ("client.go:64"), for a
	// message in another package, whose file set has no position in this one's bodies.
	At string
}

// AFact marks needsDeadline as an analysis fact.
func (*needsDeadline) AFact() {}

func (f *needsDeadline) String() string {
	return fmt.Sprintf("needsDeadline(%d: %s)", f.Param, f.Path)
}

// defaultingConn is the object fact of a function some of whose results are, on every path
// that returns one, a gRPC connection (or a client on one) with a unary interceptor that sets a
// default deadline: a company's transport.Dial helper, or a client set's method returning
// (io.Closer, pb.RepoClient, error). Calls through what it returns are exempt in other packages
// too, also through an interface whose every implementation in sight has the fact.
type defaultingConn struct {
	Results []int // the indices of those results
}

// AFact marks defaultingConn as an analysis fact.
func (*defaultingConn) AFact() {}

func (f *defaultingConn) String() string { return fmt.Sprintf("defaultingConn%v", f.Results) }

// has reports whether result idx is one of f's.
func (f *defaultingConn) has(idx int) bool { return slices.Contains(f.Results, idx) }

// defaultingInterceptor is the object fact of a unary client interceptor that sets a default
// deadline, or of a function returning one (clientx.DefaultDeadline(d)): a connection built
// with it in another package is exempt too.
type defaultingInterceptor struct{}

// AFact marks defaultingInterceptor as an analysis fact.
func (*defaultingInterceptor) AFact() {}

func (*defaultingInterceptor) String() string { return "defaultingInterceptor" }

// arrow separates the calls of a path.
const arrow = " → "

// maxHops is the number of calls a path keeps; longer paths lose their middle.
const maxHops = 4

// prepend returns path with the call name in front, keeping at most maxHops calls.
func prepend(name, path string) string {
	hops := append([]string{name}, strings.Split(path, arrow)...)
	if len(hops) > maxHops {
		hops = append(hops[:maxHops-2], "…", hops[len(hops)-1])
	}
	return strings.Join(hops, arrow)
}

// split returns the client call at the end of path and the calls leading to it.
func split(path string) (rpc, via string) {
	i := strings.LastIndex(path, arrow)
	if i < 0 {
		return path, ""
	}
	return path[i+len(arrow):], path[:i]
}
