package driver

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// writeHelp prints the usage, the driver's flags, the exit codes and
// every rule with its documentation and flags.
func (c *Command) writeHelp(w io.Writer) {
	fmt.Fprintf(w, `%[1]s finds where a gRPC request's deadline and cancellation get lost.

Usage:
  %[1]s [flags] packages...     analyse packages (e.g. ./...) as a CI gate
  %[1]s help [rule]             print this help, or one rule's documentation
  go vet -vettool=$(command -v %[1]s) [-RULE.flag=...] packages...

Flags:
`, c.Name)
	fs, _ := c.flagSet(new(config), make(map[*analysis.Analyzer]*triState))
	fs.VisitAll(func(f *flag.Flag) {
		if !strings.Contains(f.Name, ".") && c.analyzer(f.Name) == nil {
			writeFlag(w, f)
		}
	})
	fmt.Fprintf(w, `  -RULE, -RULE=false
    	run only the rules named with -RULE; or all rules but those with -RULE=false
  -RULE.flag=value
    	set a rule's own flag (listed below), as with go vet

Exit status:
  0  no findings (or -exit-zero)
  1  findings
  2  errors: a bad flag or pattern, a package that fails to load or type-check
     (the other packages are still analysed and reported), an internal error

Rules:
`)
	for _, a := range c.Analyzers {
		writeRule(w, a)
	}
}

// writeRuleHelp prints one rule's documentation, or reports it unknown.
func (c *Command) writeRuleHelp(w io.Writer, name string) error {
	a := c.analyzer(name)
	if a == nil {
		return &errUsage{fmt.Sprintf("no rule named %q (run %s -help for the list)", name, c.Name)}
	}
	writeRule(w, a)
	return nil
}

func writeRule(w io.Writer, a *analysis.Analyzer) {
	fmt.Fprintf(w, "\n%s\n", a.Name)
	for _, line := range strings.Split(strings.TrimSpace(a.Doc), "\n") {
		fmt.Fprintf(w, "    %s\n", line)
	}
	a.Flags.VisitAll(func(f *flag.Flag) {
		f2 := *f
		f2.Name = a.Name + "." + f.Name
		writeFlag(w, &f2)
	})
}

// writeFlag prints a flag the way package flag's PrintDefaults does.
func writeFlag(w io.Writer, f *flag.Flag) {
	name, usage := flag.UnquoteUsage(f)
	line := "  -" + f.Name
	if name != "" {
		line += " " + name
	}
	if def := f.DefValue; def != "" && def != "false" && def != "0" {
		usage += " (default " + def + ")"
	}
	fmt.Fprintf(w, "%s\n    \t%s\n", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
}

func (c *Command) analyzer(name string) *analysis.Analyzer {
	for _, a := range c.Analyzers {
		if a.Name == name {
			return a
		}
	}
	return nil
}
