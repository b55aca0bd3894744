package certify

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// The leak lint (DESIGN.md, "Leak lint"): nothing an agent reads may give
// the answer away. It checks the renderer's templates statically (the
// literal text of every log rule, the alert, the tool docs, the intro) and
// every read along the expert's trace and a survey trace (every read tool
// on every service, in order; the exploit panel's plans read nothing), each
// observation rendered as text by the runtime's one renderer. Forbidden:
//
//   - accepted diagnosis wording: every mechanism phrase of two or more
//     words, and the single-word phrases of the incident's own faults'
//     mechanisms;
//   - the name of a fault kind (the incident's own), and the incident id;
//   - advice phrases ("root cause", "should be set to", ...);
//   - a config key shown on one line beside its fix target value while the
//     key's current value differs; except in the change history, whose
//     old value is in-episode evidence of a regression's restore value by
//     design (DESIGN.md, "No published answers"), so only its wording is
//     checked.
//
// Config key and metric names (the schema, shown whatever the fault) are
// masked before the phrase checks, as eval/golden_test.go does:
// "maintenance_mode = false" names a key, not the mechanism; in the tools'
// docs, tool and argument names ("root_cause") are masked too. Each
// forbidden phrase is reported once, at the first place it is found:
// templates first, then the intro, then reads in trace order.
//
// Text is matched as the grader matches a diagnosis: lower-cased ASCII,
// every run of other bytes one word break, phrases on word boundaries.

// advicePhrases tell an agent what to do or what went wrong.
var advicePhrases = []string{"root cause", "should be set to", "misconfigured", "the fix is", "recommended value"}

// forbidden is one phrase no agent-visible text may contain.
type forbidden struct {
	words string // normalised, with a trailing space: "pool exhausted "
	what  string // what it is, "%s" standing for the phrase as quoted
	name  string // what the finding quotes
}

// fixTarget is a config key with the value a remedy sets it to.
type fixTarget struct {
	service int16
	slot    engine.SlotID
	key     string
	name    string // "service.key"
	word    uint64
	texts   []string // the value as the renderer may print it
}

type leakLinter struct {
	t       *engine.Task
	phrases []forbidden
	// byFirst indexes phrases by their first word.
	byFirst map[string][]int
	// schema are the names masked before the phrase checks; toolWords
	// are masked in the tools' docs only (elsewhere "fix" is a word).
	schema, toolWords map[string]bool
	// maskable and starts prefilter the map lookups: bit n of [c] is set
	// when a name to mask (a phrase's first word) starts with byte c and
	// has n bytes (n >= 63: bit 63).
	maskable, starts [256]uint64
	targets          []fixTarget
	init             []uint64 // the row the agent starts from
	failures         []string
	reported         map[string]bool

	ep        *engine.Episode
	hay, text []byte
	words     []int32
	hits      []int
}

// leakLint runs the lint on t; panel holds the exploit panel's plans,
// whose reads are checked along with the expert's. It returns one
// certification failure per place that shows something new.
func leakLint(t *engine.Task) []string {
	l := newLeakLinter(t)
	plans := [][]step{bindPlan(t, t.Expert), surveyPlan(t)}
	// One episode plays every trace, with a budget that fits the longest
	// (an episode sizes its buffers by the budget).
	open := *t
	for _, p := range plans {
		open.Budget = max(open.Budget, len(p)+1)
	}
	l.ep = engine.NewEpisode(&open)
	l.templates()
	for _, p := range plans {
		l.trace(p)
	}
	return l.failures
}

