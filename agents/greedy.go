package agents

import (
	"strconv"
	"strings"
	"sync"
)

// Knowledge is what a greedy operator knows before the incident: the
// published documentation of the system and its service kinds (which
// service is which kind, the words people use for each, every metric's and
// config key's healthy band and default, and what each key going wrong is
// called). It says nothing about any incident; eval builds it from the
// standard library.
type Knowledge struct {
	// ServiceKinds maps a service name to its kind.
	ServiceKinds map[string]string
	// Aliases lists, per kind, the words an alert may use for it.
	Aliases map[string][]string
	// Metrics and Keys give, per kind, the healthy bands and defaults.
	Metrics map[string]map[string]Band
	Keys    map[string][]KeyDoc
	// Crash is the wording for a process that is down.
	Crash string
	// DependsOn lists, per service, the services it depends on (the
	// systems' published topology): what check_dependencies shows.
	DependsOn map[string][]string
	// Mechanisms is the published diagnosis vocabulary.
	Mechanisms []MechanismDoc
	// Operations lists, per kind, the named operations the kind declares
	// (what an operate tool such as renew_certificate does to it).
	Operations map[string][]string
	// OperationCalled is, per operation, what the docs call the fault its
	// remedy fixes: the wording of the mechanism of the first fault kind
	// whose remedy applies it.
	OperationCalled map[string]string

	// mechanismWords are each mechanism's words (blindlog.go), derived
	// once: certification plays log-words on every task and seed.
	mechanismWordsOnce sync.Once
	mechanismWords     [][]string
}

// MechanismDoc is one mechanism of the diagnosis vocabulary as the docs
// publish it.
type MechanismDoc struct {
	Name string
	// Wording is how a diagnosis names it.
	Wording string
	// Text is its id and description with the names and descriptions of
	// the fault kinds diagnosed as it.
	Text string
	// Kinds are the service kinds those fault kinds apply to.
	Kinds []string
	// RollBack says the docs give its fault kinds a rollback as remedy.
	RollBack bool
	// Escalate says the docs give its fault kinds escalation as remedy:
	// the fault is outside the agent's reach.
	Escalate bool
}

// Band is a healthy range.
type Band struct{ Low, High float64 }

// KeyDoc documents one config key: its band (numeric keys), its default as
// an action argument, and what a fault of it is called.
type KeyDoc struct {
	Name      string
	HasBand   bool
	Band      Band
	Default   string
	Mechanism string
	// Below and Above are what a fault that sets the key below or above
	// its default is called, when a fault kind does ("" otherwise).
	Below, Above string
}

// Greedy is the first-anomaly baseline (DESIGN.md): read the status, logs
// and metrics of the service the alert names; take the first anomaly seen
// (a status that is not healthy, an ERROR line, a metric out of its band);
// fix it the stdlib way (restart the service if it is down, else move its
// first out-of-band key back to the default); resolve naming that service
// and the mechanism that key maps to. It reads only what an agent reads.
type Greedy struct {
	k       *Knowledge
	intro   Intro
	service string
	phase   int
	anomaly bool
	down    bool
	fix     string // the write, once chosen
	cause   string
	change  string
}

// NewGreedy returns a greedy agent with the given documentation.
func NewGreedy(k *Knowledge) *Greedy { return &Greedy{k: k} }

func (g *Greedy) Begin(intro string) {
	g.intro = ParseIntro(intro)
	g.service = g.alerted()
	g.phase, g.anomaly, g.down = 0, false, false
	g.fix, g.cause, g.change = "", "", ""
}

// alerted is the service whose name or alias appears first in the alert;
// the first service when none does.
func (g *Greedy) alerted() string {
	alert := " " + normalizeWords(g.intro.Alert) + " "
	best, at := "", len(alert)+1
	for _, s := range g.intro.Services {
		words := append([]string{s}, g.k.Aliases[g.k.ServiceKinds[s]]...)
		for _, w := range words {
			if i := strings.Index(alert, " "+normalizeWords(w)+" "); i >= 0 && i < at {
				best, at = s, i
			}
		}
	}
	if best == "" && len(g.intro.Services) > 0 {
		best = g.intro.Services[0]
	}
	return best
}

