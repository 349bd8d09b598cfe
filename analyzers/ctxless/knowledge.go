package ctxless

import (
	"fmt"
	"go/types"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// advice says what to call instead of a ctx-less function, and how to rewrite the call.
type advice struct {
	lost string // what goes wrong; "" means "cannot be cancelled with the request"
	// twin names the ctx-taking replacement that takes the request ctx, then extra, then
	// the call's own arguments: "QueryContext", "exec.CommandContext".
	twin, extra string
	// use and unnamed describe any other replacement, %s standing for the request ctx
	// expression, or for its description when it is not in scope at the call.
	use, unnamed string
	edit         *rewrite // the mechanical rewrite, or nil when there is none
	// inLoops: reported only in a loop that never checks a ctx (a poll, a retry backoff).
	// A single wait — a rate limiter's penalty, a settle delay — is deliberate and short.
	inLoops bool
}

// rewrite is a mechanical rewrite of a call whose callee is written as a selector X.Sel:
// prefix is inserted before X, Sel becomes sel, and the request ctx followed by extra (if
// any) becomes the first argument.
type rewrite struct {
	prefix string
	sel    string
	extra  string
}

// stdAPI is one entry of the table of ctx-less standard-library APIs: the package-level
// function pkg.name when recv is "", else the method (*pkg.recv).name.
type stdAPI struct {
	pkg, recv, name string
	advice
}

// twinOf returns the advice to call twin instead, with the request ctx and extra before the
// call's arguments; the fix writes qual+sel in place of the selector's Sel.
func twinOf(twin, qual, sel, extra string) advice {
	return advice{twin: twin, extra: extra, edit: &rewrite{sel: qual + sel, extra: extra}}
}

// replacement renders a for a message: ctx is the request ctx expression when inScope, its
// description otherwise; hasArgs says whether the reported call has arguments of its own.
func (a *advice) replacement(ctx string, inScope, hasArgs bool) string {
	switch {
	case a.twin == "" && inScope:
		return fmt.Sprintf(a.use, ctx)
	case a.twin == "":
		return fmt.Sprintf(a.unnamed, ctx)
	case !inScope:
		return a.twin + " with " + ctx
	}
	args := ctx
	if a.extra != "" {
		args += ", " + a.extra
	}
	if hasArgs {
		args += ", ..."
	}
	return a.twin + "(" + args + ")"
}

// httpShortcut is the advice for http.Get and friends: there is no ctx-taking variant, the
// request has to be built with its ctx.
var httpShortcut = advice{
	use:     "http.NewRequestWithContext(%s, ...) and Client.Do",
	unnamed: "http.NewRequestWithContext with %s and Client.Do",
}

// knownAPIs lists the ctx-less standard-library calls whose twin does not follow the
// M/MContext pattern, which genericTwin finds by itself (database/sql's Query, Exec, Prepare,
// Ping... on DB, Tx, Conn and Stmt, (*net.Dialer).Dial, (*tls.Conn).Handshake, ...).
var knownAPIs = []stdAPI{
	// (*sql.DB).Begin's twin takes options as well: BeginTx(ctx, nil) is the same transaction.
	{"database/sql", "DB", "Begin", twinOf("BeginTx", "", "BeginTx", "nil")},

	// net/http's shortcuts use the background context of http.DefaultClient or the client.
	{"net/http", "", "Get", httpShortcut},
	{"net/http", "", "Head", httpShortcut},
	{"net/http", "", "Post", httpShortcut},
	{"net/http", "", "PostForm", httpShortcut},
	{"net/http", "Client", "Get", httpShortcut},
	{"net/http", "Client", "Head", httpShortcut},
	{"net/http", "Client", "Post", httpShortcut},
	{"net/http", "Client", "PostForm", httpShortcut},
	// A request built without a ctx carries context.Background() into Client.Do.
	{"net/http", "", "NewRequest", twinOf("http.NewRequestWithContext", "", "NewRequestWithContext", "")},

	// net.Dial is (&net.Dialer{}).Dial; DialTimeout moves its timeout into the Dialer.
	{"net", "", "Dial", advice{
		twin: "(&net.Dialer{}).DialContext",
		edit: &rewrite{prefix: "(&", sel: "Dialer{}).DialContext"},
	}},
	{"net", "", "DialTimeout", advice{
		use:     "(&net.Dialer{Timeout: timeout}).DialContext(%s, ...)",
		unnamed: "(&net.Dialer{Timeout: timeout}).DialContext with %s",
	}},
	// The package-level lookups are net.DefaultResolver's methods with context.Background().
	{"net", "", "LookupHost", twinOf("net.DefaultResolver.LookupHost", "DefaultResolver.", "LookupHost", "")},
	{"net", "", "LookupIP", twinOf("net.DefaultResolver.LookupIP", "DefaultResolver.", "LookupIP", `"ip"`)},
	{"net", "", "LookupAddr", twinOf("net.DefaultResolver.LookupAddr", "DefaultResolver.", "LookupAddr", "")},
	{"net", "", "LookupCNAME", twinOf("net.DefaultResolver.LookupCNAME", "DefaultResolver.", "LookupCNAME", "")},
	{"net", "", "LookupMX", twinOf("net.DefaultResolver.LookupMX", "DefaultResolver.", "LookupMX", "")},
	{"net", "", "LookupNS", twinOf("net.DefaultResolver.LookupNS", "DefaultResolver.", "LookupNS", "")},
	{"net", "", "LookupPort", twinOf("net.DefaultResolver.LookupPort", "DefaultResolver.", "LookupPort", "")},
	{"net", "", "LookupSRV", twinOf("net.DefaultResolver.LookupSRV", "DefaultResolver.", "LookupSRV", "")},
	{"net", "", "LookupTXT", twinOf("net.DefaultResolver.LookupTXT", "DefaultResolver.", "LookupTXT", "")},

	// exec.CommandContext kills the process when the ctx is done.
	{"os/exec", "", "Command", twinOf("exec.CommandContext", "", "CommandContext", "")},

	// time.Sleep has no twin: waiting on ctx.Done() alongside a timer is the idiom. On real
	// code a single sleep was almost always deliberate; a sleep that paces a loop (polling,
	// retrying) keeps the loop going after the caller gave up.
	{"time", "", "Sleep", advice{
		lost:    "keeps the loop sleeping after the request is cancelled",
		use:     "a select on %s.Done() and a time.Timer",
		unnamed: "a select on the Done channel of %s and a time.Timer",
		inLoops: true,
	}},
}

// lookupKnown returns the advice for fn if it is one of knownAPIs.
func lookupKnown(fn *types.Func) *advice {
	for i := range knownAPIs {
		k := &knownAPIs[i]
		if k.name != fn.Name() {
			continue
		}
		if k.recv == "" && typesutil.IsFunc(fn, k.pkg, k.name) ||
			k.recv != "" && typesutil.IsMethod(fn, k.pkg, k.recv, k.name) {
			return &k.advice
		}
	}
	return nil
}
