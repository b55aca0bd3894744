package suitegen_test

import (
	"bytes"
	"os"
	"runtime"
	"testing"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/eval"
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
