package driver

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/deadlinelint/deadlinelint/internal/output"
)

// config is the parsed command line.
type config struct {
	format   string
	output   string
	exitZero bool
	fix      bool
	diff     bool
	tests    bool
	tags     string
	debug    bool
	version  bool
	help     bool
	patterns []string
	// analyzers are the rules selected by the -RULE flags.
	analyzers []*analysis.Analyzer
	// ruleFlags are the -RULE and -RULE.flag settings given, as arguments for go vet.
	ruleFlags []string
	// listed is go list's listing of the packages and their dependencies, when the route's
	// plan made one the in-process route can use.
	listed []listedPackage
	// whole has the in-process route parse every function body, dependencies' too: the run is
	// to say what is wrong (go vet or go list failed), and a type error in a body is.
	whole bool
}

// errUsage reports a command line that cannot be run; the message says why.
type errUsage struct{ msg string }

func (e *errUsage) Error() string { return e.msg }

// parseFlags parses args like go vet does for its analyzers: -RULE and
// -RULE=false select rules, -RULE.flag sets a rule's own flag.
func (c *Command) parseFlags(args []string) (*config, error) {
	cfg := new(config)
	enabled := make(map[*analysis.Analyzer]*triState)
	fs, jsonFlag := c.flagSet(cfg, enabled)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			cfg.help = true
			return cfg, nil
		}
		return nil, &errUsage{err.Error()}
	}
	if *jsonFlag {
		if isSet(fs, "format") && cfg.format != "json" {
			return nil, &errUsage{fmt.Sprintf("-json conflicts with -format=%s", cfg.format)}
		}
		cfg.format = "json"
	}
	if !knownFormat(cfg.format) {
		return nil, &errUsage{fmt.Sprintf("unknown -format %q (want %s)", cfg.format, strings.Join(output.Formats, ", "))}
	}
	cfg.patterns = fs.Args()
	cfg.analyzers = selectAnalyzers(c.Analyzers, enabled)
	cfg.ruleFlags = ruleFlagArgs(fs, func(name string) bool {
		for _, a := range c.Analyzers {
			if name == a.Name || strings.HasPrefix(name, a.Name+".") {
				return true
			}
		}
		return false
	})
	return cfg, nil
}

// flagSet defines the command's flags on cfg, and one -RULE flag per
// analyzer (recorded in enabled) plus -RULE.flag for each of its flags.
func (c *Command) flagSet(cfg *config, enabled map[*analysis.Analyzer]*triState) (*flag.FlagSet, *bool) {
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported by the caller
	fs.StringVar(&cfg.format, "format", "text", "output `format`: "+strings.Join(output.Formats, ", "))
	jsonFlag := fs.Bool("json", false, "shorthand for -format=json")
	fs.StringVar(&cfg.output, "o", "", "write the report to `file` instead of standard output")
	fs.BoolVar(&cfg.exitZero, "exit-zero", false, "exit 0 even when there are findings (errors still exit 2)")
	fs.BoolVar(&cfg.fix, "fix", false, "apply the suggested fixes and report only the findings left")
	fs.BoolVar(&cfg.diff, "diff", false, "print the suggested fixes as a unified diff instead of applying them")
	fs.BoolVar(&cfg.tests, "test", true, "also analyse test files")
	fs.StringVar(&cfg.tags, "tags", "", "comma-separated `list` of build tags")
	fs.BoolVar(&cfg.debug, "debug", false, "print stack traces of internal errors, and timings")
	fs.BoolVar(&cfg.version, "V", false, "print the version and exit")
	fs.BoolVar(&cfg.version, "version", false, "print the version and exit")
	fs.BoolVar(&cfg.help, "help", false, "print this help and exit")
	fs.BoolVar(&cfg.help, "h", false, "print this help and exit")
	for _, a := range c.Analyzers {
		ts := new(triState)
		enabled[a] = ts
		fs.Var(ts, a.Name, fmt.Sprintf("enable the %s rule", a.Name))
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	return fs, jsonFlag
}

// selectAnalyzers applies go vet's rule: if any rule is enabled
// explicitly, only those run; otherwise all but the disabled ones run.
func selectAnalyzers(all []*analysis.Analyzer, enabled map[*analysis.Analyzer]*triState) []*analysis.Analyzer {
	var hasTrue bool
	for _, ts := range enabled {
		hasTrue = hasTrue || *ts == setTrue
	}
	var keep []*analysis.Analyzer
	for _, a := range all {
		switch {
		case hasTrue && *enabled[a] == setTrue,
			!hasTrue && *enabled[a] != setFalse:
			keep = append(keep, a)
		}
	}
	return keep
}

func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func knownFormat(name string) bool {
	for _, f := range output.Formats {
		if f == name {
			return true
		}
	}
	return false
}

// A triState is a boolean flag that remembers whether it was set.
type triState int

const (
	unset triState = iota
	setTrue
	setFalse
)

func (ts *triState) Set(value string) error {
	b, err := strconv.ParseBool(value)
	if err != nil {
		return errors.New("want true or false")
	}
	if b {
		*ts = setTrue
	} else {
		*ts = setFalse
	}
	return nil
}

func (ts *triState) String() string {
	if ts != nil && *ts == setFalse {
		return "false"
	}
	return "true"
}

// IsBoolFlag lets -RULE stand for -RULE=true.
func (ts *triState) IsBoolFlag() bool { return true }