func (g *Greedy) Act(obs string) (string, bool) {
	a, final := g.next(obs)
	if a == "" {
		return "", false
	}
	if final {
		g.phase = phaseDone
	}
	return a, true
}

// phaseDone follows an action that ends the episode.
const phaseDone = 99

// next is the next action and whether it ends the episode.
func (g *Greedy) next(obs string) (string, bool) {
	s := g.service
	kind := g.k.ServiceKinds[s]
	switch g.phase {
	case 0:
		g.phase++
		return "check_status(" + s + ")", false
	case 1:
		if st := statusOf(obs); st != "" && st != "healthy" {
			g.anomaly = true
			g.down = st == "down"
		}
		g.phase++
		return "inspect_logs(" + s + ")", false
	case 2:
		g.anomaly = g.anomaly || strings.Contains(obs, " ERROR ")
		g.phase++
		return "inspect_metrics(" + s + ")", false
	case 3:
		g.anomaly = g.anomaly || g.metricOutOfBand(kind, obs)
		g.phase++
		if g.down {
			g.fix = "restart_service(" + s + ")"
			g.cause, g.change = s+": "+g.k.Crash, "restarted "+s
			return g.fix, false
		}
		if !g.anomaly {
			return `escalate("no anomaly on ` + s + `")`, true
		}
		return "inspect_config(" + s + ")", false
	case 4:
		g.phase++
		if g.fix != "" { // restarted: resolve
			return resolveText(g.cause, g.change), true
		}
		for _, kd := range g.k.Keys[kind] {
			v, ok := configValue(obs, kd.Name)
			if !ok || !kd.HasBand {
				continue
			}
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || (f >= kd.Band.Low && f <= kd.Band.High) {
				continue
			}
			g.fix = "update_config(" + s + ", " + kd.Name + ", " + kd.Default + ")"
			g.cause, g.change = s+": "+kd.Mechanism, "set "+kd.Name+" back to "+strings.Trim(kd.Default, `"`)
			return g.fix, false
		}
		return `escalate("no key of ` + s + ` is out of its band")`, true
	case 5:
		g.phase++
		return resolveText(g.cause, g.change), true
	}
	return "", true
}

func resolveText(cause, change string) string {
	return "resolve_incident(" + strconv.Quote(cause) + ", " + strconv.Quote(change) + ")"
}

// statusOf reads "NAME status: X" from a check_status observation.
func statusOf(obs string) string {
	_, after, ok := strings.Cut(obs, " status: ")
	if !ok {
		return ""
	}
	st, _, _ := strings.Cut(after, "\n")
	return strings.TrimSpace(st)
}

// metricOutOfBand reports whether the newest value of any documented
// metric in a metrics observation lies outside its band.
func (g *Greedy) metricOutOfBand(kind, obs string) bool {
	bands := g.k.Metrics[kind]
	for _, line := range strings.Split(obs, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		b, ok := bands[f[0]]
		if !ok {
			continue
		}
		// The newest value is the last number on the line.
		for i := len(f) - 1; i > 0; i-- {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				if v < b.Low || v > b.High {
					return true
				}
				break
			}
		}
	}
	return false
}

// configValue reads "  key = value" from a config observation.
func configValue(obs, key string) (string, bool) {
	v, ok := configValues(obs)[key]
	return v, ok
}

// normalizeWords lowers text and keeps ASCII letters and digits, turning
// every other run of characters into one space. (The grader also keeps
// non-ASCII letters; an alert's service names are ASCII.)
func normalizeWords(s string) string {
	var b strings.Builder
	space := true
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			space = false
		} else if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	return strings.TrimSpace(b.String())
}
