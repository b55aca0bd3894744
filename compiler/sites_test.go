package compiler

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

// Two episodes of one incident whose seeds pick different site variants
// show different site values: the same read of the same key renders
// different numbers, and the same seed shows the same again.
func TestSitesDifferBySeed(t *testing.T) {
	tk := shippedTask(t, "db_pool")
	if tk.SiteCount() != SiteVariants {
		t.Fatalf("db_pool has %d site variants, want %d", tk.SiteCount(), SiteVariants)
	}
	read := func(seed uint64) string {
		ep := engine.NewEpisode(tk)
		ep.Reset(seed)
		a := action.Bind(tk, "inspect_config(load_balancer)")
		r := ep.Step(&a)
		// The read's time stamp is drawn per seed (renderer obs/8); the
		// site is what follows it.
		_, site, _ := strings.Cut(string(ep.AppendText(nil, &r.Obs)), " load_balancer config:")
		return site
	}
	one, two := read(1), read(2)
	if one == two {
		t.Errorf("seeds 1 and 2 show the same site:\n%s", one)
	}
	if again := read(1 + SiteVariants); again != one {
		t.Errorf("seeds 1 and %d pick the same variant but show different sites:\n%s\n%s", 1+SiteVariants, one, again)
	}
	// Every varied key takes more than one value over the variants, but
	// where a benign change set it (the change's old value then varies).
	// The vary entries of the system db_pool runs on (shared_primary since
	// its sites were made relative; it was standard).
	m := shippedModule(t)
	for si, ss := range m.System(m.Incident("db_pool").System).Services {
		for _, v := range ss.Vary {
			slot := variedSlot(tk, si, v.Name)
			if slot < 0 {
				t.Fatalf("%s.%s is neither a config key nor a state", ss.Name, v.Name)
			}
			if benignMoved(tk, slot) {
				continue
			}
			seen := map[uint64]bool{}
			for k := 0; k < tk.SiteCount(); k++ {
				site := tk.Site(uint64(k))
				seen[site.Row()[slot]] = true
			}
			if len(seen) < 2 {
				t.Errorf("%s.%s shows one value on all %d variants", ss.Name, v.Name, tk.SiteCount())
			}
		}
	}
}

// variedSlot is the slot a system's vary entry draws: a config key of the
// service, or one of its states (a site's declared rate).
func variedSlot(tk *engine.Task, si int, name string) engine.SlotID {
	if sl := tk.ConfigSlot(si, name); sl != engine.NoSlot {
		return sl
	}
	for i := range tk.Slots {
		if sl := &tk.Slots[i]; int(sl.Service) == si && sl.Class == engine.ClassState && sl.Name == name {
			return engine.SlotID(i)
		}
	}
	return -1
}

// Draws are deterministic and inside their ranges: compiling twice gives
// the same task, and every varied key of every variant of every shipped
// incident lies in its declared range (a fault may have moved its own key).
func TestSiteDrawsAreDeterministic(t *testing.T) {
	m := shippedModule(t)
	first, _ := CompileModule(m)
	again, _ := CompileModule(m)
	for i, tk := range first {
		if again[i].Hash != tk.Hash {
			t.Errorf("%s: two compiles differ", tk.ID)
		}
		in := m.Incident(tk.ID)
		sys := m.System(in.System)
		for k := 0; k < tk.SiteCount(); k++ {
			site := tk.Site(uint64(k))
			if site.Hash != tk.Hash {
				t.Errorf("%s variant %d: hash %s, want the task's", tk.ID, k, site.Hash)
			}
			for si, ss := range sys.Services {
				for _, v := range ss.Vary {
					if faultTouches(in, ss.Name, v.Name, m) {
						continue
					}
					slot := site.ConfigSlot(si, v.Name)
					if slot == engine.NoSlot {
						slot = stateSlot(site, si, v.Name)
					}
					x := site.ValueOf(site.Slots[slot].Kind, site.Row()[slot]).AsFloat()
					if x < v.Low || x > v.High {
						if !benignMoved(site, slot) {
							t.Errorf("%s variant %d: %s.%s = %g outside [%g, %g]", tk.ID, k, ss.Name, v.Name, x, v.Low, v.High)
						}
					}
				}
			}
		}
	}
}

// faultTouches reports whether a fault or distractor of the incident
// edits the key.
func faultTouches(in *lang.Incident, svc, key string, m *lang.Module) bool {
	for _, fu := range in.Faults {
		if fu.Target != svc {
			continue
		}
		for _, e := range m.FaultKind(fu.Name).Edits {
			if e.Name == key {
				return true
			}
		}
	}
	for _, du := range in.Distractors {
		if du.Target != svc {
			continue
		}
		for _, e := range m.DistractorKind(du.Name).Edits {
			if e.Name == key {
				return true
			}
		}
	}
	return false
}

