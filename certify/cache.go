package certify

import (
	"crypto/sha256"
	"os"
	"sync"
)

// Cache holds certification results by what they depend on (see Cached
// and Fixes), so that an editor re-validating an unchanged incident, or
// mutation revisiting a task, certifies it once. The caller owns it: a
// command makes one per process, a server or editor one for its life, a
// benchmark a fresh one when it measures certification itself. A nil
// *Cache caches nothing. It is safe for concurrent use.
type Cache struct {
	mu    sync.Mutex
	tasks map[string]Result
	fixes map[string][]fixFinding
	// dir holds the entries on disk (see NewDiskCache); "" keeps them in
	// memory only.
	dir string
	// code, when set, gives the certifier digest whose shipped results
	// the cache may use (UseShipped, shipped.go).
	code func() [sha256.Size]byte
	cacheCounters
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{tasks: map[string]Result{}, fixes: map[string][]fixFinding{}}
}

// maxCertified bounds each table of the cache; when full it starts over.
const maxCertified = 1 << 12

func (c *Cache) result(k string) (Result, bool) {
	if c == nil {
		return Result{}, false
	}
	c.mu.Lock()
	r, ok := c.tasks[k]
	c.mu.Unlock()
	if ok {
		return r, true
	}
	var d diskResult
	if !c.load("result", k, &d) {
		d = diskResult{}
		if !c.shipped("result", k, &d) {
			return Result{}, false
		}
	}
	r = d.result()
	c.remember(k, r)
	return r, true
}

func (c *Cache) putResult(k string, r Result) {
	if c == nil {
		return
	}
	c.store("result", k, r.stored())
	c.remember(k, r)
}

func (c *Cache) remember(k string, r Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.tasks) >= maxCertified {
		clear(c.tasks)
	}
	c.tasks[k] = r
}

func (c *Cache) fixFindings(k string) ([]fixFinding, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	r, ok := c.fixes[k]
	c.mu.Unlock()
	if ok {
		return r, true
	}
	var d []diskFix
	if !c.load("fixes", k, &d) {
		d = nil
		if !c.shipped("fixes", k, &d) {
			return nil, false
		}
	}
	for _, f := range d {
		r = append(r, fixFinding{fault: f.Fault, detail: f.Detail})
	}
	c.rememberFixes(k, r)
	return r, true
}

func (c *Cache) putFixFindings(k string, r []fixFinding) {
	if c == nil {
		return
	}
	d := []diskFix{}
	for _, f := range r {
		d = append(d, diskFix{f.fault, f.detail})
	}
	c.store("fixes", k, d)
	c.rememberFixes(k, r)
}

func (c *Cache) rememberFixes(k string, r []fixFinding) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.fixes) >= maxCertified {
		clear(c.fixes)
	}
	c.fixes[k] = r
}

// Output is a command's output stored under key by PutOutput, from the
// disk only: commands whose result is a function of srezc's code and their
// inputs keep it here (srezc validate).
func (c *Cache) Output(key string) ([]byte, bool) {
	if c == nil || c.dir == "" {
		return nil, false
	}
	b, err := os.ReadFile(c.file("output", key))
	return b, err == nil
}

// PutOutput stores a command's output under key (see Output).
func (c *Cache) PutOutput(key string, b []byte) {
	if c == nil || c.dir == "" {
		return
	}
	c.storeBytes("output", key, b)
}
