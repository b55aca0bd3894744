package certify

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/record"
)

// The adaptive half of the exploit panel (issue 18 item 5): greedy and
// every answer-blind policy of package agents, each knowing only the
// published documentation and playing from what an agent is shown (the
// intro and each observation's text), on every site variant and from
// every seed of AdaptiveSeeds. Unlike the blanket plans, they read before
// they write, so what they do depends on what they see, and what they see
// depends on the seed's rendering noise: each is played from every seed.
//
// Playing is cheap because the world's state does not depend on the seed
// (noise changes only what reads show; DESIGN.md) and a policy is a pure
// function of what it has been shown. So a policy is played from the
// first seed (its lead), whose every observation is also rendered as each
// other seed would show it (engine.Episode.AppendTextAs); a seed shown the
// same throughout has the lead's outcome, unplayed. A seed shown
// something else replays the lead's actions up to the difference (its
// state is the lead's until then), a fresh agent catches up on the lead's
// observations, and plays on by itself.
// TestAdaptiveReplayIsExact checks the shortcut against playing every
// seed in full on every shipped incident.

// AdaptiveSeeds is how many seeds, 1 to AdaptiveSeeds, each adaptive
// policy plays every site variant from. A policy wins a task if it wins
// from any of them.
const AdaptiveSeeds = 8

// AdaptiveResult is how one adaptive policy fared on a task.
type AdaptiveResult struct {
	Policy string
	// Episodes were played (variants × seeds; fewer when certification
	// stopped at the first win), and Wins of them succeeded.
	Episodes, Wins int
	// Site and Seed are the variant and seed of the episode shown: the
	// first won, or the lead of the first variant.
	Site int
	Seed uint64
	// Record and Plan are that episode's record and actions.
	Record record.EpisodeMetrics
	Plan   []string
	// Known is the reason of the shipped suite's known exception that
	// excuses the win (known_exploits.txt); "" when there is none.
	Known string
}

// Won reports whether the policy won any episode.
func (r *AdaptiveResult) Won() bool { return r.Wins > 0 }

// Why says why the shown episode failed; "" when it won.
func (r *AdaptiveResult) Why() string {
	if r.Record.Success {
		return ""
	}
	return whyAdaptive(r.Record)
}

// whyAdaptive is WhyFailed for a policy that may stop without resolving.
func whyAdaptive(r record.EpisodeMetrics) string {
	switch r.Terminal {
	case record.TerminalEscalated:
		return "it escalated instead of resolving"
	case record.TerminalBudget:
		return "it ran out of steps"
	case "":
		return "it stopped without resolving"
	}
	return WhyFailed(r)
}

// finding is the certification error of a win.
func (r *AdaptiveResult) finding() Finding {
	where := ""
	if r.Site > 0 {
		where = fmt.Sprintf(" (site variant %d)", r.Site+1)
	}
	return Finding{fmt.Sprintf("The adaptive answer-blind policy %q wins from seed %d%s, reading only what an agent is shown: %s.",
		r.Policy, r.Seed, where, strings.Join(r.Plan, "; ")), atIncident, 0}
}

// PlayAdversaries plays the adaptive panel, with the documentation k, on
// every site variant of t from every seed of AdaptiveSeeds, and returns a
// result per policy in agents.Adversaries' order. With full unset a policy
// stops at its first win (certification needs no more); with full set
// every episode is played and counted, for a report. An sre_zero task has
// no adaptive panel: the policies speak the native grammar.
func PlayAdversaries(t *engine.Task, k *agents.Knowledge, full bool) []AdaptiveResult {
	if t.Profile == record.ProfileSreZero || k == nil {
		return nil
	}
	variants := make([]*engine.Task, t.SiteCount())
	for i := range variants {
		v := *t
		if i > 0 {
			v = *t.Sites[i-1]
		}
		// A variant alone: every seed plays it.
		v.Sites = nil
		variants[i] = &v
	}
	eps := make([]*engine.Episode, len(variants))
	for i, v := range variants {
		eps[i] = engine.NewEpisode(v)
	}
	var p adaptivePlayer
	var out []AdaptiveResult
	for _, adv := range agents.Adversaries(k) {
		r := AdaptiveResult{Policy: adv.Name}
		for site, ep := range eps {
			if !full && r.Won() {
				break
			}
			p.playSeeds(ep, adv, site, full, &r)
		}
		out = append(out, r)
	}
	return out
}

// adaptivePlayer holds the buffers of the panel's episodes, reused from
// one policy and variant to the next.
type adaptivePlayer struct {
	lead, cur trace
	obs       []byte
	// other is an observation as another seed shows it; differs marks the
	// seeds (from 1) the lead's observations differ for.
	other   []byte
	differs []bool
}

