package certify

import "github.com/srezc/srezc/engine"

// What the external tests (package certify_test, which may import the
// compiler to build incidents) read of certification's internals.

var (
	Play           = play
	AllReads       = allReads
	BindRead       = bindRead
	Differing      = differing
	StringOf       = stringOf
	CertKey        = certKey
	FixedWhenRange = fixedWhenRange
)

func Without[T any](list []T, i int) []T { return without(list, i) }

// Derivation is deriveEvidence's result.
type Derivation struct{ d *derived }

func Derive(inc Incident) Derivation { return Derivation{deriveEvidence(inc)} }

func (x Derivation) Reads() []engine.Read        { return x.d.reads }
func (x Derivation) Evidence() [][]int           { return x.d.evidence }
func (x Derivation) Alerting() int               { return x.d.alerting }
func (x Derivation) Failures() []Finding         { return x.d.failures }
func (x Derivation) AddChosen(read int)          { x.d.chosen = append(x.d.chosen, read) }
func (x Derivation) Texts(fs []Finding) []string { return texts(fs) }

func (x Derivation) CheckExpert(t *engine.Task) []Finding { return x.d.checkExpert(t) }

// AltHits lists each alternative's distinguishing reads.
func (x Derivation) AltHits() [][]int {
	var out [][]int
	for _, a := range x.d.alts {
		out = append(out, a.hits)
	}
	return out
}

func (f Finding) AtDistractor() bool { return f.where == atDistractor }

// CheckFixedWhen is the fixed_when cross-check's findings, uncached.
func CheckFixedWhen(inc Incident) []string {
	var out []string
	for _, f := range checkFixedWhen(inc) {
		out = append(out, f.detail)
	}
	return out
}

// Results is how many certification results the cache holds.
func (c *Cache) Results() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.tasks)
}

func (r Result) Plan() []string { return r.plan }
func (r Result) Optimal() int   { return r.optimal }
