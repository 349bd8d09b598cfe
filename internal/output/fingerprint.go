package output

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// fingerprintKey names deadlinelint's partial fingerprint in SARIF results. GitHub code scanning
// follows an alert across commits by it: it must not change when unrelated lines move.
const fingerprintKey = "deadlinelint/v1"

// A fingerprinter computes the partial fingerprints of one report's findings: a hash of the
// rule, the file and the text of the finding's line (trimmed), and of how many identical such
// triples came before it in the report — not of line numbers, which unrelated edits shift.
type fingerprinter struct {
	lines *columnConverter // reads source lines
	seen  map[string]int
}

func newFingerprinter(lines *columnConverter) *fingerprinter {
	return &fingerprinter{lines: lines, seen: make(map[string]int)}
}

// of returns f's fingerprint.
func (p *fingerprinter) of(f Finding) string {
	text := strings.TrimSpace(p.lines.line(f.Pos.File, f.Pos.Line))
	if text == "" {
		text = f.Message // the source is not readable: the message is the next most stable thing
	}
	key := f.Rule + "\x00" + f.Pos.File + "\x00" + text
	n := p.seen[key]
	p.seen[key]++
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", key, n)))
	return hex.EncodeToString(sum[:16])
}