// trace is one played episode: its intro, actions (as text and bound) and
// the observation after each.
type trace struct {
	intro  []byte
	texts  []string
	acts   []engine.Action
	obs    []byte
	obsEnd []int
	rec    record.EpisodeMetrics
	// done: the episode ended (an action or the budget ended it), rather
	// than the policy stopping; followed: it replayed the lead to its end.
	done, followed bool
}

func (tr *trace) reset() {
	tr.intro, tr.texts, tr.acts = tr.intro[:0], tr.texts[:0], tr.acts[:0]
	tr.obs, tr.obsEnd = tr.obs[:0], tr.obsEnd[:0]
	tr.done, tr.followed = false, false
}

// observation i of the trace.
func (tr *trace) observation(i int) []byte {
	start := 0
	if i > 0 {
		start = tr.obsEnd[i-1]
	}
	return tr.obs[start:tr.obsEnd[i]]
}

// playSeeds plays one policy on one variant from every seed into r. The
// lead, from seed 1, also renders each of its observations as every other
// seed would show it; a seed that would have seen the same throughout has
// the lead's outcome and is not played. Only a seed shown something else
// is played, from the lead's actions up to the difference.
func (p *adaptivePlayer) playSeeds(ep *engine.Episode, adv agents.Adversary, site int, full bool, r *AdaptiveResult) {
	p.differs = p.differs[:0]
	for range AdaptiveSeeds {
		p.differs = append(p.differs, false)
	}
	p.play(ep, adv, 1, nil, &p.lead)
	for seed := uint64(1); seed <= AdaptiveSeeds; seed++ {
		rec, played := p.lead.rec, &p.lead
		if p.differs[seed-1] {
			rec, played = p.play(ep, adv, seed, &p.lead, &p.cur), &p.cur
			if played.followed {
				played = &p.lead
			}
		}
		r.Episodes++
		first := r.Episodes == 1
		if rec.Success {
			r.Wins++
			first = r.Wins == 1
		}
		if first {
			r.Site, r.Seed, r.Record = site, seed, rec
			r.Plan = append(r.Plan[:0], played.texts...)
		}
		if rec.Success && !full {
			return
		}
	}
}

// play plays adv on ep from seed into out and returns the record. With a
// lead, it replays the lead's actions while every observation matches the
// lead's, and returns the lead's record without playing the last action
// when it matched to the end (out.followed).
func (p *adaptivePlayer) play(ep *engine.Episode, adv agents.Adversary, seed uint64, lead, out *trace) record.EpisodeMetrics {
	out.reset()
	t := ep.Task()
	ep.Reset(seed)
	out.intro = ep.AppendIntro(out.intro)
	var agent agents.Agent
	following := lead != nil && bytes.Equal(out.intro, lead.intro)
	if !following {
		agent = adv.New()
		agent.Begin(string(out.intro))
	}
	obs := ""
	for i := 0; !ep.Done(); i++ {
		var a engine.Action
		var text string
		if following {
			if i >= len(lead.acts) {
				break // the lead stopped here, after the same observations
			}
			if i == len(lead.acts)-1 && lead.done {
				// The lead's last action, after the same observations:
				// the same outcome, since no state depends on the seed.
				out.followed = true
				return lead.rec
			}
			a, text = lead.acts[i], lead.texts[i]
		} else {
			var ok bool
			if text, ok = agent.Act(obs); !ok {
				break
			}
			a = action.Bind(t, text)
		}
		res := ep.Step(&a)
		draws := ep.NoiseDraws()
		p.obs = ep.AppendText(p.obs[:0], &res.Obs)
		if lead == nil && ep.NoiseDraws() != draws {
			// The lead, shown something drawn from its seed: what would
			// each other seed have shown?
			for s := range p.differs[1:] {
				if !p.differs[s+1] {
					p.other = ep.AppendTextAs(p.other[:0], &res.Obs, uint64(s+2))
					p.differs[s+1] = !bytes.Equal(p.other, p.obs)
				}
			}
		}
		if following && !bytes.Equal(p.obs, lead.observation(i)) {
			// The seed's noise shows something else: a fresh agent
			// catches up on what the lead saw, then plays on.
			following = false
			agent = adv.New()
			agent.Begin(string(lead.intro))
			agent.Act("")
			for j := 0; j < i; j++ {
				agent.Act(string(lead.observation(j)))
			}
			out.texts = append(out.texts[:0], lead.texts[:i+1]...)
			out.acts = append(out.acts[:0], lead.acts[:i+1]...)
		} else {
			out.texts = append(out.texts, text)
			out.acts = append(out.acts, a)
		}
		out.obs = append(out.obs, p.obs...)
		out.obsEnd = append(out.obsEnd, len(out.obs))
		if !following {
			obs = string(p.obs)
		}
	}
	out.rec, out.done = ep.Record(), ep.Done()
	return out.rec
}
