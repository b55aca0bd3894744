package compiler

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

// Mutation turns a mutation block into certified tasks: every variant of
// its space (or a seeded sample of it) compiles with a derived alert and
// the certified informed optimum as its expert plan; a variant that does
// not certify is reported with the reasons and not emitted, and variants
// whose compiled behaviour is the same are one task.

// MutateOptions choose the variants and how they compile.
type MutateOptions struct {
	// Sample, when positive, draws that many distinct variants of the
	// viable space with Seed; otherwise every variant is tried.
	Sample  int
	Seed    uint64
	Workers int // 0: GOMAXPROCS
	// Keep, when set, restricts the space to the variants it accepts (a
	// held-out partition is kept out this way).
	Keep func(*lang.Variant) bool
	// IDKey, when set, keys the variants' ids and content: an HMAC of the
	// variant's axes under it names the variant, and a stream keyed by it
	// draws its site, history and parameters (heldout.go). The unkeyed id (lang's Variant.Key, a digest of the
	// fault, target and parameters) can be recomputed over the public
	// space, so a held-out id would name its own answer; a keyed one
	// cannot be inverted without the key.
	IDKey []byte
	// KeyOnly, when set, limits IDKey to the variants it accepts (the
	// held-out partition), so public ids stay as they are.
	KeyOnly func(*lang.Variant) bool
	// Cache caches the variants' certification (nil: none).
	Cache *certify.Cache
}

// Variant is the outcome of one variant, in the space's order.
type Variant struct {
	lang.Variant
	Incident *lang.Incident
	// Task is the certified task; nil when the variant was rejected or is
	// a duplicate.
	Task *engine.Task
	// Reasons say why a rejected variant did not compile or certify.
	Reasons []string
	// DuplicateOf names the earlier variant with the same behaviour.
	DuplicateOf string
	// Difficulty is estimated from the certified task (EstimateDifficulty).
	Difficulty string
}

// Mutate runs a mutation and calls emit with each variant's outcome, in
// the space's order, whatever the number of workers: the output is a pure
// function of the module, the mutation and the options.
func Mutate(m *lang.Module, mu *lang.Mutation, opt MutateOptions, emit func(*Variant)) {
	var picked []lang.Variant
	space := func(yield func(*lang.Variant) bool) {
		m.Space(mu, func(v *lang.Variant) bool {
			if opt.Keep != nil && !opt.Keep(v) {
				return true
			}
			return yield(v)
		})
	}
	if opt.Sample > 0 {
		total := 0
		space(func(*lang.Variant) bool { total++; return true })
		want := sampleIndexes(total, opt.Sample, opt.Seed)
		i := 0
		space(func(v *lang.Variant) bool {
			if len(want) > 0 && want[0] == i {
				picked = append(picked, *v)
				want = want[1:]
			}
			i++
			return len(want) > 0
		})
	} else {
		space(func(v *lang.Variant) bool { picked = append(picked, *v); return true })
	}

	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// Variants compile in parallel, each into its own slot; emitting in
	// order keeps the output independent of scheduling. A window bounds
	// what is held in memory.
	const window = 256
	seen := map[string]string{}
	for start := 0; start < len(picked); start += window {
		batch := picked[start:min(start+window, len(picked))]
		out := make([]*Variant, len(batch))
		next := make(chan int)
		var wg sync.WaitGroup
		for w := 0; w < min(workers, len(batch)); w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					key := opt.IDKey
					if opt.KeyOnly != nil && !opt.KeyOnly(&batch[i]) {
						key = nil
					}
					out[i] = compileVariant(m, mu, batch[i], key, opt.Cache)
				}
			}()
		}
		for i := range batch {
			next <- i
		}
		close(next)
		wg.Wait()
		for _, v := range out {
			if v.Task != nil {
				key := behaviourHash(v.Task)
				if first, dup := seen[key]; dup {
					v.DuplicateOf, v.Task = first, nil
				} else {
					seen[key] = v.Task.ID
				}
			}
			emit(v)
		}
	}
}