func newLeakLinter(t *engine.Task) *leakLinter {
	l := &leakLinter{t: t, byFirst: map[string][]int{}, schema: map[string]bool{}, toolWords: map[string]bool{}, reported: map[string]bool{}}
	if n := len(t.Slots); n > 0 && len(t.Init) == t.History*n {
		l.init = t.Row()
	}
	// Messages are built only for findings: this runs for every task.
	add := func(p, what, name string) {
		if p == "" || l.reported[p] {
			return
		}
		l.reported[p] = true // listed; cleared below
		first, _, _ := strings.Cut(p, " ")
		l.byFirst[first] = append(l.byFirst[first], len(l.phrases))
		l.starts[first[0]] |= lenBit(len(first))
		l.phrases = append(l.phrases, forbidden{p + " ", what, name})
	}
	own := make([]bool, len(t.Mechanisms))
	for _, f := range t.Faults {
		if int(f.Mechanism) < len(own) {
			own[f.Mechanism] = true
		}
	}
	for i, m := range t.Mechanisms {
		for _, p := range m.Phrases { // normalised by the compiler
			if own[i] || strings.IndexByte(p, ' ') >= 0 {
				add(p, "the diagnosis phrase %s (mechanism "+m.Name+")", p)
			}
		}
	}
	for _, f := range t.Faults {
		add(lang.NormalizePhrase(f.Kind), "the fault kind name %s", f.Kind)
	}
	add(lang.NormalizePhrase(t.ID), "the incident id %s", t.ID)
	for _, p := range advicePhrases {
		add(p, "the advice phrase %s", p)
	}
	clear(l.reported)

	mask := func(m map[string]bool, name string) {
		if name != "" {
			m[name] = true
			l.maskable[name[0]] |= lenBit(len(name))
		}
	}
	for i := range t.Slots {
		if c := t.Slots[i].Class; c == engine.ClassConfig || c == engine.ClassMetric {
			mask(l.schema, t.Slots[i].Name)
		}
	}
	for _, tl := range t.Tools {
		mask(l.toolWords, tl.Name)
		for _, a := range tl.Args {
			mask(l.toolWords, a.Name)
		}
	}
	for _, f := range t.Faults {
		for _, r := range f.Remedies {
			if r.Effect != engine.EffectUpdate || r.Slot < 0 || int(r.Slot) >= len(t.Slots) || r.Service < 0 || int(r.Service) >= len(t.Services) {
				continue
			}
			sl := &t.Slots[r.Slot]
			l.targets = append(l.targets, fixTarget{service: r.Service, slot: r.Slot, key: sl.Name, name: t.Services[r.Service].Name + "." + sl.Name, word: r.Value, texts: wordTexts(t, sl, r.Value)})
		}
	}
	return l
}

// wordTexts lists the ways the renderer may print a slot word.
func wordTexts(t *engine.Task, sl *engine.Slot, w uint64) []string {
	switch sl.Kind {
	case value.Int:
		return []string{strconv.FormatInt(int64(w), 10)}
	case value.Float:
		f := math.Float64frombits(w)
		out := []string{string(value.AppendFloat(nil, f))}
		if sl.Precision > 0 {
			out = append(out, strconv.FormatFloat(f, 'f', int(sl.Precision), 64))
		}
		if f == math.Trunc(f) && math.Abs(f) < 1e15 {
			out = append(out, strconv.FormatInt(int64(f), 10))
		}
		return out
	case value.Bool:
		return []string{strconv.FormatBool(w != 0)}
	case value.String:
		if int(w) < len(t.Strings) && t.Strings[w] != "" {
			return []string{t.Strings[w]}
		}
	}
	return nil
}

// templates checks what every episode shows, whatever the agent does: the
// literal text of every log rule, the alert, the tools' docs and the intro.
func (l *leakLinter) templates() {
	t := l.t
	var joined []byte
	for i := range t.Logs {
		lr := &t.Logs[i]
		where := func() string { return "the template of " + l.logName(lr) }
		l.logWording(where, lr)
		joined = joined[:0]
		for _, p := range lr.Parts {
			if p.Hole != engine.NoSlot || p.ID != engine.LogIDNone {
				joined = append(joined, " {} "...)
				continue
			}
			joined = append(joined, p.Lit...)
			l.phrasesIn(where, []byte(p.Lit), false)
		}
		l.targetsIn(where, joined, -1, l.init)
	}
	l.check(fixed("the alert"), t.Alert, false)
	for _, tl := range t.Tools {
		l.check(fixed("the doc of tool "+tl.Name), tl.Doc, true)
		for _, a := range tl.Args {
			l.check(fixed("the doc of argument "+tl.Name+"."+a.Name), a.Doc, true)
		}
	}
	// The intro as rendered (its budget is the lint's, a number no key
	// stands beside).
	l.ep.Reset(Seed)
	l.check(fixed("the intro"), string(l.ep.AppendIntro(nil)), true)
}

// fixed names a place; places are names built only when a finding needs
// one.
func fixed(s string) func() string { return func() string { return s } }

// check looks for every kind of leak in a static text; tools says it
// documents the tools, whose names are then masked too.
func (l *leakLinter) check(where func() string, text string, tools bool) {
	l.phrasesIn(where, []byte(text), tools)
	l.targetsIn(where, []byte(text), -1, l.init)
}

