package suitegen_test

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"slices"
	"testing"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/facts"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/suitegen"
)

// build generates testdata's 200-task suite (five fault kinds whose
// variants of db_pool mostly certify under the full panel, three
// distractor and three noise choices).
func build(t *testing.T, workers int) *suitegen.Suite {
	t.Helper()
	src, err := os.ReadFile("testdata/gen200.srez.hcl")
	if err != nil {
		t.Fatal(err)
	}
	m, diags := lang.Analyze(append(lang.ScenarioFiles(), &lang.File{Name: "gen200.srez.hcl", Src: src}))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	s, err := suitegen.Build(m, m.SuiteSpec("gen200"), workers, "")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGeneratedSuite: 200 certified tasks; the scripted agent solves every
// one, the random agent almost none, and greedy none: greedy is on
// certification's panel, so a certified variant is one it loses, and its
// success cannot fall with difficulty from anywhere but 0.
func TestGeneratedSuite(t *testing.T) {
	s := build(t, 0)
	if len(s.Tasks) != 200 {
		t.Fatalf("%d tasks, want 200", len(s.Tasks))
	}
	random, episodes := 0, 0
	for _, gt := range s.Tasks {
		if !gt.Task.Certified {
			t.Errorf("%s is not certified", gt.Task.ID)
		}
		// The expert of the site variant seed 1 plays: a restoring write
		// restores that variant's value.
		if r := eval.Play(gt.Task, agents.NewScripted(gt.Task.Site(1).Expert), 0, 1, false).Record; !r.Success {
			t.Errorf("%s: the scripted agent fails (%s)", gt.Task.ID, r.Terminal)
		}
		for seed := uint64(1); seed <= 5; seed++ {
			episodes++
			if eval.Play(gt.Task, agents.NewRandom(seed), 0, seed, false).Record.Success {
				random++
			}
		}
	}
	if rate := float64(random) / float64(episodes); rate > 0.05 {
		t.Errorf("random success %.3f, want at most 0.05", rate)
	}
	for _, c := range s.Calibrations {
		t.Logf("greedy on %s: %v over %v", c.Split, c.Success, c.Tasks)
		if !c.Monotone {
			t.Errorf("on %s greedy does not fall with difficulty: %v", c.Split, c.Success)
		}
		for d, rate := range c.Success {
			if rate > 0 {
				t.Errorf("on %s greedy wins %.3f of the %s tasks, which certified", c.Split, rate, d)
			}
		}
	}
}

// TestSuiteBuildIsDeterministic: the same spec gives the same files under
// any GOMAXPROCS and worker count.
func TestSuiteBuildIsDeterministic(t *testing.T) {
	a, am := build(t, 0).Sources()
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	b, bm := build(t, 1).Sources()
	if !bytes.Equal(a, b) || !bytes.Equal(am, bm) {
		t.Error("the suite differs under GOMAXPROCS 1")
	}
}

const secret = "s3cret" // testdata/heldout.srez.hcl's secret seed

func analyzeWith(t *testing.T, name string, src []byte) *lang.Module {
	t.Helper()
	m, diags := lang.Analyze(append(lang.ScenarioFiles(), &lang.File{Name: name, Src: src}))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return m
}

// world identifies what a task is to an agent, whatever its labels: its
// body with the id, split, difficulty and tags left out.
func world(t *engine.Task) [32]byte {
	c := *t
	c.ID, c.Split, c.Difficulty, c.Tags = "", "", "", nil
	return engine.BodyHash(&c)
}

// TestHeldOutIsSecret (issue 20 item 4): the held-out tasks are none that
// the public spec can produce, with its reserve line or without it. The
// public build of the spec as published, the public build of the spec with
// the reservation deleted, and every variant of the whole space compiled
// emit no task whose hash, behaviour or site variant equals a held-out
// one's; the held-out content (sites, history, parameters) is drawn from
// the secret, which appears nowhere in the output; the same secret gives
// the same bytes; and the held-out tasks certify: the scripted expert
// wins them, greedy and random do not.
func TestHeldOutIsSecret(t *testing.T) {
	src, err := os.ReadFile("testdata/heldout.srez.hcl")
	if err != nil {
		t.Fatal(err)
	}
	m := analyzeWith(t, "heldout.srez.hcl", src)
	held, err := suitegen.Build(m, m.SuiteSpec("hidden"), 0, secret)
	if err != nil {
		t.Fatal(err)
	}
	var heldOut []*suitegen.Task
	for _, gt := range held.Tasks {
		if slices.Contains(gt.Task.Tags, "heldout") {
			heldOut = append(heldOut, gt)
		}
	}
	if len(heldOut) < 3 {
		t.Fatalf("%d held-out tasks, want at least 3", len(heldOut))
	}

	// Publishing the spec without its reserve line.
	reserve := regexp.MustCompile(`(?m)^\s*reserve\s*=.*\n`)
	unreserved := reserve.ReplaceAll(src, nil)
	if bytes.Equal(unreserved, src) {
		t.Fatal("the fixture has no reserve line")
	}
	open := analyzeWith(t, "heldout.srez.hcl", unreserved)
	var public []*engine.Task
	for _, mod := range []*lang.Module{m, open} {
		s, err := suitegen.Build(mod, mod.SuiteSpec("hidden"), 0, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, gt := range s.Tasks {
			public = append(public, gt.Task)
		}
	}
	whole := 0
	compiler.Mutate(open, open.Mutation("cachey"), compiler.MutateOptions{}, func(v *compiler.Variant) {
		whole++
		if v.Task != nil {
			public = append(public, v.Task)
		}
	})
	t.Logf("%d held-out tasks against %d public ones (%d variants in the whole space)", len(heldOut), len(public), whole)
	hashes, worlds, sites := map[string]string{}, map[[32]byte]string{}, map[[32]byte]string{}
	for _, p := range public {
		hashes[p.Hash], worlds[world(p)] = p.ID, p.ID
		for _, s := range p.Sites {
			sites[world(s)] = p.ID
		}
	}
	for _, h := range heldOut {
		if id, ok := hashes[h.Task.Hash]; ok {
			t.Errorf("held-out %s has the hash of public %s", h.Task.ID, id)
		}
		if id, ok := worlds[world(h.Task)]; ok {
			t.Errorf("held-out %s behaves as public %s", h.Task.ID, id)
		}
		for i, s := range h.Task.Sites {
			if id, ok := sites[world(s)]; ok {
				t.Errorf("held-out %s's site variant %d is one of public %s's", h.Task.ID, i+2, id)
			}
		}
	}

	// The parameters are drawn within their bands: some held-out pool
	// size is none of the domain's values, which the public space holds.
	offGrid := false
	for _, h := range heldOut {
		size := h.Incident.Faults[0].Params["size"].AsFloat()
		offGrid = offGrid || !slices.Contains([]float64{4, 6, 8, 10}, size)
	}
	if !offGrid {
		t.Error("every held-out pool size is a domain value the public spec enumerates")
	}

	incidents, manifest := held.Sources()
	for _, leak := range []string{secret, hex.EncodeToString(suitegen.HeldOutIDKey(secret))} {
		if bytes.Contains(incidents, []byte(leak)) || bytes.Contains(manifest, []byte(leak)) {
			t.Errorf("the suite's files contain %q", leak)
		}
	}
	again, err := suitegen.Build(m, m.SuiteSpec("hidden"), 1, secret)
	if err != nil {
		t.Fatal(err)
	}
	if ai, am := again.Sources(); !bytes.Equal(ai, incidents) || !bytes.Equal(am, manifest) {
		t.Error("the same secret gave other files")
	}

	k := facts.Knowledge(m, lang.ProfileNative)
	for _, h := range heldOut {
		if !h.Task.Certified {
			t.Errorf("held-out %s is not certified: %v", h.Task.ID, h.Task.Uncertified)
		}
		if r := eval.Play(h.Task, agents.NewScripted(h.Task.Site(1).Expert), 0, 1, false).Record; !r.Success {
			t.Errorf("held-out %s: the scripted expert fails (%s)", h.Task.ID, r.Terminal)
		}
		for seed := uint64(1); seed <= 4; seed++ {
			if eval.Play(h.Task, agents.NewGreedy(k), 0, seed, false).Record.Success {
				t.Errorf("held-out %s: greedy wins on seed %d", h.Task.ID, seed)
			}
			if eval.Play(h.Task, agents.NewRandom(seed), 0, seed, false).Record.Success {
				t.Errorf("held-out %s: random wins on seed %d", h.Task.ID, seed)
			}
		}
	}
}

// TestNearDuplicatesCapped (issue 20 item 5): pools of 9 and 10
// connections compile to different machines, so dedup keeps both, but
// they are one band: by default a suite keeps one task of a band, and the
// builder counts what fell in a band and what it left out; a spec may
// allow more.
func TestNearDuplicatesCapped(t *testing.T) {
	src, err := os.ReadFile("testdata/near.srez.hcl")
	if err != nil {
		t.Fatal(err)
	}
	m := analyzeWith(t, "near.srez.hcl", src)
	for _, c := range []struct {
		spec                      string
		tasks, near, dropped, cap int
	}{{"cut", 4, 2, 2, lang.DefaultNearDuplicates}, {"cut_twice", 6, 2, 0, 2}} {
		s, err := suitegen.Build(m, m.SuiteSpec(c.spec), 0, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Tasks) != c.tasks || s.NearDuplicates != c.near || s.NearDropped != c.dropped || s.Duplicates != 0 {
			t.Errorf("%s: %d tasks, %d near-duplicates, %d left out, %d duplicates; want %d, %d, %d, 0",
				c.spec, len(s.Tasks), s.NearDuplicates, s.NearDropped, s.Duplicates, c.tasks, c.near, c.dropped)
		}
		perBand := map[string]int{}
		for _, gt := range s.Tasks {
			band := "14"
			if size := gt.Incident.Faults[0].Params["size"].I; size < 12 {
				band = "9-10"
			}
			perBand[band+fmt.Sprint(gt.Incident.Noise != nil)]++
		}
		for band, n := range perBand {
			if n > c.cap {
				t.Errorf("%s: band %s holds %d tasks, over the cap of %d", c.spec, band, n, c.cap)
			}
		}
		_, manifest := s.Sources()
		want := fmt.Sprintf("%d near-duplicates (%d left out, at most %d a band)", c.near, c.dropped, c.cap)
		if !bytes.Contains(manifest, []byte(want)) {
			t.Errorf("%s: the manifest does not say %q:\n%s", c.spec, want, manifest)
		}
	}
}