func benignMoved(t *engine.Task, slot engine.SlotID) bool {
	for _, c := range t.Changes {
		if c.Slot == slot {
			return true
		}
	}
	return false
}

// Every draw of every shipped varying system is a healthy site with no
// fault: at every traffic a shipped incident runs it at, over many more
// draws than the compiled variants and at the corners of the ranges (every
// key at its low end, every key at its high end), no service is unhealthy
// and no metric leaves its band through twice the grader's window.
func TestEveryDrawIsHealthy(t *testing.T) {
	m := shippedModule(t)
	traffic := map[string]map[float64]bool{}
	for _, in := range m.Incidents {
		if sys := m.System(in.System); sys == nil || !systemVaries(sys) {
			continue
		}
		if traffic[in.System] == nil {
			traffic[in.System] = map[float64]bool{}
		}
		rate := in.Traffic
		if !in.TrafficSet && m.System(in.System).Traffic != nil {
			rate = 0 // drawn per site: the source leaves it out
		}
		traffic[in.System][rate] = true
	}
	if len(traffic) < 2 {
		t.Fatalf("varying systems of the suite: %v, want standard and busy", traffic)
	}
	draws := 0
	for sysName, rates := range traffic {
		for rate := range rates {
			pin := fmt.Sprintf("traffic = %g", rate)
			if rate == 0 {
				pin = ""
			}
			src := fmt.Sprintf(`
incident "healthy_site" {
  alert      = "nothing"
  difficulty = "easy"
  split      = "train"
  budget     = 10
  hold       = 3
  system     = %q
  %s
  fault "db_pool_too_small" {
    target = "database"
  }
  expert     = ["check_status(database)"]
}
`, sysName, pin)
			mm, diags := lang.Analyze([]*lang.File{{Name: "t.srez.hcl", Src: []byte(src)}})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			// The site alone: the fault only makes the incident one.
			in := *mm.Incident("healthy_site")
			in.Faults = nil
			corners := []func(int) int{func(int) int { return 0 }, func(n int) int { return n - 1 }}
			for k := 0; k < 24+len(corners); k++ {
				opt := Options{SkipCertify: true, Site: k, oneSite: true}
				what := fmt.Sprintf("draw %d", k)
				if k >= 24 {
					opt.siteCorner = corners[k-24]
					what = []string{"every key low", "every key high"}[k-24]
				}
				tk, ds := CompileIncident(mm, &in, opt)
				if ds.HasErrors() {
					t.Fatalf("%s at %g, %s: %v", sysName, rate, what, ds)
				}
				ep := engine.NewEpisode(tk)
				ep.Reset(0)
				for tick := 0; tick < 2*tk.Hold+2; tick++ {
					ep.Advance()
					if bad := ep.AppendAnomalies(nil); len(bad) > 0 {
						var names []string
						for _, s := range bad {
							names = append(names, fmt.Sprintf("%s.%s", tk.Services[tk.Slots[s].Service].Name, tk.Slots[s].Name))
						}
						t.Fatalf("%s at %g requests/s, %s (%s): unhealthy after %d ticks: %s", sysName, rate, what, siteOf(tk, mm.System(sysName)), tick+1, strings.Join(names, ", "))
					}
				}
				draws++
			}
		}
	}
	t.Logf("%d draws healthy", draws)
}

func systemVaries(s *lang.System) bool {
	if s.Traffic != nil {
		return true
	}
	for _, ss := range s.Services {
		if len(ss.Vary) > 0 {
			return true
		}
	}
	return false
}

func siteOf(tk *engine.Task, sys *lang.System) string {
	var out []string
	for si, ss := range sys.Services {
		for _, v := range ss.Vary {
			s := tk.ConfigSlot(si, v.Name)
			if s == engine.NoSlot {
				s = stateSlot(tk, si, v.Name)
			}
			out = append(out, fmt.Sprintf("%s.%s=%s", ss.Name, v.Name, tk.ValueOf(tk.Slots[s].Kind, tk.Row()[s])))
		}
	}
	return strings.Join(out, " ")
}