func compileVariant(m *lang.Module, mu *lang.Mutation, lv lang.Variant, idKey []byte, c *certify.Cache) *Variant {
	in := m.VariantIncident(mu, &lv)
	if len(idKey) > 0 {
		in.Name = KeyedVariantName(idKey, mu, &lv)
		heldOutContent(m, mu, &lv, in, idKey)
	}
	v := &Variant{Variant: lv, Incident: in}
	t, diags := CompileIncident(m, in, Options{ExpertFromPlan: true, Cache: c})
	if t == nil {
		for _, d := range diags {
			v.Reasons = append(v.Reasons, d.Summary+": "+d.Detail)
		}
		return v
	}
	if lv.Cascade {
		if s := alertingService(t); s < 0 || faultyService(t, s) {
			name := "no service"
			if s >= 0 {
				name = t.Services[s].Name
			}
			v.Reasons = append(v.Reasons, "Not a cascade: the alert names "+name+", which has a fault; a cascade's alert names a service downstream of the fault.")
			return v
		}
	}
	v.Task = t
	v.Difficulty = t.Difficulty // estimated when it compiled
	return v
}

// alertingService is the service a compiled task's alert is about.
func alertingService(t *engine.Task) int {
	ep := engine.NewEpisode(t)
	ep.Reset(0)
	ep.Advance()
	return certify.AlertingService(t, ep.Row())
}

func faultyService(t *engine.Task, s int) bool {
	return slices.ContainsFunc(t.Faults, func(f engine.Fault) bool { return int(f.Service) == s })
}

// KeyedVariantName is a variant's id under a key: the mutation's name and
// 48 bits of an HMAC-SHA-256 of every axis of the variant.
func KeyedVariantName(key []byte, mu *lang.Mutation, v *lang.Variant) string {
	m := hmac.New(sha256.New, key)
	field := func(s string) {
		var n [binary.MaxVarintLen64]byte
		m.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
		m.Write([]byte(s))
	}
	field(mu.Name)
	field(v.Fault)
	field(v.Target)
	for _, p := range v.Params {
		field(p.Name)
		field(p.Value.String())
	}
	field(v.Distractor)
	field(v.DistractorTarget)
	field(v.Noise)
	// A single fault's id is what it was before pairs and cascades.
	if v.Fault2 != "" {
		field(v.Fault2)
		field(v.Target2)
		for _, p := range v.Params2 {
			field(p.Name)
			field(p.Value.String())
		}
	}
	if v.Cascade {
		field("cascade")
	}
	return mu.Name + "_" + hex.EncodeToString(m.Sum(nil)[:6])
}

// behaviourHash identifies what a task does, whatever it is called: the
// body hash the compiler sealed it with (the id is outside the body).
func behaviourHash(t *engine.Task) string {
	if t.Behaviour != "" {
		return t.Behaviour
	}
	body := engine.BodyHash(t)
	return hex.EncodeToString(body[:])
}

// sampleIndexes draws k distinct indexes of [0, n) with a seeded PRNG
// (Floyd's algorithm), sorted.
func sampleIndexes(n, k int, seed uint64) []int {
	if k >= n {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	chosen := map[int]bool{}
	for j := n - k; j < n; j++ {
		x := rng.IntN(j + 1)
		if chosen[x] {
			x = j
		}
		chosen[x] = true
	}
	out := make([]int, 0, k)
	for i := range chosen {
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}

// EstimateDifficulty grades a certified task from its features: easy when
// the first service to show a symptom is the faulty one and the certified
// optimum needs one read; hard when that service is only a victim or the
// task has two faults; medium otherwise. A mutation variant's compiled task carries it already.
func EstimateDifficulty(t *engine.Task) string {
	return difficultyOf(t, alertingService(t))
}

func difficultyOf(t *engine.Task, alerting int) string {
	switch {
	case !faultyService(t, alerting):
		return "hard"
	case len(t.Faults) > 1:
		// The alert shows one of two causes: the other is found only by
		// looking past the first.
		return "hard"
	case len(t.Evidence) <= 1 && len(t.Distractors) == 0:
		return "easy"
	}
	return "medium"
}
