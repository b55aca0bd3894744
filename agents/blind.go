package agents

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The answer-blind adversaries of issue 18 item 5. Each reads before it
// writes, knowing only the published documentation (Knowledge) and what
// its own reads show; none knows anything of the incident. They are the
// yardstick a world in which only SRE skill wins must drive to zero.

// BlindPolicy names an answer-blind adversary.
type BlindPolicy uint8

const (
	// ResetDocs writes every key that differs from its documented default
	// back to the default and restarts every service that is down.
	ResetDocs BlindPolicy = iota + 1
	// ResetBand resets only keys outside their documented band; a key
	// with no band (bool, string) is out of band whenever it differs from
	// its default, the only healthy value the docs give it.
	ResetBand
	// RestartUnhealthy restarts every service whose status is not healthy.
	RestartUnhealthy
	// LogWords names the mechanism whose published words best match a
	// service's warnings and errors, and applies that mechanism's remedy.
	LogWords
	// AlwaysEscalate escalates at once.
	AlwaysEscalate
	// RollbackAll reads the change history, writes every config change
	// back to its old value and rolls back every deployed service.
	RollbackAll
	// RollbackLatest undoes only the newest change (a config write or a
	// rollback): "what changed just before the page?".
	RollbackLatest
	// LogWordsDocs matches mechanisms as LogWords does, but resets every
	// key of the matched mechanism that differs from its documented
	// default, in band or not: what an adversary does once faults stop
	// leaving keys out of band.
	LogWordsDocs
	// Operate applies every published operation whose trigger its reads
	// show (blindops.go) and names the mechanism each one remedies.
	Operate
	// OperateRollback rolls back every change of the history, as
	// RollbackAll does, then plays Operate.
	OperateRollback
	// OperateWarnings plays Operate but looks for triggers only in the
	// warning and error lines of the logs (and in metrics): it acts on
	// what the logs flag as a problem.
	OperateWarnings
)

var blindNames = [...]string{ResetDocs: "reset-docs", ResetBand: "reset-band",
	RestartUnhealthy: "restart-unhealthy", LogWords: "log-words", AlwaysEscalate: "always-escalate",
	RollbackAll: "rollback-all", RollbackLatest: "rollback-latest", LogWordsDocs: "log-words-docs",
	Operate: "operate", OperateRollback: "operate-rollback", OperateWarnings: "operate-warnings"}

func (p BlindPolicy) String() string {
	if int(p) < len(blindNames) && blindNames[p] != "" {
		return blindNames[p]
	}
	return fmt.Sprintf("blind(%d)", uint8(p))
}

// BlindPolicies lists the adversaries in a fixed order.
func BlindPolicies() []BlindPolicy {
	return []BlindPolicy{ResetDocs, ResetBand, RestartUnhealthy, LogWords, LogWordsDocs, AlwaysEscalate, RollbackAll, RollbackLatest, Operate, OperateRollback, OperateWarnings}
}

// BlindPrefix starts the name every blind policy is run under.
const BlindPrefix = "blind-"

// ParseBlindPolicy reads "blind-NAME".
func ParseBlindPolicy(name string) (BlindPolicy, bool) {
	rest, ok := strings.CutPrefix(name, BlindPrefix)
	if !ok {
		return 0, false
	}
	for _, p := range BlindPolicies() {
		if p.String() == rest {
			return p, true
		}
	}
	return 0, false
}

// BlindAgentNames are the blind policies' agent names, in order.
func BlindAgentNames() []string {
	var out []string
	for _, p := range BlindPolicies() {
		out = append(out, BlindPrefix+p.String())
	}
	return out
}

// Blind plays one blind policy.
type Blind struct {
	k      *Knowledge
	policy BlindPolicy
	intro  Intro

	used int // actions played
	// last is the action whose observation comes next, read by its tool
	// and service.
	lastTool, lastService string

	status map[string]string
	config map[string]string // the last config read
	// configs keeps each config log-words has read, by service.
	configs map[string]map[string]string
	logs    map[string][]string
	// metrics keeps each service's last metrics read, and allLogs every
	// line of its last logs read, INFO included.
	metrics map[string]string
	allLogs map[string][]string
	// listings keeps the rows of every listing read (list_indexes,
	// list_queues...), by service.
	listings map[string][]string
	listed   map[string]bool

	queue []move
	// then plans the next moves once the queue is empty; nil resolves.
	then func()

	causes, changes []string
	over            bool
	history         []configChange

	// restarted are the services restarted, in order; checks counts the
	// status reads spent on each since.
	restarted []string
	checks    map[string]int
	// handover is the cause log-words escalates with when the mechanism
	// it matched is answered by escalation alone.
	handover string
}