// logName names a log rule as its author wrote it: its name and the
// service kind that declares it.
func (l *leakLinter) logName(lr *engine.LogRule) string {
	t := l.t
	kind, name := "?", "?"
	if lr.Service >= 0 && int(lr.Service) < len(t.Services) {
		kind = t.Services[lr.Service].Kind
	}
	if lr.Active >= 0 && int(lr.Active) < len(t.Slots) {
		name = t.Slots[lr.Active].Name
	}
	return fmt.Sprintf("log %q of service kind %s", name, kind)
}

// step is one action of a trace, bound, with its text.
type step struct {
	text string
	act  engine.Action
}

func bindPlan(t *engine.Task, plan []string) []step {
	out := make([]step, len(plan))
	for i, text := range plan {
		out[i] = step{strings.TrimSpace(text), action.Bind(t, text)}
	}
	return out
}

// surveyPlan reads every service with every read tool that takes only a
// service, in order, and calls every read tool that needs no argument (the
// whole change history): a trace that sees every log rule, metric, config
// value and change an agent could see early on.
func surveyPlan(t *engine.Task) []step {
	var out []step
	for _, tl := range t.Tools {
		if !tl.Effect.IsRead() || len(tl.Args) == 0 || tl.Args[0].Type != engine.ArgService {
			continue
		}
		required := 0
		for _, a := range tl.Args {
			if !a.Optional {
				required++
			}
		}
		if required == 0 {
			out = append(out, step{tl.Name + "()", t.Bind(tl.Name, nil)})
			continue
		}
		if required != 1 {
			continue
		}
		for _, s := range t.Services {
			out = append(out, step{tl.Name + "(" + s.Name + ")", t.Bind(tl.Name, []value.Value{value.OfString(s.Name)})})
		}
	}
	return out
}

// trace plays a plan from the certification seed and checks every read's
// rendered observation.
func (l *leakLinter) trace(plan []step) {
	t := l.t
	reads := false
	for i := range plan {
		a := &plan[i].act
		reads = reads || a.Err == engine.OK && a.Tool >= 0 && int(a.Tool) < len(t.Tools) && t.Tools[a.Tool].Effect.IsRead()
	}
	if !reads {
		return
	}
	ep := l.ep
	ep.Reset(Seed)
	for i := range plan {
		if ep.Done() {
			break
		}
		a := &plan[i].act
		r := ep.Step(a)
		if r.Obs.Err != engine.OK || a.Tool < 0 || !t.Tools[a.Tool].Effect.IsRead() {
			continue
		}
		l.text = ep.AppendText(l.text[:0], &r.Obs)
		svc := int16(-1)
		if t.Tools[a.Tool].Effect == engine.EffectConfig {
			svc = a.Service // a config listing shows one service's keys
		}
		where := fixed(plan[i].text)
		l.phrasesIn(where, l.text, false)
		if t.Tools[a.Tool].Effect != engine.EffectChanges {
			l.targetsIn(where, l.text, svc, ep.Row())
		}
	}
}

// normalise fills l.hay with text as the grader reads a diagnosis, the
// schema (and, with tools, tool and argument names) masked, and l.words
// with the offsets where its words start.
func (l *leakLinter) normalise(text []byte, tools bool) {
	h := append(l.hay[:0], ' ')
	for i := 0; i < len(text); {
		c := text[i]
		if !isIdentByte(c) && c < 0x80 {
			if h[len(h)-1] != ' ' {
				h = append(h, ' ')
			}
			i++
			continue
		}
		j := i
		for j < len(text) && (isIdentByte(text[j]) || text[j] >= 0x80) {
			j++
		}
		tok := text[i:j]
		masked := l.maskable[tok[0]]&lenBit(len(tok)) != 0 && (l.schema[string(tok)] || tools && l.toolWords[string(tok)])
		if !masked {
			for _, c := range tok {
				switch {
				case c >= 'A' && c <= 'Z':
					h = append(h, c+('a'-'A'))
				case c == '_':
					if h[len(h)-1] != ' ' {
						h = append(h, ' ')
					}
				default:
					h = append(h, c)
				}
			}
		}
		if h[len(h)-1] != ' ' {
			h = append(h, ' ')
		}
		i = j
	}
	l.hay = h
	l.words = l.words[:0]
	for i := 1; i < len(h); i++ {
		if h[i-1] == ' ' && h[i] != ' ' {
			l.words = append(l.words, int32(i))
		}
	}
}

// found lists the forbidden phrases in l.hay (indices), in text order.
func (l *leakLinter) found() []int {
	h := l.hay
	l.hits = l.hits[:0]
	for _, w := range l.words {
		end := int(w)
		for end < len(h) && h[end] != ' ' {
			end++
		}
		if l.starts[h[w]]&lenBit(end-int(w)) == 0 {
			continue
		}
		for _, pi := range l.byFirst[string(h[w:end])] {
			if p := l.phrases[pi].words; len(h)-int(w) >= len(p) && string(h[int(w):int(w)+len(p)]) == p {
				l.hits = append(l.hits, pi)
			}
		}
	}
	return l.hits
}

