// Package suitegen builds a task suite from a suite_spec: certified
// variants of the spec's mutations, split into train, dev and test, each
// with a difficulty estimated from its certified features and calibrated
// against the greedy baseline's success on the train split. The same
// module and spec give byte-identical output.
package suitegen

import (
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/facts"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// Task is one generated task: its incident (alert, expert plan, split and
// difficulty filled in), the compiled task, and its difficulty score.
type Task struct {
	Mutation string
	Incident *lang.Incident
	Task     *engine.Task
	Score    float64
	Greedy   bool // greedy's episode succeeded (train and dev only)
}

// Calibration is greedy's measured success per difficulty on a split.
type Calibration struct {
	Split    string
	Tasks    map[string]int
	Success  map[string]float64
	Monotone bool // success falls from easy to medium to hard (or holds)
}

// Suite is a built suite.
type Suite struct {
	Spec       *lang.SuiteSpec
	Tasks      []*Task // in the order they were drawn
	Rejected   int     // variants that did not certify
	Duplicates int     // variants that behaved as an earlier one
	// NearDuplicates counts drawn tasks that fell in the band of an
	// earlier one; NearDropped those left out over the spec's cap.
	NearDuplicates, NearDropped int
	Thresholds                  [2]float64 // scores at or below [0] are easy, above [1] hard
	Calibrations                []Calibration
	// certified certifies the drawn variants (BuildUnder).
	certified *certify.Cache
	// bands are the near-duplicate bands met so far, by band key.
	bands map[string][]*band
}

// NearBand is how far apart, relative to the larger, two numeric
// parameter values of near-duplicates may be.
const NearBand = 0.10

// band is a set of near-duplicates: its first task's numeric parameters
// and how many tasks it holds.
type band struct {
	params map[string]float64
	tasks  int
}

// bandKey is what near-duplicates share exactly: the mutation, every
// fault's kind, target and non-numeric parameters, the distractors and
// noise (another suspect to rule out is another task), and the certified
// evidence.
func bandKey(t *Task) (string, map[string]float64) {
	var b strings.Builder
	nums := map[string]float64{}
	b.WriteString(t.Mutation)
	for i, fu := range t.Incident.Faults {
		fmt.Fprintf(&b, "|%s@%s", fu.Name, fu.Target)
		names := make([]string, 0, len(fu.Params))
		for n := range fu.Params {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			v := fu.Params[n]
			if v.K == value.Int || v.K == value.Float {
				nums[fmt.Sprintf("%d.%s", i, n)] = v.AsFloat()
				continue
			}
			fmt.Fprintf(&b, ";%s=%s", n, v)
		}
	}
	for _, du := range t.Incident.Distractors {
		fmt.Fprintf(&b, "|+%s@%s", du.Name, du.Target)
	}
	for _, nu := range t.Incident.Noise {
		fmt.Fprintf(&b, "|~%s", nu.Name)
	}
	for _, e := range t.Task.Evidence {
		fmt.Fprintf(&b, "|%d:%d:%d", e.Tool, e.Service, e.Key)
	}
	return b.String(), nums
}

// near reports whether every numeric parameter of a is within NearBand of
// b's.
func near(a, b map[string]float64) bool {
	for k, x := range a {
		y := b[k]
		if math.Abs(x-y) > NearBand*max(math.Abs(x), math.Abs(y)) {
			return false
		}
	}
	return true
}

// admit files t in its band and reports whether the band has room for it
// under the spec's cap.
func (s *Suite) admit(t *Task) bool {
	if s.bands == nil {
		s.bands = map[string][]*band{}
	}
	key, nums := bandKey(t)
	for _, b := range s.bands[key] {
		if near(nums, b.params) {
			s.NearDuplicates++
			if b.tasks >= s.Spec.NearDuplicates {
				s.NearDropped++
				return false
			}
			b.tasks++
			return true
		}
	}
	s.bands[key] = append(s.bands[key], &band{params: nums, tasks: 1})
	return true
}

// Build generates the suite a spec describes. With a secret (the seed
// whose SHA-256 the spec publishes) the test split is held out: drawn with
// the secret from the spec's reserved partition (or the whole space), and
// tagged heldout; without it, the reserved partition is never emitted and
// every split comes from the public seed.
func Build(m *lang.Module, spec *lang.SuiteSpec, workers int, secret string) (*Suite, error) {
	return BuildUnder(certify.NewCache(), m, spec, workers, secret)
}

// BuildUnder is Build certifying through the cache c (a command's cache,
// kept across its compiles).
func BuildUnder(c *certify.Cache, m *lang.Module, spec *lang.SuiteSpec, workers int, secret string) (*Suite, error) {
	s := &Suite{Spec: spec, certified: c}
	if secret != "" && !spec.SecretMatches(secret) {
		return nil, fmt.Errorf("the secret seed does not match %s's secret_hash", spec.Name)
	}
	heldOut := secret != ""
	nTest := 0
	if heldOut {
		total := spec.Splits["train"] + spec.Splits["dev"] + spec.Splits["test"]
		nTest = int(float64(spec.Tasks)*spec.Splits["test"]/total + 0.5)
	}
	public := func(v *lang.Variant) bool { return !spec.Reserved(v) }
	tasks, err := s.draw(m, workers, uint64(spec.Seed), spec.Tasks-nTest, public, nil)
	if err != nil {
		return nil, err
	}
	if heldOut {
		sum := sha256.Sum256([]byte(secret))
		reserved := func(v *lang.Variant) bool { return spec.Reserved(v) }
		if spec.Reserve == "" {
			reserved = nil
		}
		// The held-out ids are keyed with the secret: an unkeyed id could
		// be recomputed over the public space and would name its answer.
		idKey := HeldOutIDKey(secret)
		test, err := s.draw(m, workers, binary.LittleEndian.Uint64(sum[:8]), nTest, reserved, idKey)
		if err != nil {
			return nil, err
		}
		shares := map[string]float64{"train": spec.Splits["train"], "dev": spec.Splits["dev"]}
		assignSplits(tasks, shares)
		// A held-out variant's content is drawn from the secret, so it
		// never behaves as a public one (TestHeldOutIsSecret); should it,
		// it is public. A held-out task in the band of a public one counts
		// against that band's cap like any other.
		seen := map[string]bool{}
		for _, t := range tasks {
			seen[behaviour(t.Task)] = true
		}
		tag := "heldout:" + spec.SecretHash[:16]
		for _, t := range test {
			if seen[behaviour(t.Task)] {
				continue
			}
			t.Incident.Tags = append(t.Incident.Tags, "heldout", tag)
			t.Task.Tags = t.Incident.Tags
			t.Task.Split, t.Incident.Split = "test", "test"
			tasks = append(tasks, t)
		}
	} else {
		assignSplits(tasks, spec.Splits)
	}
	s.Tasks = tasks

	// Greedy, the independent yardstick, plays every train and dev task
	// once (it is deterministic, and blind to the labels to come).
	k := facts.Knowledge(m, lang.ProfileNative)
	var train []*Task
	for _, t := range s.Tasks {
		if t.Task.Split == "train" || t.Task.Split == "dev" {
			t.Greedy = eval.Play(t.Task, agents.NewGreedy(k), 0, 1, false).Record.Success
		}
		if t.Task.Split == "train" {
			train = append(train, t)
		}
	}
	// Calibration: the two score thresholds, among the train scores, whose
	// labels on train come closest to the spec's mix while greedy's success
	// on train falls from easy to medium to hard (and is higher on easy
	// than on hard).
	s.Thresholds = calibrate(train, spec.Mix)
	for _, t := range s.Tasks {
		d := grade(t.Score, s.Thresholds)
		t.Incident.Difficulty, t.Task.Difficulty = d, d
		t.Incident.Split = t.Task.Split
		t.Incident.Alert, t.Incident.Expert = t.Task.Alert, compiler.SourceExpert(t.Task)
		t.Task.Hash = engine.ComputeHash(t.Task)
	}
	// The ordering is calibrated on train and tested on dev.
	for _, split := range []string{"train", "dev"} {
		var tasks []*Task
		for _, t := range s.Tasks {
			if t.Task.Split == split {
				tasks = append(tasks, t)
			}
		}
		s.Calibrations = append(s.Calibrations, measure(split, tasks, s.Thresholds))
	}
	return s, nil
}

// draw samples certified, distinct variants of the spec's mutations with
// a seed, keeping those keep accepts (nil: all), shuffles them with the
// seed and returns n of them.
// HeldOutIDKey is the key of held-out variants' ids and content, derived
// from the secret seed: the same secret gives the same ids, sites,
// history, parameters and alert wording, and without it they can neither
// be mapped back to their variants nor enumerated.
func HeldOutIDKey(secret string) []byte {
	key, err := hkdf.Key(sha256.New, []byte(secret), nil, "srezc held-out variant id v1", 32)
	if err != nil {
		panic(err) // only for a key length SHA-256 cannot give
	}
	return key
}

// behaviour identifies what a task does, whatever its id.
func behaviour(t *engine.Task) string {
	if t.Behaviour != "" {
		return t.Behaviour
	}
	body := engine.BodyHash(t)
	return hex.EncodeToString(body[:])
}

func (s *Suite) draw(m *lang.Module, workers int, seed uint64, n int, keep func(*lang.Variant) bool, idKey []byte) ([]*Task, error) {
	spec := s.Spec
	var muts []*lang.Mutation
	sizes := map[string]int{}
	total := 0
	for _, name := range spec.Mutations {
		mu := m.Mutation(name)
		if mu == nil {
			return nil, fmt.Errorf("no mutation named %q", name)
		}
		k := 0
		m.Space(mu, func(v *lang.Variant) bool {
			if keep == nil || keep(v) {
				k++
			}
			return true
		})
		muts, sizes[name], total = append(muts, mu), k, total+k
	}
	if n > 0 && total == 0 {
		return nil, fmt.Errorf("the mutations of %s have no variant to draw", spec.Name)
	}
	var out []*Task
	certified := s.certified
	for _, mu := range muts {
		if n == 0 || sizes[mu.Name] == 0 {
			continue
		}
		// A margin over the count: some variants do not certify, some
		// behave as others, some are kept out.
		want := (n*sizes[mu.Name]*3/2 + total - 1) / total
		muSeed := seed
		for _, c := range mu.Name {
			muSeed = muSeed*31 + uint64(c)
		}
		// Sample the whole space and filter: the sample's indexes are over
		// the space, so ask for enough that the kept part covers want.
		whole := 0
		m.Space(mu, func(*lang.Variant) bool { whole++; return true })
		ask := min(whole, (want*whole+sizes[mu.Name]-1)/sizes[mu.Name])
		compiler.Mutate(m, mu, compiler.MutateOptions{Sample: ask, Seed: muSeed, Workers: workers, IDKey: idKey, Cache: certified}, func(v *compiler.Variant) {
			switch {
			case keep != nil && !keep(&v.Variant):
			case v.DuplicateOf != "":
				s.Duplicates++
			case v.Task == nil:
				s.Rejected++
			default:
				out = append(out, &Task{Mutation: mu.Name, Incident: v.Incident, Task: v.Task, Score: Score(v.Task)})
			}
		})
	}
	rng := rand.New(rand.NewPCG(seed, 0x5017e))
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	kept := out[:0]
	for _, t := range out {
		if len(kept) == n {
			break
		}
		if s.admit(t) {
			kept = append(kept, t)
		}
	}
	return kept, nil
}

// Score grades a certified task's features: the alert naming a victim
// rather than the faulty service counts most (the first-anomaly habit
// fails there), then each evidence read beyond one, each distractor and
// noise that changes what metrics or processes show. The routine log noise
// every shipped incident carries (health-check flaps, retries, warnings)
// is the background of a healthy day, not a feature of the task.
func Score(t *engine.Task) float64 {
	noise := 0
	for _, n := range t.Noise {
		switch n.Effect {
		case engine.NoiseHealthCheckFlap, engine.NoiseRetry, engine.NoiseWarning:
		default:
			noise++
		}
	}
	score := float64(len(t.Evidence)-1) + 0.5*float64(len(t.Distractors)) + 0.25*float64(noise)
	// A variant's compiled difficulty is compiler.EstimateDifficulty's.
	if t.Difficulty == "hard" {
		score += 3
	}
	return score
}

func assignSplits(tasks []*Task, shares map[string]float64) {
	total := shares["train"] + shares["dev"] + shares["test"]
	nTrain := int(float64(len(tasks))*shares["train"]/total + 0.5)
	nDev := int(float64(len(tasks))*shares["dev"]/total + 0.5)
	for i, t := range tasks {
		split := "test"
		switch {
		case i < nTrain:
			split = "train"
		case i < nTrain+nDev:
			split = "dev"
		}
		t.Task.Split, t.Incident.Split = split, split
	}
}

func grade(score float64, th [2]float64) string {
	switch {
	case score <= th[0]:
		return "easy"
	case score > th[1]:
		return "hard"
	}
	return "medium"
}

// measure is greedy's success per difficulty over tasks graded by th.
func measure(split string, tasks []*Task, th [2]float64) Calibration {
	c := Calibration{Split: split, Tasks: map[string]int{}, Success: map[string]float64{}}
	for _, t := range tasks {
		d := grade(t.Score, th)
		c.Tasks[d]++
		if t.Greedy {
			c.Success[d]++
		}
	}
	for d, n := range c.Tasks {
		c.Success[d] /= float64(n)
	}
	c.Monotone = c.Success["easy"] >= c.Success["medium"] && c.Success["medium"] >= c.Success["hard"]
	return c
}

// calibrate tries every pair of thresholds drawn from the train scores and
// keeps the one whose train labels are nearest the mix among those under
// which greedy's train success falls with difficulty (easy above hard).
// With no such pair it falls back to the mix's quantiles.
func calibrate(train []*Task, mix map[string]float64) [2]float64 {
	var scores []float64
	for _, t := range train {
		scores = append(scores, t.Score)
	}
	fallback := thresholds(scores, mix)
	if len(train) == 0 {
		return fallback
	}
	cands := slices.Clone(scores)
	sort.Float64s(cands)
	cands = slices.Compact(cands)
	cands = append([]float64{cands[0] - 1}, cands...) // "no easy task"
	total := mix["easy"] + mix["medium"] + mix["hard"]
	best, bestCost := fallback, math.Inf(1)
	for i, lo := range cands {
		for _, hi := range cands[i:] {
			th := [2]float64{lo, hi}
			c := measure("train", train, th)
			if !c.Monotone || c.Success["easy"] <= c.Success["hard"] {
				continue
			}
			cost := 0.0
			for _, d := range []string{"easy", "medium", "hard"} {
				cost += math.Abs(float64(c.Tasks[d])/float64(len(train)) - mix[d]/total)
			}
			if cost < bestCost-1e-12 {
				best, bestCost = th, cost
			}
		}
	}
	return best
}

// thresholds picks the scores that cut the sorted train scores at the
// mix's easy and easy+medium shares.
func thresholds(scores []float64, mix map[string]float64) [2]float64 {
	if len(scores) == 0 {
		return [2]float64{0, 0}
	}
	sorted := slices.Clone(scores)
	sort.Float64s(sorted)
	total := mix["easy"] + mix["medium"] + mix["hard"]
	at := func(share float64) float64 {
		i := int(share/total*float64(len(sorted))+0.5) - 1
		return sorted[max(0, min(i, len(sorted)-1))]
	}
	lo := at(mix["easy"])
	if mix["easy"] == 0 {
		lo = sorted[0] - 1
	}
	return [2]float64{lo, max(lo, at(mix["easy"]+mix["medium"]))}
}

// Sources writes the suite: every incident, in draw order, in one file,
// and the suite block of its lists in another.
func (s *Suite) Sources() (incidents, manifest []byte) {
	var b strings.Builder
	lists := map[string][]string{}
	for i, t := range s.Tasks {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.Write(lang.IncidentSource(t.Incident, fmt.Sprintf("Generated by suite_spec %s from mutation %s (score %.2f).", s.Spec.Name, t.Mutation, t.Score)))
		lists[t.Task.Difficulty] = append(lists[t.Task.Difficulty], t.Task.ID)
		lists[t.Task.Split] = append(lists[t.Task.Split], t.Task.ID)
	}
	manifest = lang.SuiteSource(s.Spec.Name, fmt.Sprintf("Suite %s, generated by srezc suite build with seed %d: %d variants rejected, %d duplicates, %d near-duplicates (%d left out, at most %d a band).",
		s.Spec.Name, s.Spec.Seed, s.Rejected, s.Duplicates, s.NearDuplicates, s.NearDropped, s.Spec.NearDuplicates), lists)
	return []byte(b.String()), manifest
}
