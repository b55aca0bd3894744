package engine_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/srezc/srezc/engine"
)

// BenchmarkSuiteNewEpisode allocates an episode of each shipped incident in
// turn and resets it once: what a server pays to start an episode.
func BenchmarkSuiteNewEpisode(b *testing.B) {
	tasks := suiteTasks(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ep := engine.NewEpisode(tasks[i%len(tasks)])
		ep.Reset(uint64(i))
	}
}

// An episode plays the site variant its seed picks, seed mod SiteCount,
// and a snapshot taken on one variant restores onto that variant in an
// episode that was on another.
func TestEpisodePlaysTheSeedsSite(t *testing.T) {
	var tk *engine.Task
	for _, x := range suiteTasks(t) {
		if x.SiteCount() > 1 {
			tk = x
			break
		}
	}
	if tk == nil {
		t.Fatal("no shipped incident varies its site")
	}
	ep := engine.NewEpisode(tk)
	for seed := uint64(0); seed < uint64(2*tk.SiteCount()); seed++ {
		ep.Reset(seed)
		if ep.Task() != tk.Site(seed) || ep.Task().Hash != tk.Hash {
			t.Fatalf("seed %d plays the wrong variant", seed)
		}
		if want := tk.Site(seed).Row(); !slices.Equal(ep.Row(), want) {
			t.Fatalf("seed %d: the initial row is not its variant's", seed)
		}
	}
	ep.Reset(2)
	a := bind(t, tk, tk.Site(2).Expert[0])
	ep.Step(&a)
	snap := ep.MarshalState(nil)
	other := engine.NewEpisode(tk)
	other.Reset(1)
	if err := other.RestoreState(snap); err != nil {
		t.Fatal(err)
	}
	if other.Task() != tk.Site(2) || !slices.Equal(other.Row(), ep.Row()) {
		t.Error("the restored episode is not on the snapshot's variant")
	}
}

// A decoded task keeps its variants, and one whose variant differs in
// layout from it is refused.
func TestDecodedSites(t *testing.T) {
	tk := suiteTasks(t)[0]
	data, err := engine.EncodeTask(tk)
	if err != nil {
		t.Fatal(err)
	}
	back, err := engine.DecodeTask(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.SiteCount() != tk.SiteCount() || back.Hash != tk.Hash || back.Site(3).Hash != tk.Hash {
		t.Fatalf("decoded %d variants, hash %s; want %d, %s", back.SiteCount(), back.Hash, tk.SiteCount(), tk.Hash)
	}
	bad := *back.Sites[0]
	bad.Slots = append([]engine.Slot(nil), bad.Slots...)
	bad.Slots[0].High++
	back.Sites[0] = &bad
	if err := back.Validate(); err == nil {
		t.Error("a variant with other slots validates")
	}
}

// Determinism with drawn sites: the same seed gives the same bytes, on a
// fresh episode and on one reused after other seeds (so after other
// variants).
func TestSameSeedSameTraceAcrossSites(t *testing.T) {
	for _, tk := range suiteTasks(t) {
		reused := engine.NewEpisode(tk)
		for seed := uint64(0); seed < uint64(2*tk.SiteCount()); seed++ {
			trace := func(ep *engine.Episode) []byte {
				ep.Reset(seed)
				out := ep.AppendIntro(nil)
				for _, text := range tk.Site(seed).Expert {
					a := bind(t, tk, text)
					r := ep.Step(&a)
					out = ep.AppendText(out, &r.Obs)
					out = fmt.Appendf(out, "%v %v\n", r.Reward, r.Terminal)
				}
				return out
			}
			if a, b := trace(engine.NewEpisode(tk)), trace(reused); !bytes.Equal(a, b) {
				t.Fatalf("%s seed %d: a fresh and a reused episode differ", tk.ID, seed)
			}
		}
	}
}
