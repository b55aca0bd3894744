package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

// certifyReport is what srezc certify prints, for an author.
type certifyReport struct {
	ID        string `json:"id"`
	Hash      string `json:"hash"`
	Certified bool   `json:"certified"`
	// Sites is how many site variants the task has (Sites drawn per
	// seed); the plans and panel below are the first's, which seeds
	// divisible by Sites play. Every variant is certified.
	Sites    int      `json:"sites"`
	Failures []string `json:"failures"`
	Expert   []string `json:"expert"`
	Plan     []string `json:"plan"` // the certified informed optimum, when the task certifies
	Evidence []string `json:"evidence"`
	// EvidenceFrom says where Evidence and Optimal come from: "informed
	// optimum" (derived), or "expert plan" (no optimum could be derived,
	// e.g. no combination of canonical fixes resolves the incident).
	EvidenceFrom string         `json:"evidence_from"`
	Optimal      int            `json:"optimal"`
	Panel        []exploitEntry `json:"panel"`
	Closest      *closestEntry  `json:"closest"`
	// Distinguishing shows, per diagnosability alternative, a read that
	// tells the incident apart from it and what it shows in each world.
	Distinguishing []certify.Distinction `json:"distinguishing"`
	// Adaptive is how the adaptive answer-blind policies and the greedy
	// baseline fared (issue 18): they read before they write, knowing only
	// the published documentation, and play every site variant from every
	// certification seed. A win fails certification, unless it is a known
	// exploit of the shipped suite (certify/known_exploits.txt).
	Adaptive []adaptiveEntry `json:"adaptive"`
}

// adaptiveEntry is one adaptive policy over every site variant and seed:
// how many episodes it won, and the episode shown (its first win, else
// the first variant from seed 1): where, its reward, actions and, when it
// lost, why.
type adaptiveEntry struct {
	Name     string `json:"name"`
	Wins     int    `json:"wins"`
	Episodes int    `json:"episodes"`
	// Site (1-based) and Seed are the shown episode's variant and seed.
	Site        int      `json:"site"`
	Seed        uint64   `json:"seed"`
	FinalReward float64  `json:"final_reward"`
	Why         string   `json:"why,omitempty"`
	Plan        []string `json:"plan"`
	// KnownExploit is the reason the shipped suite's list gives for a
	// win certification excuses; empty otherwise.
	KnownExploit string `json:"known_exploit,omitempty"`
}

type exploitEntry struct {
	Name        string   `json:"name"`
	Passed      bool     `json:"passed"`
	FinalReward float64  `json:"final_reward"`
	Why         string   `json:"why,omitempty"` // why it failed; empty when it passed
	Plan        []string `json:"plan"`
}

type closestEntry struct {
	Name        string  `json:"name"`
	FinalReward float64 `json:"final_reward"`
	Why         string  `json:"why"`
}