// move is a planned action. A read is played only while the budget still
// has room for it, reserve more steps, the writes queued and the
// resolution; a write only while it has room for itself and the
// resolution.
type move struct {
	action  string
	write   bool
	reserve int
	cause   string
	change  string
}

// NewBlind returns the given blind policy with the given documentation.
func NewBlind(k *Knowledge, p BlindPolicy) *Blind { return &Blind{k: k, policy: p} }

func (b *Blind) Begin(intro string) {
	b.intro = ParseIntro(intro)
	b.used, b.lastTool, b.lastService = 0, "", ""
	b.status, b.config, b.logs = map[string]string{}, nil, map[string][]string{}
	b.configs = map[string]map[string]string{}
	b.metrics, b.allLogs, b.listings, b.listed = map[string]string{}, map[string][]string{}, map[string][]string{}, map[string]bool{}
	b.queue, b.then, b.causes, b.changes, b.over = nil, nil, nil, nil, false
	b.history = nil
	b.restarted, b.checks, b.handover = nil, map[string]int{}, ""
	switch b.policy {
	case ResetDocs, ResetBand:
		b.queue = b.statusReads()
		b.then = b.afterStatusReset
	case RestartUnhealthy:
		b.queue = b.statusReads()
		b.then = b.afterStatusRestart
	case RollbackAll, RollbackLatest:
		b.queue = []move{{action: "list_changes()", reserve: 1}}
		b.then = b.afterChanges
	case Operate, OperateWarnings:
		b.queue = b.operationReads()
		b.then = b.afterOperationReads
	case OperateRollback:
		b.queue = []move{{action: "list_changes()", reserve: 1}}
		b.then = func() {
			b.afterChanges()
			b.queue = append(b.queue, b.operationReads()...)
			b.then = b.afterOperationReads
		}
	case LogWords, LogWordsDocs:
		for _, s := range b.intro.Services {
			// Room for a config read and a write after the logs.
			b.queue = append(b.queue, move{action: "inspect_logs(" + s + ")", reserve: 2})
		}
		b.then = b.afterLogs
	}
}

func (b *Blind) Act(obs string) (string, bool) {
	if b.over {
		return "", false
	}
	b.read(obs)
	a, final := b.next()
	b.used++
	b.over = final
	b.lastTool, b.lastService = toolAndService(a)
	return a, true
}

// next is the next action and whether it ends the episode.
func (b *Blind) next() (string, bool) {
	if b.policy == AlwaysEscalate {
		return `escalate("cannot determine the cause; handing over to a human responder")`, true
	}
	for {
		for len(b.queue) > 0 {
			m := b.queue[0]
			b.queue = b.queue[1:]
			need := 2 // this move and the resolution
			if !m.write {
				need += m.reserve + b.queuedWrites()
			}
			if b.budget() > 0 && b.used+need > b.budget() {
				continue
			}
			if m.write {
				if tool, s := toolAndService(m.action); tool == "restart_service" {
					b.restarted = append(b.restarted, s)
					b.status[s] = "restarting"
				}
				if m.cause != "" {
					b.causes = append(b.causes, m.cause)
				}
				b.changes = append(b.changes, m.change)
			}
			return m.action, false
		}
		if b.then == nil {
			if a, ok := b.settle(); ok {
				return a, false
			}
			return b.finish(), true
		}
		then := b.then
		b.then = nil
		then()
	}
}

func (b *Blind) budget() int { return b.intro.Budget }

// settle checks, before resolving and while the budget has room, on a
// restarted service not yet seen healthy again: a process takes a while
// to come back, as its status says.
func (b *Blind) settle() (string, bool) {
	for _, s := range b.restarted {
		if b.status[s] == "healthy" || b.checks[s] >= 2 {
			continue
		}
		if b.budget() > 0 && b.used+2 > b.budget() {
			return "", false
		}
		b.checks[s]++
		return "check_status(" + s + ")", true
	}
	return "", false
}

func (b *Blind) queuedWrites() int {
	n := 0
	for _, m := range b.queue {
		if m.write {
			n++
		}
	}
	return n
}

func (b *Blind) finish() string {
	if len(b.causes) == 0 && b.handover != "" {
		return "escalate(" + strconv.Quote(b.handover) + ")"
	}
	if len(b.causes) == 0 {
		return `escalate("no service shows a fault I can fix")`
	}
	return resolveText(strings.Join(b.causes, "; "), strings.Join(b.changes, "; "))
}

