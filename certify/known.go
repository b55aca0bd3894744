package certify

import (
	"bufio"
	"bytes"
	_ "embed"
	"path"
	"strings"
	"sync"

	"github.com/srezc/srezc/lang"
)

// Known exploits: the shipped suite's incidents that an adaptive policy
// still wins, each excused with a reason while the world is being fixed
// (issue 18). The list lives here, not in the incident language, so no
// author can excuse a task of their own: a win is excused only for a
// shipped incident whose source is byte for byte the one embedded in this
// build, and never for a mutation variant. TestKnownExploits fails when an
// entry is no longer needed, so the list only shrinks.

// KnownExploitsFile is the list's path in the repository.
const KnownExploitsFile = "certify/known_exploits.txt"

//go:embed known_exploits.txt
var knownExploitsText []byte

// KnownExploit is one excused win: a policy on a shipped incident.
type KnownExploit struct {
	Incident, Policy, Reason string
}

// KnownExploits parses the list: one entry a line, "INCIDENT POLICY
// REASON...", with blank lines and #-comments skipped; a line with fewer
// than three fields is returned with what it has (TestKnownExploits
// rejects it).
func KnownExploits(text []byte) []KnownExploit {
	var out []KnownExploit
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		e := KnownExploit{Incident: f[0]}
		if len(f) > 1 {
			e.Policy = f[1]
		}
		if len(f) > 2 {
			e.Reason = strings.Join(f[2:], " ")
		}
		out = append(out, e)
	}
	return out
}

// ShippedKnownExploits is the list this build embeds.
var ShippedKnownExploits = sync.OnceValue(func() []KnownExploit { return KnownExploits(knownExploitsText) })

// shippedSources maps each embedded incident file's base name to its source.
var shippedSources = sync.OnceValue(func() map[string][]byte {
	out := map[string][]byte{}
	for _, f := range lang.ScenarioFiles() {
		out[path.Base(f.Name)] = f.Src
	}
	return out
})

// IsShipped reports whether in is a shipped incident as this build embeds
// it: its file has the name and the bytes of an embedded scenario file.
func IsShipped(m *lang.Module, in *lang.Incident) bool {
	if in == nil {
		return false
	}
	name := in.DefRange.Filename
	src, ok := shippedSources()[path.Base(name)]
	if !ok {
		return false
	}
	for _, f := range m.Files {
		if f.Name == name {
			return bytes.Equal(f.Src, src)
		}
	}
	return false
}

// KnownReason is the reason a win of policy on the shipped incident id is
// excused; ok is false when it is not.
func KnownReason(id, policy string) (reason string, ok bool) {
	for _, e := range ShippedKnownExploits() {
		if e.Incident == id && e.Policy == policy {
			return e.Reason, true
		}
	}
	return "", false
}
