package certify

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Certification results of the embedded suite, computed ahead of time and
// shipped in the binary, so that a cold `srezc validate` of the unmodified
// suite certifies nothing afresh (issue 18). Each entry is keyed by the
// cache's own key (certKey, fixKey: the task's body, the documentation,
// the fault and distractor kinds' sources, the id) hashed together with
// the digest of the certifier's code (the root package's CertifierCode:
// the sources of every package compilation runs, the stdlib, the embedded
// suite, the toolchain and the architecture). A binary whose certifier
// differs in any byte finds no entry and certifies as before; so does any
// edited or user incident, whose key differs. The compiler's
// TestShippedCertificates certifies every shipped task afresh and fails
// when the file differs from what it computes (SREZC_UPDATE=1 rewrites
// it).

// ShippedFile is the table's name beside this package's sources.
const ShippedFile = "shipped_certificates.txt"

// shippedHeader starts the table; it changes when the entry encoding does.
const shippedHeader = "srezc shipped certificates 1\n"

//go:embed shipped_certificates.txt
var shippedTable []byte

// shippedIndex maps an entry's hashed key to its encoded value.
var shippedIndex = sync.OnceValue(func() map[string][]byte {
	idx := map[string][]byte{}
	rest, ok := bytes.CutPrefix(shippedTable, []byte(shippedHeader))
	if !ok {
		return idx
	}
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		key, val, ok := bytes.Cut(line, []byte("\t"))
		if ok {
			idx[string(key)] = val
		}
	}
	return idx
})

// UseShipped makes the cache find the shipped results computed by the
// certifier whose code digest is code (see the top of the file), after
// its memory and disk miss. Commands use it; tests and benchmarks that
// measure certification do not.
func (c *Cache) UseShipped(code [sha256.Size]byte) {
	c.UseShippedLazily(func() [sha256.Size]byte { return code })
}

// UseShippedLazily is UseShipped with the digest computed by code on the
// first lookup that reaches the shipped table, once: a command that
// certifies nothing (a validate found in its own shipped table) does not
// pay for hashing the certifier's code.
func (c *Cache) UseShippedLazily(code func() [sha256.Size]byte) {
	c.mu.Lock()
	c.code = sync.OnceValue(code)
	c.mu.Unlock()
}

// shippedKey is where an entry of table under key lives in the shipped
// table of the certifier code.
func shippedKey(code [sha256.Size]byte, table, key string) string {
	h := sha256.New()
	h.Write(code[:])
	h.Write([]byte("\x00" + table + "\x00" + key))
	return table + "-" + hex.EncodeToString(h.Sum(nil))
}

// shipped decodes the shipped entry of table under key into v.
func (c *Cache) shipped(table, key string, v any) bool {
	if c == nil || c.code == nil {
		return false
	}
	b, ok := shippedIndex()[shippedKey(c.code(), table, key)]
	if !ok || json.Unmarshal(b, v) != nil {
		return false
	}
	c.shippedHits.Add(1)
	return true
}

// ShippedHits counts the results this cache took from the shipped table.
func (c *Cache) ShippedHits() int { return int(c.shippedHits.Load()) }

// Fresh counts the tasks this cache saw certified afresh: every lookup
// missed (memory, disk and shipped table).
func (c *Cache) Fresh() int { return int(c.fresh.Load()) }

// ShippedTable encodes every result and fixed_when finding the cache
// holds in memory as a shipped table for the certifier code: what the
// compiler's golden test writes after certifying the embedded suite with a
// fresh cache. Entries are sorted, so equal contents give equal bytes.
func (c *Cache) ShippedTable(code [sha256.Size]byte) []byte {
	c.mu.Lock()
	var lines []string
	add := func(table, key string, v any) {
		b, err := json.Marshal(v)
		if err == nil {
			lines = append(lines, shippedKey(code, table, key)+"\t"+string(b))
		}
	}
	for k, r := range c.tasks {
		add("result", k, r.stored())
	}
	for k, r := range c.fixes {
		d := []diskFix{}
		for _, f := range r {
			d = append(d, diskFix{f.fault, f.detail})
		}
		add("fixes", k, d)
	}
	c.mu.Unlock()
	slices.Sort(lines)
	return []byte(shippedHeader + shippedToolchainLine() + strings.Join(lines, "\n") + "\n")
}

// shippedToolchainLine names the toolchain and architecture the table's
// keys were made with (they are part of the certifier's digest); the
// index skips it, having no tab.
func shippedToolchainLine() string {
	return "toolchain " + runtime.Version() + " " + runtime.GOARCH + "\n"
}

// ShippedForThisToolchain reports whether the shipped table was made by
// this binary's toolchain and architecture: a table made by another has
// keys no lookup here can find, and cannot be checked here either.
func ShippedForThisToolchain() bool {
	rest, ok := bytes.CutPrefix(shippedTable, []byte(shippedHeader))
	return ok && bytes.HasPrefix(rest, []byte(shippedToolchainLine()))
}

// ShippedTableBytes is the table this binary ships.
func ShippedTableBytes() []byte { return shippedTable }

// cacheCounters are a Cache's counts of shipped hits and fresh
// certifications.
type cacheCounters struct {
	shippedHits atomic.Int64
	fresh       atomic.Int64
}