// read takes in the observation of the last action.
func (b *Blind) read(obs string) {
	switch b.lastTool {
	case "check_status":
		if st := statusOf(obs); st != "" {
			b.status[b.lastService] = st
		}
	case "check_dependencies":
		for s, st := range dependencyStatuses(obs) {
			b.status[s] = st
		}
	case "inspect_config":
		b.config = configValues(obs)
	case "inspect_logs":
		b.logs[b.lastService] = logLines(obs)
		b.allLogs[b.lastService] = strings.Split(obs, "\n")
	case "inspect_metrics":
		b.metrics[b.lastService] = obs
	case "list_changes":
		b.history = configChanges(obs)
	default:
		if strings.HasPrefix(b.lastTool, "list_") {
			b.listings[b.lastService] = append(b.listings[b.lastService], strings.Split(obs, "\n")...)
		}
	}
}

// afterChanges undoes the changes the history showed, every one or the
// newest: a config change is written back to its old value, a deploy is
// rolled back (once per service: a rollback restores the version before
// the service's newest deploy).
func (b *Blind) afterChanges() {
	rolledBack := map[string]bool{}
	for i, c := range b.history {
		if b.policy == RollbackLatest && i > 0 {
			break
		}
		if c.key == "" {
			if !rolledBack[c.service] {
				rolledBack[c.service] = true
				b.queue = append(b.queue, move{
					action: "rollback(" + c.service + ")",
					write:  true,
					cause:  c.service + ": bad deploy (" + c.new + " deployed over " + c.old + ")",
					change: "rolled " + c.service + " back to " + c.old,
				})
			}
			continue
		}
		kd := KeyDoc{Name: c.key}
		for _, d := range b.k.Keys[b.k.ServiceKinds[c.service]] {
			if d.Name == c.key {
				kd = d
			}
		}
		b.queue = append(b.queue, move{
			action: "update_config(" + c.service + ", " + c.key + ", " + c.old + ")",
			write:  true,
			cause:  c.service + ": " + called(kd, c.new) + " (" + c.key + " changed from " + c.old + " to " + c.new + ")",
			change: "rolled " + c.service + " " + c.key + " back to " + c.old,
		})
	}
}

// configChange is one config entry of the change history, or a deploy
// (key "").
type configChange struct{ service, key, old, new string }

// configChanges reads the config and deploy entries of a list_changes
// observation, newest first as it lists them: "  Fri 17:30  dba-oncall
// database  config max_connections: 300 -> 20", "  Tue 13:10  deploy-bot
// web_server  deploy v2.14.0 -> v2.15.0".
func configChanges(obs string) []configChange {
	var out []configChange
	for _, line := range strings.Split(obs, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 9 && f[4] == "config" && strings.HasSuffix(f[5], ":") && f[7] == "->":
			out = append(out, configChange{service: f[3], key: strings.TrimSuffix(f[5], ":"), old: f[6], new: f[8]})
		case len(f) == 8 && f[4] == "deploy" && f[6] == "->":
			out = append(out, configChange{service: f[3], old: f[5], new: f[7]})
		}
	}
	return out
}

// statusReads learns every service's status in as few reads as the
// published topology allows: check_dependencies of the service whose
// dependencies cover most unknown statuses while that is at least two,
// then check_status of each service still unknown.
func (b *Blind) statusReads() []move {
	known := map[string]bool{}
	var out []move
	for {
		best, cover := "", 1
		for _, s := range b.intro.Services {
			n := 0
			for _, d := range b.k.DependsOn[s] {
				if !known[d] && slices.Contains(b.intro.Services, d) {
					n++
				}
			}
			if n > cover {
				best, cover = s, n
			}
		}
		if best == "" {
			break
		}
		for _, d := range b.k.DependsOn[best] {
			known[d] = true
		}
		out = append(out, move{action: "check_dependencies(" + best + ")"})
	}
	for _, s := range b.intro.Services {
		if !known[s] {
			out = append(out, move{action: "check_status(" + s + ")"})
		}
	}
	return out
}

// afterStatusReset restarts what is down, then reads the config of every
// service, the ones not healthy first, resetting what it finds as it goes.
func (b *Blind) afterStatusReset() {
	for _, s := range b.intro.Services {
		if b.status[s] == "down" {
			b.queue = append(b.queue, b.restart(s))
		}
	}
	var first, rest []string
	for _, s := range b.intro.Services {
		if st := b.status[s]; st != "" && st != "healthy" {
			first = append(first, s)
		} else {
			rest = append(rest, s)
		}
	}
	b.readConfigs(append(first, rest...))
}

// readConfigs reads the configs of services in order, queueing each one's
// resets right after its read.
func (b *Blind) readConfigs(services []string) {
	if len(services) == 0 {
		return
	}
	s := services[0]
	b.queue = append(b.queue, move{action: "inspect_config(" + s + ")", reserve: 1})
	b.then = func() {
		if b.lastTool == "inspect_config" && b.lastService == s {
			b.queue = append(b.queue, b.resets(s)...)
		}
		b.readConfigs(services[1:])
	}
}

