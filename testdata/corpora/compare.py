#!/usr/bin/env python3
"""Compare deadlinelint -json findings with // BUG: markers.

Markers: `// BUG: rule` on the line of the expected report; `// ^BUG: rule`
on the line below it (for detach cases where a trailing comment would count as
the reason). `ALSO: rule` on a BUG line: an extra finding of that rule is
accepted but not required. A reason may follow a marker after a dash, a semicolon or a
parenthesis (`// BUG: ctxflow — the watcher uses s.ctx`). `// OK?` lines: debatable, reported
separately.

A key judges the rules it was written for: those a file RULES at the corpus root lists (one
per line), or the first five rules. Findings of other rules are counted, not judged: a key
written before a rule existed says nothing of it.

A file DISPUTED at the corpus root lists planted findings the project deliberately does not
report, one per line: `file:line rule | why`. They stay misses (counted in FN and recall, and
printed with their reason); only --strict lets them pass. An entry that is found, or that
names no planted finding, fails --strict: the file must say what the tool does.

A file KNOWN lists, in the same form, planted findings the tool misses today and the project
has not decided to leave unreported: a limitation, with what it would take. They are counted
and printed the same way (KNOWN-MISS) and fail --strict the same way once found.
"""
import json, os, re, sys, collections

root = sys.argv[1]
findings = json.load(open(sys.argv[2]))


def local(path):
    """Findings are relative to the repository root: strip leading dirs until the file exists."""
    parts = path.split('/')
    for i in range(len(parts)):
        if os.path.exists(os.path.join(root, *parts[i:])):
            return '/'.join(parts[i:])
    return path


rules = ['ctxbackground', 'ctxflow', 'detach', 'missingdeadline', 'ctxless']
if os.path.exists(os.path.join(root, 'RULES')):
    rules = [l.strip() for l in open(os.path.join(root, 'RULES')) if l.strip() and not l.startswith('#')]
disputed = {}  # (file, line, rule) -> (label, why)
for name, label in (('DISPUTED', 'DISPUTED'), ('KNOWN', 'KNOWN-MISS')):
    if not os.path.exists(os.path.join(root, name)):
        continue
    for l in open(os.path.join(root, name)):
        if not l.strip() or l.startswith('#'):
            continue
        where, _, why = l.partition('|')
        loc, rule = where.split()
        p, line = loc.rsplit(':', 1)
        disputed[(p, int(line), rule)] = (label, why.strip())
unjudged = collections.Counter(f['rule'] for f in findings if f['rule'] not in rules)
findings = [f for f in findings if f['rule'] in rules]
for f in findings:
    f['file'] = local(f['file'])
exp = {}      # (file,line) -> set(rules)
also = {}
debatable = set()
for dp, dn, fn in os.walk(root):
    for f in fn:
        if not f.endswith('.go'):
            continue
        p = os.path.relpath(os.path.join(dp, f), root)
        for i, l in enumerate(open(os.path.join(dp, f)), 1):
            m = re.search(r'//\s*(\^?)BUG:\s*([a-z ,]+?)(?:\s+ALSO:\s*([a-z ,]+))?\s*(?:[—;(-].*)?$', l)
            if m:
                line = i - 1 if m.group(1) else i
                exp.setdefault((p, line), set()).update(r for r in re.split(r'[ ,]+', m.group(2)) if r)
                if m.group(3):
                    also.setdefault((p, line), set()).update(r for r in re.split(r'[ ,]+', m.group(3)) if r)
            if re.search(r'//\s*OK\?', l):
                debatable.add((p, i))
got = collections.Counter((f['file'], f['line'], f['rule']) for f in findings)
dups = [k for k, v in got.items() if v > 1]
tp = collections.Counter(); fp = []; fn = []; deb = []
for (p, l, r) in got:
    if r in exp.get((p, l), ()):
        tp[r] += 1
    elif r in also.get((p, l), ()):
        pass
    elif (p, l) in debatable:
        deb.append((p, l, r))
    else:
        fp.append((p, l, r))
for (p, l), rs in exp.items():
    for r in rs:
        if (p, l, r) not in got:
            fn.append((p, l, r))
print(f"{'rule':16} {'exp':>4} {'TP':>4} {'FP':>4} {'FN':>4} {'recall':>7} {'prec':>6}")
for r in rules:
    e = sum(1 for rs in exp.values() if r in rs)
    f = sum(1 for x in fp if x[2] == r); n = sum(1 for x in fn if x[2] == r)
    rec = tp[r] / e if e else 1; pr = tp[r] / (tp[r] + f) if tp[r] + f else 1
    print(f"{r:16} {e:4} {tp[r]:4} {f:4} {n:4} {rec:7.2f} {pr:6.2f}")
E = sum(len(v) for v in exp.values()); T = sum(tp.values())
print(f"{'total':16} {E:4} {T:4} {len(fp):4} {len(fn):4} {T/E:7.2f} {T/max(1,T+len(fp)):6.2f}")
for x in sorted(fp): print('FP', *x, '|', next(f['message'] for f in findings if (f['file'], f['line'], f['rule']) == x))
for x in sorted(fn):
    if x in disputed:
        print(disputed[x][0], *x, '|', disputed[x][1])
    else:
        print('FN', *x)
stale = [x for x in disputed if x not in fn]
for x in sorted(stale): print('STALE-DISPUTE', *x, '(found, or not planted: update DISPUTED or KNOWN)')
for x in sorted(deb): print('DEBATABLE', *x)
for x in dups: print('DUP', *x, got[x])
for r, n in sorted(unjudged.items()): print('UNJUDGED', r, n, '(a rule this key was not written for)')
gen = [f for f in findings if re.search(r'\.pb\.go$|\.connect\.go$', f['file'])]
for f in gen: print('GENERATED', f['file'], f['line'], f['rule'])
# With --strict (CI), any false positive, undisputed false negative, stale dispute, duplicate or
# generated-file finding fails.
if '--strict' in sys.argv[3:] and (fp or [x for x in fn if x not in disputed] or stale or dups or gen):
    sys.exit(1)