// phrasesIn reports the forbidden phrases in text not reported before, in
// one failure naming the place.
func (l *leakLinter) phrasesIn(where func() string, text []byte, tools bool) {
	if len(text) == 0 {
		return
	}
	l.normalise(text, tools)
	var what []string
	for _, pi := range l.found() {
		if !l.reported[l.phrases[pi].words] {
			l.reported[l.phrases[pi].words] = true
			f := &l.phrases[pi]
			what = append(what, strings.Replace(f.what, "%s", strconv.Quote(f.name), 1))
		}
	}
	if len(what) > 0 {
		l.failures = append(l.failures, fmt.Sprintf("Leak: %s shows %s.", where(), strings.Join(what, ", ")))
	}
}

// targetsIn reports each fix target that a line of text shows beside its
// key while the key's value in row differs, once per key. svc >= 0 limits
// the keys to that service's (a config listing shows one service's keys).
func (l *leakLinter) targetsIn(where func() string, text []byte, svc int16, row []uint64) {
	for ti := range l.targets {
		tg := &l.targets[ti]
		if svc >= 0 && tg.service != svc || int(tg.slot) < len(row) && row[tg.slot] == tg.word {
			continue
		}
		if l.reported[tg.name] || !bytes.Contains(text, []byte(tg.key)) {
			continue
		}
		if v, ok := tg.shownIn(text); ok {
			l.reported[tg.name] = true
			l.failures = append(l.failures, fmt.Sprintf("Leak: %s shows %s beside its fix value %s while %s has another value.", where(), tg.key, v, tg.name))
		}
	}
}

// shownIn finds a line of text that shows the key and its target value,
// and returns the value as shown.
func (tg *fixTarget) shownIn(text []byte) (string, bool) {
	for rest := text; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		line = stripFrame(line)
		if !containsIdent(line, tg.key) {
			continue
		}
		for _, v := range tg.texts {
			if containsValue(line, v) {
				return v, true
			}
		}
	}
	return "", false
}

// stripFrame drops the renderer's framing from a line, whose numbers are
// not values: the step header "[step 3/12] " and a log line's "  t=40 ".
func stripFrame(line []byte) []byte {
	if rest, ok := bytes.CutPrefix(line, []byte("[step ")); ok {
		if i := bytes.Index(rest, []byte("] ")); i >= 0 {
			line = rest[i+2:]
		}
	}
	trimmed := line
	for len(trimmed) > 0 && trimmed[0] == ' ' {
		trimmed = trimmed[1:]
	}
	if rest, ok := bytes.CutPrefix(trimmed, []byte("t=")); ok {
		i := 0
		for i < len(rest) && (rest[i] >= '0' && rest[i] <= '9' || i == 0 && rest[i] == '-') {
			i++
		}
		if i > 0 && i < len(rest) && rest[i] == ' ' {
			line = rest[i+1:]
			// and the line's time, "14:05:12.345 "
			if sp := bytes.IndexByte(line, ' '); sp == 12 && line[2] == ':' && line[5] == ':' {
				line = line[sp+1:]
			}
		}
	}
	return line
}

func lenBit(n int) uint64 { return 1 << min(n, 63) }

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// containsIdent reports whether name occurs in s as a whole identifier.
func containsIdent(s []byte, name string) bool {
	for i := 0; i+len(name) <= len(s); i++ {
		if string(s[i:i+len(name)]) != name || i > 0 && isIdentByte(s[i-1]) {
			continue
		}
		if end := i + len(name); end >= len(s) || !isIdentByte(s[end]) {
			return true
		}
	}
	return false
}

// containsValue reports whether v occurs in s as a whole token: "50" is in
// "pool_size=50," but not in "150", "50.5" or "1.50".
func containsValue(s []byte, v string) bool {
	for i := 0; i+len(v) <= len(s); i++ {
		if string(s[i:i+len(v)]) != v {
			continue
		}
		if i > 0 && (isIdentByte(s[i-1]) || s[i-1] == '.') {
			continue
		}
		end := i + len(v)
		if end < len(s) && (isIdentByte(s[end]) || s[end] == '.' && end+1 < len(s) && s[end+1] >= '0' && s[end+1] <= '9') {
			continue
		}
		return true
	}
	return false
}