// resets are the writes the policy makes to service s given its config.
func (b *Blind) resets(s string) []move {
	var out []move
	for _, kd := range b.k.Keys[b.k.ServiceKinds[s]] {
		v, ok := b.config[kd.Name]
		if !ok || !b.wrong(kd, v) {
			continue
		}
		out = append(out, b.reset(s, kd, v))
	}
	return out
}

// wrong says whether the policy resets key kd holding v: reset-docs and
// log-words-docs whenever v differs from the default, the others only
// when v is out of band (a key with no band is out of band off its
// default).
func (b *Blind) wrong(kd KeyDoc, v string) bool {
	def := strings.Trim(kd.Default, `"`)
	if v == def {
		return false
	}
	if b.policy != ResetDocs && b.policy != LogWordsDocs && kd.HasBand {
		f, err := strconv.ParseFloat(v, 64)
		return err == nil && (f < kd.Band.Low || f > kd.Band.High)
	}
	if kd.HasBand {
		// 4000 and 4000.0 are the same number.
		f, err1 := strconv.ParseFloat(v, 64)
		d, err2 := strconv.ParseFloat(def, 64)
		if err1 == nil && err2 == nil && f == d {
			return false
		}
	}
	return true
}

// reset writes key kd of s back to its default, blaming s for what a fault
// of that key is called.
func (b *Blind) reset(s string, kd KeyDoc, v string) move {
	def := strings.Trim(kd.Default, `"`)
	return move{
		action: "update_config(" + s + ", " + kd.Name + ", " + kd.Default + ")",
		write:  true,
		cause:  s + ": " + called(kd, v) + " (" + kd.Name + " was " + v + ")",
		change: "set " + s + " " + kd.Name + " back to " + def,
	}
}

// called is what a fault of key kd holding v is called: the mechanism of
// a fault kind moving the key that way, or the key's own name.
func called(kd KeyDoc, v string) string {
	if f, err := strconv.ParseFloat(v, 64); err == nil && kd.HasBand {
		d, _ := strconv.ParseFloat(strings.Trim(kd.Default, `"`), 64)
		switch {
		case f < d && kd.Below != "":
			return kd.Below
		case f > d && kd.Above != "":
			return kd.Above
		}
	}
	if kd.Mechanism != "" {
		return kd.Mechanism
	}
	return kd.Name + " misconfigured"
}

func (b *Blind) restart(s string) move {
	return move{action: "restart_service(" + s + ")", write: true,
		cause: s + ": " + b.k.Crash, change: "restarted " + s}
}

// afterStatusRestart restarts every service whose status is not healthy,
// the ones down first. Only a service that was down is named as crashed,
// unless none was: a degraded service is as likely a victim as a cause.
func (b *Blind) afterStatusRestart() {
	var down, degraded []move
	for _, s := range b.intro.Services {
		switch st := b.status[s]; {
		case st == "down":
			down = append(down, b.restart(s))
		case st != "" && st != "healthy":
			degraded = append(degraded, b.restart(s))
		}
	}
	if len(down) > 0 {
		for i := range degraded {
			degraded[i].cause = ""
		}
	}
	b.queue = append(down, degraded...)
}

// toolAndService splits "tool(service, ...)".
func toolAndService(a string) (tool, service string) {
	tool, rest, ok := strings.Cut(a, "(")
	if !ok {
		return a, ""
	}
	rest = strings.TrimSuffix(rest, ")")
	service, _, _ = strings.Cut(rest, ",")
	return tool, strings.TrimSpace(service)
}

// dependencyStatuses reads "  role -> service (status)" lines of a
// check_dependencies observation.
func dependencyStatuses(obs string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(obs, "\n") {
		_, dep, ok := strings.Cut(line, " -> ")
		if !ok {
			continue
		}
		name, st, ok := strings.Cut(strings.TrimSpace(dep), " (")
		if ok {
			out[name] = strings.TrimSuffix(st, ")")
		}
	}
	return out
}

// configValues reads every "  key = value" line of a config observation.
func configValues(obs string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(obs, "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), " = "); ok {
			if _, seen := out[k]; !seen {
				out[k] = v
			}
		}
	}
	return out
}

// Adversary is one policy of the adaptive panel: the name it runs under
// and a maker of a fresh agent.
type Adversary struct {
	Name string
	New  func() Agent
}

// Adversaries are the adaptive panel, in the order reports list it: the
// greedy baseline, then every blind policy, each knowing only k.
func Adversaries(k *Knowledge) []Adversary {
	out := []Adversary{{Name: "greedy", New: func() Agent { return NewGreedy(k) }}}
	for _, p := range BlindPolicies() {
		out = append(out, Adversary{Name: BlindPrefix + p.String(), New: func() Agent { return NewBlind(k, p) }})
	}
	return out
}
