package certify

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"

	"github.com/srezc/srezc/engine"
)

// A cache kept on disk outlives the process, so that `srezc validate` of an
// unchanged suite, and every other command's start, finds its incidents
// certified. Its keys are the in-memory ones (what a result depends on),
// under a folder named for the code that wrote them: a result is only
// valid for the certifier that computed it. Disk errors are misses: the
// cache can make a command faster, never wrong or failing.

// diskFormat changes when the entry encoding does.
const diskFormat = "1"

// keptCodes is how many code versions' folders a cache root keeps: the
// others, least recently written first, are removed when one is opened.
const keptCodes = 4

// NewDiskCache returns a cache that also keeps its results under root, in
// a folder for code, the identity of the running certifier (see
// internal/buildid). When the folder cannot be made it returns an
// in-memory cache and the error.
func NewDiskCache(root, code string) (*Cache, error) {
	c := NewCache()
	sum := sha256.Sum256([]byte(diskFormat + "\x00" + code))
	dir := filepath.Join(root, hex.EncodeToString(sum[:12]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return c, err
	}
	// Touch it, so that trimming sees it as the newest.
	if f, err := os.CreateTemp(dir, ".touch-*"); err == nil {
		f.Close()
		os.Remove(f.Name())
	}
	trimCodes(root, dir)
	c.dir = dir
	return c, nil
}

// trimCodes removes all but the keptCodes most recently written folders
// of root, never keep.
func trimCodes(root, keep string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	type aged struct {
		path string
		mod  int64
	}
	var dirs []aged
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		dirs = append(dirs, aged{filepath.Join(root, e.Name()), info.ModTime().UnixNano()})
	}
	slices.SortFunc(dirs, func(a, b aged) int { return cmp.Compare(b.mod, a.mod) })
	kept := 0
	for _, d := range dirs {
		if d.path == keep {
			continue
		}
		kept++
		if kept >= keptCodes {
			os.RemoveAll(d.path)
		}
	}
}

// diskResult is a Result as stored.
type diskResult struct {
	Evidence []engine.Read `json:"evidence"`
	Optimal  int           `json:"optimal"`
	Plan     []string      `json:"plan"`
	Failures []diskFinding `json:"failures"`
	Hash     string        `json:"hash"`
	Expert   *[]string     `json:"expert,omitempty"`
}

type diskFinding struct {
	Text  string `json:"text"`
	Where where  `json:"where"`
	I     int    `json:"i"`
}

type diskFix struct {
	Fault  int    `json:"fault"`
	Detail string `json:"detail"`
}

func (r Result) stored() diskResult {
	d := diskResult{Evidence: r.evidence, Optimal: r.optimal, Plan: r.plan, Hash: r.hash}
	for _, f := range r.failures {
		d.Failures = append(d.Failures, diskFinding{f.text, f.where, f.i})
	}
	if r.expert != nil {
		d.Expert = &r.expert
	}
	return d
}

func (d diskResult) result() Result {
	r := Result{evidence: d.Evidence, optimal: d.Optimal, plan: d.Plan, hash: d.Hash}
	for _, f := range d.Failures {
		r.failures = append(r.failures, Finding{text: f.Text, where: f.Where, i: f.I})
	}
	if d.Expert != nil {
		r.expert = *d.Expert
	}
	return r
}

// file is where the entry of key in table lives.
func (c *Cache) file(table, key string) string {
	sum := sha256.Sum256([]byte(table + "\x00" + key))
	return filepath.Join(c.dir, table+"-"+hex.EncodeToString(sum[:]))
}

func (c *Cache) load(table, key string, v any) bool {
	if c.dir == "" {
		return false
	}
	b, err := os.ReadFile(c.file(table, key))
	if err != nil {
		return false
	}
	return json.Unmarshal(b, v) == nil
}

// store writes an entry whole or not at all: to a temporary file first,
// then renamed into place.
func (c *Cache) store(table, key string, v any) {
	if c.dir == "" {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	c.storeBytes(table, key, b)
}

func (c *Cache) storeBytes(table, key string, b []byte) {
	f, err := os.CreateTemp(c.dir, ".entry-*")
	if err != nil {
		return
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if werr != nil || cerr != nil || os.Rename(f.Name(), c.file(table, key)) != nil {
		os.Remove(f.Name())
	}
}
