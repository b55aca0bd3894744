package certify

import (
	"crypto/sha256"
	"encoding/json"
	"runtime"
	"sync"
	"weak"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/published"
)

// The adaptive panel plays with the module's published documentation,
// which every incident of a module shares and which costs as much to
// build as certifying a small incident. So it is built once per module
// and kept while the module lives: a memo keyed by a weak pointer, which
// a module's collection removes. A module is not changed after analysis
// (edits analyse anew), so the memo is a pure function of it.

type docs struct {
	once      sync.Once
	knowledge *agents.Knowledge
	// digest identifies the knowledge in certification's cache key: the
	// panel's outcomes depend on it.
	digest [sha256.Size]byte
}

var docsMemo sync.Map // weak.Pointer[lang.Module] → *docs

// docsOf returns the module's published documentation.
func docsOf(m *lang.Module) *docs {
	key := weak.Make(m)
	v, ok := docsMemo.Load(key)
	if !ok {
		var loaded bool
		v, loaded = docsMemo.LoadOrStore(key, &docs{})
		if !loaded {
			runtime.AddCleanup(m, func(k weak.Pointer[lang.Module]) { docsMemo.Delete(k) }, key)
		}
	}
	d := v.(*docs)
	d.once.Do(func() {
		d.knowledge = published.Knowledge(m, lang.ProfileNative)
		data, err := json.Marshal(d.knowledge) // maps marshal sorted
		if err != nil {
			panic(err) // plain data always marshals
		}
		d.digest = sha256.Sum256(data)
	})
	return d
}

// Knowledge is what the adaptive panel knows of the module m: its
// published documentation (published.Knowledge under the native rubric),
// built once per module.
func Knowledge(m *lang.Module) *agents.Knowledge { return docsOf(m).knowledge }
