package action

import (
	"strconv"
	"strings"
	"testing"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/record"
)

// A Cache stays bounded whatever it is fed: distinct texts start it over
// when full, and long ones are never kept; a text bound through it binds
// as it does uncached.
func TestCacheIsBounded(t *testing.T) {
	native := &engine.Task{Profile: record.ProfileNative}
	ref := &engine.Task{Profile: record.ProfileSreZero}
	var c Cache
	for i := range 3 * maxParsed {
		text := "inspect_logs(s" + strconv.Itoa(i) + ")"
		c.Bind(native, text)
		c.Bind(ref, text)
		if len(c.native) > maxParsed || len(c.ref) > maxParsed {
			t.Fatalf("after %d texts the cache holds %d and %d, more than %d", i+1, len(c.native), len(c.ref), maxParsed)
		}
	}
	long := "escalate(" + strings.Repeat("x", maxParsedLen) + ")"
	c.Bind(native, long)
	c.Bind(ref, long)
	if _, ok := c.native[long]; ok {
		t.Error("a text longer than maxParsedLen was kept")
	}
	if _, ok := c.ref[long]; ok {
		t.Error("a text longer than maxParsedLen was kept by the sre_zero cache")
	}
	for _, text := range []string{"inspect_logs(cache)", "inspect_logs(", "  escalate(\"x\")  ", long} {
		for _, tk := range []*engine.Task{native, ref} {
			cached, fresh := c.Bind(tk, text), (&Cache{}).Bind(tk, text)
			if cached.Err != fresh.Err || cached.Canon != fresh.Canon || cached.Detail != fresh.Detail {
				t.Errorf("%s %q: cached %+v, fresh %+v", tk.Profile, text, cached, fresh)
			}
		}
	}
}