func (e *env) certifyCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "certify [--json] TASK [PATH...]",
		Short: "Explain one incident's certification: plan, evidence, exploit panel",
		Long: `Certify one incident and explain the verdict, for its author: the
expert plan, the evidence set and the optimal step count, every policy of
the exploit panel with its outcome, and which came closest to passing.

TASK is the incident id. With no PATH the embedded default suite is read.
The incident is compiled even when it does not certify; srezc certify then
exits 1 after printing the reasons.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			m, in, t, err := e.certifyIncident(args[0], args[1:])
			if err != nil {
				return err
			}
			rep := certifyReportOf(t)
			rep.Adaptive = adaptivePanel(t, m, in)
			if inc, _ := compiler.Prepare(m, in); inc != nil {
				rep.Distinguishing = certify.Explain(inc)
			}
			if rep.Distinguishing == nil {
				rep.Distinguishing = []certify.Distinction{}
			}
			if asJSON {
				if err := writeJSON(e.stdout, rep); err != nil {
					return err
				}
			} else {
				writeCertifyReport(e.stdout, rep)
			}
			if !rep.Certified {
				return errPrinted
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return c
}

// certifyIncident analyses paths and compiles incident id through every
// stage, keeping it when it does not certify (compileForCertify); an
// unknown id is a usage error with a suggestion.
func (e *env) certifyIncident(id string, paths []string) (*lang.Module, *lang.Incident, *engine.Task, error) {
	files, diags := readInputs(paths)
	m, more := lang.Analyze(files)
	diags = append(diags, more...).Sort()
	lang.WriteText(e.stderr, m.Files, diags)
	if diags.HasErrors() {
		return nil, nil, nil, errPrinted
	}
	in := m.Incident(id)
	if in == nil {
		ids := make([]string, len(m.Incidents))
		for i, x := range m.Incidents {
			ids[i] = x.Name
		}
		return nil, nil, nil, noIncident(id, ids)
	}
	t, err := e.compileForCertify(m, in)
	return m, in, t, err
}

// compileForCertify compiles one incident through every stage, keeping it
// when it does not certify: the task then carries Certified false, the
// reasons, and its derived evidence and plan. Other errors are printed.
func (e *env) compileForCertify(m *lang.Module, in *lang.Incident) (*engine.Task, error) {
	t, diags := compiler.CompileIncident(m, in, compiler.Options{KeepUncertified: true, Cache: e.certified})
	var other lang.Diagnostics
	for _, d := range diags {
		if d.Summary != compiler.NotCertified {
			other = append(other, d)
		}
	}
	lang.WriteText(e.stderr, m.Files, other.Sort())
	if t == nil || other.HasErrors() {
		if len(other) == 0 {
			lang.WriteText(e.stderr, m.Files, diags.Sort())
		}
		return nil, errPrinted
	}
	return t, nil
}

// certifyReportOf builds the report: the task's verdict and plan, and the
// exploit panel played again by certify.Certify for its details.
func certifyReportOf(t *engine.Task) *certifyReport {
	cert := certify.Certify(t)
	rep := &certifyReport{
		ID: t.ID, Hash: t.Hash, Certified: t.Certified, Sites: t.SiteCount(),
		Failures: append([]string{}, t.Uncertified...),
		Expert:   append([]string{}, t.Expert...),
		Plan:     append([]string{}, t.Plan...),
		Evidence: []string{},
		Optimal:  t.Optimal,
		Panel:    []exploitEntry{},
	}
	rep.EvidenceFrom = "expert plan"
	if len(t.Plan) > 0 {
		rep.EvidenceFrom = "informed optimum"
	}
	for _, r := range t.Evidence {
		rep.Evidence = append(rep.Evidence, certify.ReadText(t, r))
	}
	if t.Ref != nil {
		rep.EvidenceFrom = "reference's evidence keys"
		for _, e := range t.Ref.Evidence {
			rep.Evidence = append(rep.Evidence, e.Key)
		}
	}
	for _, p := range cert.Panel {
		x := exploitEntry{Name: p.Name, Passed: p.Record.Success, FinalReward: p.Record.FinalReward, Plan: append([]string{}, p.Plan...)}
		if !x.Passed {
			x.Why = certify.WhyFailed(p.Record)
		}
		rep.Panel = append(rep.Panel, x)
	}
	if cert.Closest != "" {
		rep.Closest = &closestEntry{Name: cert.Closest, FinalReward: cert.ClosestReward, Why: cert.ClosestWhy}
	}
	return rep
}

// adaptivePanel plays the adaptive panel on every site variant of a
// native task from every certification seed, as certification does, but
// every episode (certification stops at a policy's first win).
func adaptivePanel(t *engine.Task, m *lang.Module, in *lang.Incident) []adaptiveEntry {
	out := []adaptiveEntry{}
	shipped := certify.IsShipped(m, in)
	for _, r := range certify.PlayAdversaries(t, certify.Knowledge(m), true) {
		x := adaptiveEntry{Name: r.Policy, Wins: r.Wins, Episodes: r.Episodes, Site: r.Site + 1, Seed: r.Seed,
			FinalReward: r.Record.FinalReward, Why: r.Why(), Plan: append([]string{}, r.Plan...)}
		if reason, ok := certify.KnownReason(t.ID, r.Policy); ok && shipped && r.Won() {
			x.KnownExploit = reason
		}
		out = append(out, x)
	}
	return out
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func writeCertifyReport(w io.Writer, r *certifyReport) {
	fmt.Fprintf(w, "incident   %s\nhash       %s\ncertified  %s\n", r.ID, r.Hash, yesNo(r.Certified))
	if r.Sites > 1 {
		fmt.Fprintf(w, "sites      %d variants, each certified; below, the first (seeds divisible by %d)\n", r.Sites, r.Sites)
	}
	for _, f := range r.Failures {
		fmt.Fprintf(w, "  - %s\n", f)
	}
	fmt.Fprintf(w, "\nexpert plan (%s):\n", plural(len(r.Expert), "step"))
	for i, a := range r.Expert {
		fmt.Fprintf(w, "  %2d. %s\n", i+1, a)
	}
	if len(r.Plan) > 0 {
		fmt.Fprintf(w, "\ninformed optimum (%s):\n", plural(len(r.Plan), "step"))
		for i, a := range r.Plan {
			fmt.Fprintf(w, "  %2d. %s\n", i+1, a)
		}
	}
	fmt.Fprintf(w, "\nevidence set (%s, from the %s):\n", plural(len(r.Evidence), "read"), r.EvidenceFrom)
	for _, a := range r.Evidence {
		fmt.Fprintf(w, "  %s\n", a)
	}
	fmt.Fprintf(w, "optimal steps: %d\n", r.Optimal)
	if r.EvidenceFrom == "expert plan" {
		fmt.Fprintf(w, "  (no informed optimum could be derived; these are the expert plan's reads)\n")
	}
	passed := 0
	for _, x := range r.Panel {
		if x.Passed {
			passed++
		}
	}
	fmt.Fprintf(w, "\nexploit panel (%d policies, %d passed):\n", len(r.Panel), passed)
	for _, x := range r.Panel {
		outcome := "failed"
		if x.Passed {
			outcome = "PASSED"
		}
		fmt.Fprintf(w, "  %-6s  reward %.3f  %s\n", outcome, x.FinalReward, x.Name)
		if x.Why != "" {
			fmt.Fprintf(w, "          why: %s\n", x.Why)
		}
	}
	if r.Closest != nil {
		fmt.Fprintf(w, "\nclosest exploit: %s (reward %.3f)\n  failed because %s\n", r.Closest.Name, r.Closest.FinalReward, r.Closest.Why)
	} else if len(r.Panel) > 0 {
		fmt.Fprintf(w, "\nclosest exploit: none failed\n")
	}
	if len(r.Adaptive) > 0 {
		won := 0
		for _, x := range r.Adaptive {
			if x.Wins > 0 {
				won++
			}
		}
		fmt.Fprintf(w, "\nadaptive answer-blind policies (%d of %d win; each plays %d episodes: every site variant, seeds 1-%d):\n",
			won, len(r.Adaptive), r.Adaptive[0].Episodes, certify.AdaptiveSeeds)
		for _, x := range r.Adaptive {
			outcome := "lost"
			switch {
			case x.Wins > 0 && x.KnownExploit != "":
				outcome = "KNOWN"
			case x.Wins > 0:
				outcome = "WINS"
			}
			fmt.Fprintf(w, "  %-5s  %d/%d won  reward %.3f  %s  (site %d, seed %d)\n", outcome, x.Wins, x.Episodes, x.FinalReward, x.Name, x.Site, x.Seed)
			if x.Wins > 0 {
				fmt.Fprintf(w, "          plan: %s\n", strings.Join(x.Plan, "; "))
				if x.KnownExploit != "" {
					fmt.Fprintf(w, "          excused, a known exploit of the shipped suite: %s\n", x.KnownExploit)
				}
			} else if x.Why != "" {
				fmt.Fprintf(w, "          why: %s\n", x.Why)
			}
		}
	}
	fmt.Fprintf(w, "\ndistinguishing observations (%s):\n", plural(len(r.Distinguishing), "alternative"))
	for _, x := range r.Distinguishing {
		if x.Read == "" {
			fmt.Fprintf(w, "  vs %s: no read tells them apart\n", x.Alternative)
			continue
		}
		fmt.Fprintf(w, "  vs %s: %s\n    this incident shows:\n%s    the alternative shows:\n%s", x.Alternative, x.Read, indent(x.Incident, "      "), indent(x.Other, "      "))
	}
}

// indent prefixes every line of text.
func indent(text, prefix string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		if line != "" {
			b.WriteString(prefix + line)
		}
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		b.WriteByte('\n')
	}
	return b.String()
}
