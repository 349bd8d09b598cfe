package missingdeadline

import (
	"fmt"
	"go/types"
	"sort"
	"strings"
)

// apiList is the value of -missingdeadline.clientapis: functions and methods, named
// "pkgpath.Func" or "pkgpath.Type.Method", that make a unary client call.
type apiList map[string]bool

// String returns the list as it is written on the command line.
func (l apiList) String() string {
	names := make([]string, 0, len(l))
	for n := range l {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ",")
}

// Set replaces the list with the comma-separated names of s.
func (l *apiList) Set(s string) error {
	next := make(apiList)
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if err := checkAPIName(name); err != nil {
			return err
		}
		next[name] = true
	}
	*l = next
	return nil
}

// checkAPIName rejects a name that cannot denote a function or method.
func checkAPIName(name string) error {
	slash := strings.LastIndex(name, "/")
	last := name[slash+1:]
	dot := strings.Index(last, ".")
	if dot <= 0 || dot == len(last)-1 || strings.Contains(last, "..") || strings.HasSuffix(last, ".") {
		return fmt.Errorf("%q is not a client API: want pkgpath.Func or pkgpath.Type.Method, e.g. example.com/inventory/client.Client.Get", name)
	}
	return nil
}

// has reports whether fn is on the list.
func (l apiList) has(fn *types.Func) bool {
	if len(l) == 0 || fn.Pkg() == nil {
		return false
	}
	return l[apiName(fn)]
}

// apiName returns the name of fn as the list spells it.
func apiName(fn *types.Func) string {
	recv := fn.Signature().Recv()
	if recv == nil {
		return fn.Pkg().Path() + "." + fn.Name()
	}
	t := types.Unalias(recv.Type())
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		return fn.Pkg().Path() + "." + n.Origin().Obj().Name() + "." + fn.Name()
	}
	return fn.Pkg().Path() + "." + fn.Name()
}