// The expert plan and the informed optimum derive their fix values from
// evidence in the episode: on every variant of every shipped incident,
// each config write of either that restores a fault's key writes the old
// value of that fault's entry in the change history list_changes shows,
// and some incidents' experts write different values on different
// variants (none writes a constant that happens to fit).
func TestFixValuesComeFromTheHistory(t *testing.T) {
	m := shippedModule(t)
	tasks, _ := CompileModule(m)
	checked, varying := 0, 0
	for _, tk := range tasks {
		values := map[string]bool{}
		for k := 0; k < tk.SiteCount(); k++ {
			site := tk.Site(uint64(k))
			for _, plan := range [][]string{site.Expert, site.Plan} {
				for _, text := range plan {
					a := action.Bind(site, text)
					if a.Err != engine.OK || site.Tools[a.Tool].Effect != engine.EffectUpdate {
						continue
					}
					for _, c := range site.Changes {
						if c.Fault < 0 || c.Slot != a.Key {
							continue
						}
						w, _ := site.WordOf(a.Value)
						if w != c.Old {
							t.Errorf("%s variant %d: %s writes %s, but the history shows %s before the fault", tk.ID, k, text, a.Value, site.ValueOf(site.Slots[c.Slot].Kind, c.Old))
						}
						checked++
						if plan[0] == site.Expert[0] {
							values[text] = true
						}
					}
				}
			}
		}
		if len(values) > 1 {
			varying++
		}
	}
	if checked == 0 || varying < 10 {
		t.Errorf("%d restoring writes checked, %d incidents whose expert restores different values per variant; want some and at least 10", checked, varying)
	}
	t.Logf("%d restoring writes match the history; %d incidents' experts restore per-variant values", checked, varying)
}

// The scripted expert succeeds on every shipped incident on every seed
// 0..2·SiteVariants-1, so on every variant twice with different noise,
// playing the plan of the variant its seed picks.
func TestExpertSucceedsOnEverySite(t *testing.T) {
	for _, tk := range shippedTasks(t) {
		for seed := uint64(0); seed < 2*SiteVariants; seed++ {
			ep := engine.NewEpisode(tk)
			ep.Reset(seed)
			for _, text := range tk.Site(seed).Expert {
				a := action.Bind(tk, text)
				ep.Step(&a)
			}
			if r := ep.Record(); !r.Success {
				t.Errorf("%s seed %d: expert fails: %+v", tk.ID, seed, r)
			}
		}
	}
}

// $before resolves to each variant's site value, and only in a config
// write's value.
func TestSiteValueInExpert(t *testing.T) {
	tk := shippedTask(t, "launch_day_refusals")
	lb := tk.ServiceIndex("load_balancer")
	seen := map[string]bool{}
	for k := 0; k < tk.SiteCount(); k++ {
		site := tk.Site(uint64(k))
		var write string
		for _, text := range site.Expert {
			if strings.HasPrefix(text, "update_config(load_balancer, max_connections, ") {
				write = text
			}
		}
		if write == "" || strings.Contains(write, lang.SiteValue) {
			t.Fatalf("variant %d: expert write %q", k, write)
		}
		var before uint64
		for _, c := range site.Changes {
			if c.Fault >= 0 {
				before = c.Old
			}
		}
		if want := fmt.Sprintf("update_config(load_balancer, max_connections, %d)", before); write != want || site.Changes == nil || site.ConfigSlot(lb, "max_connections") == engine.NoSlot {
			t.Errorf("variant %d: %q, want %q", k, write, want)
		}
		seen[write] = true
	}
	if len(seen) < 2 {
		t.Errorf("the expert restores one value on every variant: %v", seen)
	}
	// Written back as source (mutation, suite generation), the plan
	// restores per variant again.
	src := SourceExpert(tk)
	in := shippedModule(t).Incident("launch_day_refusals")
	if strings.Join(src, "\n") != strings.Join(in.Expert, "\n") {
		t.Errorf("SourceExpert = %q, want the source's %q", src, in.Expert)
	}
}

// drawIn keeps to its grid and its range.
func TestDrawIn(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		for _, r := range [][2]float64{{3000, 6000}, {1536, 2200}, {18, 40}, {0.5, 0.9}} {
			whole := r[0] == float64(int(r[0]))
			x := drawIn(rng.IntN, r[0], r[1], whole && r[1] == float64(int(r[1])))
			if x < r[0] || x > r[1] {
				t.Fatalf("drawIn(%v) = %g", r, x)
			}
		}
	}
	if x := drawIn(func(int) int { return 0 }, 1536, 2200, true); x != 1540 {
		t.Errorf("lowest grid point of [1536, 2200] = %g, want 1540", x)
	}
	if x := drawIn(func(n int) int { return n - 1 }, 3000, 6000, true); x != 6000 {
		t.Errorf("highest grid point of [3000, 6000] = %g, want 6000", x)
	}
}

func shippedTasks(t *testing.T) []*engine.Task {
	t.Helper()
	tasks, diags := CompileModule(shippedModule(t))
	if diags.HasErrors() {
		var b bytes.Buffer
		lang.WriteText(&b, nil, diags)
		t.Fatal(b.String())
	}
	return tasks
}

func shippedTask(t *testing.T, id string) *engine.Task {
	t.Helper()
	for _, tk := range shippedTasks(t) {
		if tk.ID == id {
			return tk
		}
	}
	t.Fatalf("no shipped incident %s", id)
	return nil
}
