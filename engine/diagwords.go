package engine

// The diagnosis reader's English: words that say what state a thing is in,
// that deny, that lead from a cause to its effects, and idioms that name a
// symptom rather than a cause. These are the language's, not any incident's
// or service's: what the things are (services, settings, parts, mechanisms)
// comes from the stdlib's declarations, compiled into the task's claims.

// State is one way a thing can be wrong. A claim accepts some states and
// is contradicted by others (a pool "too large" when it is too small).
type State uint16

const (
	StateLow State = 1 << iota // too low, too small, too few, too short
	StateHigh
	StateWrong // a wrong value: host, path, target
	StateOff   // disabled, missing, removed
	StateOn    // enabled, left on
	StateExpired
	StateDown // not running
	StateLeaking
	StateFull
	StateSkewed
	// StateFailing is a component failing its callers, said by how it
	// answers them (slow, errors, refusals, unreachable): an outside
	// party's state, which only its callers see.
	StateFailing
	stateCount = iota
)

// statePersists says a change is still in place ("never reverted"): the
// reader's own, never a claim's, so it lies past stateCount.
const statePersists State = 1 << 15

var stateNames = [...]string{"low", "high", "wrong", "off", "on", "expired", "down", "leaking", "full", "skewed", "failing"}

// ParseState maps a state name to its bit.
func ParseState(s string) (State, bool) {
	for i, n := range stateNames {
		if n == s {
			return 1 << i, true
		}
	}
	return 0, false
}

// StateNames lists the states a declaration may name.
func StateNames() []string { return append([]string(nil), stateNames[:]...) }

// Opposite is the state that contradicts s, or 0.
func (s State) Opposite() State {
	switch s {
	case StateLow:
		return StateHigh
	case StateHigh:
		return StateLow
	case StateOff:
		return StateOn
	case StateOn:
		return StateOff
	}
	return 0
}

// String names the states set in s, joined by "|".
func (s State) String() string {
	out := ""
	for i, n := range stateNames {
		if s&(1<<i) != 0 {
			if out != "" {
				out += "|"
			}
			out += n
		}
	}
	return out
}

// statePhrases say a thing is in a state. Multi-word phrases win over
// their first word ("not enough" is low, not a denial).
var statePhrases = []struct {
	phrase string
	state  State
}{
	// low
	{"too low", StateLow}, {"too small", StateLow}, {"too few", StateLow}, {"too short", StateLow},
	// "so few workers that ...": a degree, not "so" leading to an effect.
	{"so few", StateLow}, {"so little", StateLow}, {"so small", StateLow}, {"so short", StateLow}, {"so low", StateLow},
	{"too little", StateLow}, {"too tight", StateLow}, {"too aggressive", StateLow}, {"too strict", StateLow},
	{"too restrictive", StateLow}, {"too conservative", StateLow}, {"too narrow", StateLow}, {"too quickly", StateLow},
	{"too soon", StateLow}, {"too early", StateLow}, {"too fast", StateLow},
	{"not enough", StateLow}, {"not large enough", StateLow}, {"not big enough", StateLow},
	{"not high enough", StateLow}, {"not long enough", StateLow}, {"not sufficient", StateLow},
	{"undersized", StateLow}, {"under sized", StateLow}, {"underprovisioned", StateLow}, {"under provisioned", StateLow},
	{"insufficient", StateLow}, {"inadequate", StateLow}, {"starved", StateLow}, {"starvation", StateLow},
	{"exhausted", StateLow}, {"exhaustion", StateLow}, {"saturated", StateLow}, {"saturation", StateLow},
	{"maxed out", StateLow}, {"at capacity", StateLow}, {"running out", StateLow},
	{"scaled down", StateLow}, {"single", StateLow}, {"dropped to", StateLow}, {"went down to", StateLow}, {"down to", StateLow},
	{"is the cap", StateLow}, {"is the limit", StateLow}, {"lower than", StateLow}, {"smaller than", StateLow}, {"less than", StateLow},
	{"fewer than", StateLow}, {"shorter than", StateLow}, {"below", StateLow}, {"under", StateLow},
	{"low", StateLow}, {"lower", StateLow}, {"small", StateLow}, {"smaller", StateLow}, {"few", StateLow},
	{"short", StateLow}, {"shorter", StateLow}, {"tiny", StateLow}, {"limited", StateLow},
	{"reduced", StateLow}, {"lowered", StateLow}, {"shortened", StateLow}, {"decreased", StateLow}, {"shrunk", StateLow},
	{"shrank", StateLow}, {"cut", StateLow}, {"trimmed", StateLow}, {"slashed", StateLow}, {"dialled down", StateLow}, {"dialed down", StateLow}, {"halved", StateLow}, {"capped", StateLow}, {"tight", StateLow},
	{"aggressive", StateLow}, {"aggressively", StateLow}, {"bottleneck", StateLow}, {"bottlenecked", StateLow},
	{"overwhelmed", StateLow}, {"overloaded", StateLow}, {"can t keep up", StateLow}, {"cannot keep up", StateLow},
	{"couldn t keep up", StateLow}, {"not keeping up", StateLow}, {"can t keep pace", StateLow},
	{"handful", StateLow}, {"a handful", StateLow}, {"don t have enough", StateLow}, {"doesn t have enough", StateLow},
	{"didn t have enough", StateLow}, {"aren t enough", StateLow}, {"isn t enough", StateLow}, {"weren t enough", StateLow},
	{"nowhere near enough", StateLow},
	// A deadline that runs out before the work it guards is done.
	{"before the worker finishes", StateLow}, {"before the consumer finishes", StateLow}, {"before the job finishes", StateLow},
	{"before it finishes", StateLow}, {"before they finish", StateLow}, {"before finishing", StateLow},
	{"before it completes", StateLow}, {"before they complete", StateLow}, {"before the work is done", StateLow},
	{"before it s done", StateLow}, {"before they re done", StateLow}, {"before processing finishes", StateLow},
	// high
	{"too high", StateHigh}, {"too large", StateHigh}, {"too big", StateHigh}, {"too many", StateHigh},
	// "re-enabled autovacuum": a change verb, so before its setting it
	// says how the answer fixed it, and the setting was off.
	{"re enabled", StateOn}, {"reenabled", StateOn},
	{"so many", StateHigh}, {"so much", StateHigh}, {"so large", StateHigh}, {"so big", StateHigh}, {"so high", StateHigh},
	{"too long", StateHigh}, {"too much", StateHigh}, {"too generous", StateHigh}, {"too lenient", StateHigh},
	{"too permissive", StateHigh}, {"oversized", StateHigh}, {"over sized", StateHigh},
	{"overprovisioned", StateHigh}, {"over provisioned", StateHigh}, {"excessive", StateHigh},
	{"excessively", StateHigh}, {"larger than", StateHigh}, {"bigger than", StateHigh}, {"greater than", StateHigh},
	{"higher than", StateHigh}, {"more than", StateHigh}, {"longer than", StateHigh}, {"exceeds", StateHigh},
	{"exceeded", StateHigh}, {"exceeding", StateHigh}, {"above", StateHigh}, {"over", StateHigh},
	{"high", StateHigh}, {"higher", StateHigh}, {"large", StateHigh}, {"larger", StateHigh}, {"big", StateHigh},
	{"huge", StateHigh}, {"many", StateHigh}, {"unbounded", StateHigh}, {"unlimited", StateHigh},
	{"raised", StateHigh}, {"increased", StateHigh}, {"bumped", StateHigh}, {"doubled", StateHigh},
	{"tripled", StateHigh}, {"inflated", StateHigh}, {"scaled up", StateHigh}, {"retrying forever", StateHigh},
	{"oversubscribed", StateHigh}, {"twice as many", StateHigh}, {"twice as much", StateHigh}, {"twice as large", StateHigh}, {"twice as big", StateHigh}, {"half as many", StateLow}, {"half as much", StateLow}, {"over subscribed", StateHigh},
	{"times each", StateHigh}, {"a hundred times", StateHigh}, {"hundreds of times", StateHigh}, {"endlessly", StateHigh}, {"again and again", StateHigh}, {"over and over", StateHigh}, {"dozens of times", StateHigh},
	{"up to", StateHigh}, {"went up to", StateHigh}, {"sized past", StateHigh},
	// a wrong value
	{"wrong", StateWrong}, {"incorrect", StateWrong}, {"stale", StateWrong}, {"outdated", StateWrong},
	{"out of date", StateWrong}, {"obsolete", StateWrong}, {"old", StateWrong}, {"typo", StateWrong},
	{"misspelled", StateWrong}, {"misspelt", StateWrong}, {"mistyped", StateWrong}, {"bogus", StateWrong},
	{"bad", StateWrong}, {"invalid", StateWrong | StateExpired | StateOff}, {"invalidated", StateWrong | StateExpired | StateOff}, {"nonexistent", StateWrong}, {"non existent", StateWrong},
	{"does not exist", StateWrong}, {"no longer exists", StateWrong}, {"no longer resolves", StateWrong}, {"doesn t exist", StateWrong}, {"unresolvable", StateWrong},
	{"does not resolve", StateWrong}, {"doesn t resolve", StateWrong}, {"not resolve", StateWrong},
	{"misconfigured", StateWrong}, {"mis configured", StateWrong}, {"misconfiguration", StateWrong},
	{"mismatch", StateWrong}, {"mismatched", StateWrong}, {"decommissioned", StateWrong}, {"retired", StateWrong},
	{"points to", StateWrong}, {"points at", StateWrong}, {"pointing to", StateWrong}, {"pointing at", StateWrong},
	{"pointed to", StateWrong}, {"pointed at", StateWrong}, {"returns 404", StateWrong}, {"404s", StateWrong},
	{"404", StateWrong}, {"not found", StateWrong}, {"no such host", StateWrong}, {"nxdomain", StateWrong},
	{"doesn t serve", StateWrong}, {"don t serve", StateWrong}, {"don t have", StateWrong}, {"do not have", StateWrong}, {"does not serve", StateWrong}, {"isn t served", StateWrong},
	{"not served", StateWrong}, {"never served", StateWrong}, {"not serving", StateWrong}, {"isn t serving", StateWrong}, {"doesn t have", StateWrong},
	{"broken", StateWrong}, {"faulty", StateWrong},
	// "release v4.4.0 throws on invoice jobs": code that raises is wrong.
	{"has a bug", StateWrong}, {"buggy", StateWrong}, {"has a defect", StateWrong}, {"defective", StateWrong},
	{"throws", StateWrong}, {"throwing", StateWrong}, {"at fault", StateWrong}, {"is the culprit", StateWrong},
	{"to blame", StateWrong}, {"is the problem", StateWrong}, {"changed", StateWrong}, {"switched to", StateWrong}, {"should be", StateWrong}, {"should have been", StateWrong},
	{"instead of", StateWrong}, {"stuck at", StateWrong},
	// "the cache is also failing", "web_server is failing on its own": a
	// second problem asserted beside the first, not a victim of it.
	{"also failing", StateWrong}, {"also fails", StateWrong}, {"also failed", StateWrong}, {"also broken", StateWrong},
	{"also at fault", StateWrong}, {"also to blame", StateWrong}, {"also faulty", StateWrong}, {"also misbehaving", StateWrong},
	{"also unhealthy", StateWrong}, {"also not answering", StateWrong}, {"also not responding", StateWrong}, {"also down", StateWrong}, {"also unreachable", StateWrong}, {"also degraded", StateWrong}, {"also erroring", StateWrong}, {"also has a problem", StateWrong},
	{"on its own", StateWrong}, {"of its own", StateWrong}, {"a separate problem", StateWrong}, {"another problem", StateWrong},
	{"a second problem", StateWrong}, {"independently", StateWrong},
	// off
	{"disabled", StateOff}, {"disable", StateOff}, {"off", StateOff}, {"turned off", StateOff},
	// "turned autovacuum back on", "nobody switched read routing back
	// on": it was off.
	{"back on", StateOff}, {"is back on", StateOn}, {"was back on", StateOn}, {"are back on", StateOn}, {"s back on", StateOn},
	{"out of use", StateOff}, {"switched off", StateOff}, {"not enabled", StateOff}, {"false", StateOff}, {"removed", StateOff},
	{"missing", StateOff}, {"absent", StateOff}, {"dropped", StateOff}, {"deleted", StateOff},
	{"unusable", StateOff}, {"not used", StateOff}, {"unused", StateOff}, {"not being used", StateOff},
	{"no longer used", StateOff}, {"not routed", StateOff}, {"no longer routed", StateOff}, {"bypassed", StateOff},
	{"no longer sent", StateOff}, {"not sent", StateOff}, {"stopped routing", StateOff}, {"stopped sending", StateOff},
	{"turned off", StateOff}, {"gone", StateOff | StateDown}, {"can no longer use", StateOff}, {"no longer uses", StateOff},
	{"hasn t been", StateOff}, {"isn t being", StateOff}, {"lost the use of", StateOff}, {"can t use", StateOff},
	{"cannot use", StateOff}, {"unable to use", StateOff}, {"doesn t use", StateOff}, {"no longer using", StateOff},
	{"stopped", StateOff | StateDown}, {"paused", StateOff}, {"lacks", StateOff | StateLow}, {"lacking", StateOff | StateLow}, {"has no", StateOff | StateLow}, {"have no", StateOff | StateLow}, {"had no", StateOff | StateLow}, {"without", StateOff},
	{"lost", StateOff}, {"no longer go to", StateOff}, {"no longer goes to", StateOff}, {"no longer going to", StateOff},
	{"don t go to", StateOff}, {"doesn t go to", StateOff},
	// "standby receiving 0 queries": a part given no work is not in use.
	{"receiving 0", StateOff}, {"receiving no", StateOff}, {"receives no", StateOff}, {"receives 0", StateOff},
	{"gets no", StateOff}, {"getting no", StateOff}, {"sees no", StateOff}, {"seeing no", StateOff},
	{"serving no", StateOff}, {"serves no", StateOff}, {"handling no", StateOff}, {"handles no", StateOff},
	// on
	{"enabled", StateOn}, {"turned on", StateOn}, {"switched on", StateOn}, {"left on", StateOn},
	{"stuck on", StateOn}, {"left enabled", StateOn}, {"still enabled", StateOn}, {"still on", StateOn},
	{"active", StateOn}, {"in place", StateOn}, {"left in", StateOn}, {"stuck in", StateOn}, {"true", StateOn},
	// expired
	{"expired", StateExpired}, {"expiring", StateExpired}, {"lapsed", StateExpired}, {"revoked", StateExpired},
	{"rotated", StateExpired}, {"no longer valid", StateExpired}, {"not valid", StateExpired},
	{"rejected", StateExpired}, {"past its expiry", StateExpired}, {"past expiry", StateExpired},
	{"no longer accepted", StateExpired}, {"not accepted", StateExpired}, {"out of date", StateExpired},
	{"doesn t accept", StateExpired}, {"does not accept", StateExpired}, {"no longer accepts", StateExpired},
	{"won t accept", StateExpired}, {"rejects", StateExpired}, {"refuses", StateExpired},
	{"rejecting", StateExpired}, {"refusing", StateExpired}, {"ran out", StateLow | StateExpired},
	// down
	{"down", StateDown}, {"crashed", StateDown}, {"crashing", StateDown}, {"dead", StateDown},
	{"died", StateDown}, {"exited", StateDown}, {"offline", StateDown},
	{"not running", StateDown}, {"isn t running", StateDown}, {"wasn t running", StateDown},
	{"unavailable", StateDown}, {"oom killed", StateDown}, {"segfaulted", StateDown},
	{"terminated", StateDown}, {"not started", StateDown}, {"failed to start", StateDown},
	{"quit", StateDown}, {"aborted", StateDown}, {"aren t running", StateDown}, {"weren t running", StateDown},
	{"stayed down", StateDown}, {"segfault", StateDown},
	// leaking
	{"leak", StateLeaking}, {"leaks", StateLeaking}, {"leaking", StateLeaking}, {"leaky", StateLeaking},
	{"keeps growing", StateLeaking}, {"grows without bound", StateLeaking}, {"growing steadily", StateLeaking},
	{"climbing", StateLeaking}, {"creeping", StateLeaking}, {"never freed", StateLeaking}, {"never released", StateLeaking},
	{"grows", StateLeaking}, {"growing", StateLeaking}, {"climbs", StateLeaking},
	{"never frees", StateLeaking}, {"never releases", StateLeaking}, {"holds onto", StateLeaking},
	{"retains", StateLeaking}, {"retaining", StateLeaking},
	// full
	{"full", StateFull}, {"filled", StateFull}, {"filled up", StateFull}, {"out of space", StateFull},
	{"no space left", StateFull},
	// a change still in place: whatever way the setting is wrong
	{"never reverted", statePersists}, {"not reverted", statePersists}, {"wasn t reverted", statePersists},
	{"never rolled back", statePersists}, {"not rolled back", statePersists}, {"wasn t rolled back", statePersists},
	{"never restored", statePersists}, {"not restored", statePersists}, {"wasn t restored", statePersists},
	{"nobody restored", statePersists}, {"never put back", statePersists}, {"never undone", statePersists},
	{"never scaled back", statePersists}, {"not scaled back", statePersists}, {"never set back", statePersists},
	// skewed
	{"skewed", StateSkewed}, {"skew", StateSkewed}, {"uneven", StateSkewed}, {"unevenly", StateSkewed},
	{"imbalanced", StateSkewed}, {"unbalanced", StateSkewed}, {"lopsided", StateSkewed}, {"concentrated", StateSkewed},
	{"concentrates", StateSkewed}, {"pinned", StateSkewed}, {"pins", StateSkewed}, {"pinning", StateSkewed},
	{"hot", StateSkewed}, {"favours", StateSkewed}, {"favors", StateSkewed},
	{"same backend", StateSkewed}, {"one backend", StateSkewed}, {"single backend", StateSkewed}, {"a single host", StateSkewed},
}

// negations deny what follows them in their clause ("no memory pressure
// or evictions"). A phrase of another class that starts with the same word
// ("not enough", "no longer valid") wins, being longer.
var negations = []string{
	"no", "not", "never", "none", "nor", "neither", "nothing", "isn t", "wasn t", "aren t", "weren t",
	"doesn t", "didn t", "don t", "hasn t", "haven t", "can t", "cannot", "rather than", "instead of",
	"ruled out", "rule out", "rules out", "ruling out", "excluded", "exclude", "not the cause",
	"only affected", "just a symptom", "not at fault", "no evidence", "not related", "not relevant",
	"won t", "wouldn t", "will not", "would not",
	// "I initially suspected the keep-alive": a suspicion given up.
	"initially suspected", "first suspected", "originally suspected", "at first suspected", "had suspected",
	"initially thought", "at first thought", "first thought",
}

// exculpations say a service stated as a cause is not one ("web_server:
// only affected"); with verdictDenials they keep a head from blaming.
var exculpations = map[string]bool{"not the cause": true, "only affected": true, "just a symptom": true,
	"not at fault": true, "no evidence": true, "not related": true, "not relevant": true}

// verdictDenials deny their whole clause wherever they stand: "the short
// keep-alive is within band" says nothing is wrong with the keep-alive.
var verdictDenials = []string{
	"unrelated", "irrelevant", "red herring", "red herrings", "has no fault", "no fault of its own", "nothing wrong", "has no problem", "has no issue", "aren t it", "isn t it", "is not it", "are not it", "wasn t it", "weren t it", "fine", "ok", "okay", "is healthy", "are healthy", "was healthy", "were healthy", "looks healthy", "look healthy", "stayed healthy", "is normal", "are normal", "was normal", "seems normal", "nominal",
	"as expected", "unchanged", "innocent", "victim", "victims", "a symptom", "symptoms", "symptom",
	"downstream", "collateral", "looks normal", "looked normal", "within limits", "within its band",
	"within band", "in band", "inside its band", "inside the band", "benign", "harmless", "noise",
	"distraction", "transient", "not a factor", "not the problem", "not the issue",
	// "adding consumers won't help": what would not fix it is not the cause.
	"won t help", "wouldn t help", "will not help", "would not help", "doesn t help", "does not help",
	"didn t help", "did not help", "not help",
	"is correct", "are correct", "looks correct", "look correct", "was correct", "is right", "are right", "looks right",
	// "its warning is cosmetic", "that change doesn't explain the scans".
	"cosmetic", "doesn t explain", "does not explain", "didn t explain", "did not explain",
	"can t explain", "cannot explain", "wouldn t explain", "would not explain", "doesn t account for",
}

// pluralVerdicts deny every clause before them in their sentence: "I
// suspected the keep-alive, and the cache warns, but neither explains it".
var pluralVerdicts = []string{"neither explains", "neither explain", "neither of them", "neither of these",
	"none of them", "none of these", "none of that", "none explains", "none explain"}

// effects lead from a cause to what it caused; what follows one in its
// clause describes victims, not causes.
var effects = []string{
	"so", "causing", "caused", "causes", "leading to", "leads to", "led to", "resulting in", "results in",
	"resulted in", "which made", "which meant", "which means", "making", "made", "thus", "therefore",
	"hence", "meaning", "then", "and so", "as a result", "consequently", "in turn", "which in turn",
	"knock on", "cascading", "cascaded", "cascades", "cascades to", "spills over", "spreads to", "so that", "starving", "piling", "backing up", "triggering",
	"triggered", "which triggered", "until", "forcing", "forced", "sending", "which sent", "pushing",
}

// clauseWords end a clause: negation and effects do not reach past them.
var clauseWords = []string{"but", "however", "although", "though", "whereas", "while", "because", "due to",
	"caused by", "since", "as", "additionally", "separately", "plus", "second", "secondly", "first",
	"firstly", "finally", "and also", "in addition", "on top of that", "it s", "it is", "it was", "the real",
	"actually", "instead"}

// symptomIdioms name what was seen, not why; they mean nothing to the
// grader and keep their words from being read as states or services
// ("marked down", "cache misses", "queue depth").
var symptomIdioms = []string{
	"needs", "need", "expected", "normally", "normal", "usual", "usually", "typical", "typically", "baseline", "default", "defaults", "recommended", "vs", "versus",
	"deadline exceeded", "context deadline exceeded", "root cause", "the cause", "culprit", "the problem", "the issue", "cancelled", "canceled", "killed",
	"kills", "evicted", "turned away", "left over", "leftover", "arriving", "completed", "processed", "backlog",
	"marked down", "marked unhealthy", "marked as down", "taken out of rotation", "out of rotation",
	"cache miss", "cache misses", "cache hit", "cache hits", "cache hit rate", "cache hit ratio", "hit rate",
	"hit ratio", "miss rate", "queue depth", "queue length", "queue size", "queue backlog", "queued",
	"queueing", "queuing", "in the queue", "error rate", "error rates", "latency", "response time",
	"response times", "p95", "p99", "timed out", "timing out", "time out", "times out", "timeouts", "response times",
	"high latency", "slow", "slower", "slowly", "went up", "goes up", "spiked", "spike", "spikes",
	"back up", "backed up", "shut down", "slow down", "slowed down", "fell over",
	"falls back", "fell back", "fall back", "falling back", "fallback", "load", "traffic",
	"connection refused", "connections refused", "refused",
	"errors", "error", "failing", "failed", "failures", "failure", "fails", "5xx", "502", "503", "504",
	// HTTP reason phrases quote a reply; "Service Unavailable" says
	// nothing about a service being down.
	"service unavailable", "bad gateway", "gateway timeout", "internal server error",
	"500", "500s", "502s", "503s", "504s", "429", "429s", "requests", "request", "cpu", "load average",
	"in flight", "in use", "busy", "waiting", "waits", "wait", "held", "holding",
	"upstream", "backends", "backend", "the site", "users", "customers", "checkout",
	"storefront", "orders", "jobs", "job", "messages", "message", "lookups", "reads", "writes", "queries",
	"query", "statements", "statement", "connections", "connection", "sessions", "session", "clients",
	"client", "health checked", "tier", "layer", "side", "host",
	"hosts", "instance", "instances", "node", "nodes", "server", "servers", "pod", "pods",
	// Jobs that "never succeed" are poison, not a denial of what follows.
	"never succeed", "never succeeds", "will never succeed", "never complete", "never completes", "never finish",
	// "was made bigger": a passive, not "made" leading to an effect.
	"was made", "were made", "is made", "are made", "been made", "got made",
	// A table's dead rows are what vacuum reclaims, not a dead process.
	"dead row", "dead rows", "dead row versions", "dead tuples", "dead tuple",
}

// adverbEffects are effect connectives that, right after a service, are
// adverbs of its verb ("the balancer then gives up").
var adverbEffects = map[string]bool{"then": true}

// timePrepositions before "then" make it a time ("since then", "from
// then on"), not a step from a cause to its effect.
var timePrepositions = map[string]bool{"since": true, "from": true, "until": true, "till": true, "by": true,
	"before": true, "after": true}

// calleeMarks before a service name it as the one called
// ("upstream=database"), not the subject of its caller's log line.
var calleeMarks = map[string]bool{"upstream": true}

// slowingVerbs before "down" make it a slowdown ("the misses slow the web
// tier down"), not a process that is down.
var slowingVerbs = map[string]bool{"slow": true, "slows": true, "slowed": true, "slowing": true, "bring": true,
	"brings": true, "bringing": true, "brought": true, "drag": true, "drags": true, "dragging": true}

// corrections say what a value should be ("cache_host = cache01.internal
// -> should be cache.internal"): after "->" they still assert that the
// setting before them is wrong, not an effect.
var corrections = map[string]bool{"should be": true, "should have been": true, "ought to be": true}

// causatives lead to an effect only from a cause: "the config push made
// the load balancer give up" names no cause before "made", so what follows
// is the cause.
var causatives = map[string]bool{"made": true, "making": true, "forced": true, "forcing": true,
	"caused": true, "causes": true, "causing": true, "sending": true, "pushing": true}

// A quantity is a number with a unit ("200 ms", "two seconds", "400 open
// connections", "95%"). Said as a limit ("only allows 400 connections",
// "gives up after 5 s", "kills statements longer than 40 ms", "95% of the
// traffic") it is a value of the setting of that unit on its service, read
// against the setting's band like a quoted value.
type dimension uint8

const (
	dimNone   dimension = iota
	dimTime             // in ms
	dimMemory           // in MB
	dimConnections
	dimAttempts
	dimPercent
	dimConsumers
	dimWorkers
	dimMessages
	dimRate // requests per second
)

type unitScale struct {
	dim   dimension
	scale float64 // base units per unit
}

// unitWords are the words naming a unit after a number, and the units
// settings declare ("ms", "s", "MB", "connections").
var unitWords = map[string]unitScale{
	"ms": {dimTime, 1}, "msec": {dimTime, 1}, "millisecond": {dimTime, 1}, "milliseconds": {dimTime, 1},
	"s": {dimTime, 1000}, "sec": {dimTime, 1000}, "secs": {dimTime, 1000}, "second": {dimTime, 1000}, "seconds": {dimTime, 1000},
	"m": {dimTime, 60000}, "min": {dimTime, 60000}, "mins": {dimTime, 60000}, "minute": {dimTime, 60000}, "minutes": {dimTime, 60000},
	"h": {dimTime, 3600000}, "hour": {dimTime, 3600000}, "hours": {dimTime, 3600000},
	"kb": {dimMemory, 1.0 / 1024}, "mb": {dimMemory, 1}, "mib": {dimMemory, 1}, "megabytes": {dimMemory, 1},
	"gb": {dimMemory, 1024}, "gib": {dimMemory, 1024}, "gigabytes": {dimMemory, 1024}, "tb": {dimMemory, 1 << 20},
	"connections": {dimConnections, 1}, "connection": {dimConnections, 1}, "conns": {dimConnections, 1},
	"attempts": {dimAttempts, 1}, "attempt": {dimAttempts, 1}, "times": {dimAttempts, 1}, "tries": {dimAttempts, 1},
	"retries": {dimAttempts, 1}, "deliveries": {dimAttempts, 1}, "clients": {dimConnections, 1},
	"%": {dimPercent, 1}, "percent": {dimPercent, 1}, "pct": {dimPercent, 1},
	"consumers": {dimConsumers, 1}, "consumer": {dimConsumers, 1},
	"workers": {dimWorkers, 1}, "worker": {dimWorkers, 1}, "threads": {dimWorkers, 1}, "processes": {dimWorkers, 1},
	"messages": {dimMessages, 1}, "jobs": {dimMessages, 1},
	"rps": {dimRate, 1}, "requests/s": {dimRate, 1}, "req/s": {dimRate, 1}, "/s": {dimRate, 1}, "/sec": {dimRate, 1},
}

// numberWords are numbers written out; "one" is left out, being mostly
// a pronoun ("that one web_server host").
var numberWords = map[string]float64{
	"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
	"eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
	"sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
}

// limitWords before a quantity say it is a limit, not a measurement:
// "only waits 200 ms", "after 5 s", "longer than 40 ms", "at most 20".
var limitWords = map[string]bool{"admitted": true, "admits": true, "accepts": true, "allows": true, "only": true, "just": true, "mere": true, "after": true, "than": true,
	"beyond": true, "most": true, "max": true, "maximum": true, "limit": true, "limited": true,
	"capped": true, "cap": true}

// referenceWords before a second number make it the value the first
// replaced or should be ("1500 (was 6000)", "3 (normal 8)").
var referenceWords = map[string]bool{"was": true, "from": true, "normal": true, "normally": true, "usually": true,
	"default": true, "previously": true, "before": true, "vs": true, "versus": true, "expected": true, "usual": true}

// limitNouns name a limit; a setting named with one is named with any.
var limitNouns = []string{"limit", "cap", "ceiling"}

// needWords after a comparative's far side make it a demand ("less than
// consumers need"), not a setting.
var needWords = map[string]bool{"need": true, "needs": true, "take": true, "takes": true, "require": true,
	"requires": true, "want": true, "wants": true}

// scarce words before a quantity judge it too small, so it says more than
// a bare value: "only 1 consumer on the queue".
var scarce = map[string]bool{"only": true, "just": true, "mere": true, "merely": true}

// shareWords after "N% of" say the quantity is a share of the traffic a
// backend gets ("95% of requests").
var shareWords = map[string]bool{"traffic": true, "requests": true, "request": true, "load": true,
	"connections": true, "the": true, "all": true}

// restoreWords before a setting say the answer put it back: a change
// quoted after them is the fix, not the fault ("reverted max_connections
// 20 -> 300").
var restoreWords = map[string]bool{"restored": true, "reverted": true, "restore": true, "revert": true,
	"reset": true, "undid": true, "undo": true, "rolled": true}

// shorthand is on-call shorthand for ordinary words, read as the words
// ("LB conn limit", "lb hc path", "pg idx"). Services' and settings' own
// short names are the stdlib's (component phrases, config aka).
var shorthand = map[string][]string{
	"conn": {"connection"}, "conns": {"connections"}, "hc": {"health", "check"}, "idx": {"index"},
	"cfg": {"config"}, "conf": {"config"}, "vis": {"visibility"}, "pw": {"password"}, "pwd": {"password"},
	"passwd": {"password"},
}

// hostNouns name where a service is found; hostLinks may stand between
// the service and the noun ("the cache at an old name").
var hostNouns = map[string]bool{"name": true, "address": true, "hostname": true, "host": true, "dns": true}
var hostLinks = map[string]bool{"at": true, "under": true, "up": true, "by": true, "a": true, "an": true, "the": true, "its": true,
	"old": true, "wrong": true, "stale": true, "new": true, "bad": true, "different": true, "previous": true}

// pronouns stand for the setting named before them ("it is set to 20 ms").
var pronouns = map[string]bool{"it": true, "which": true, "that": true, "this": true}

// countDims are the dimensions of things counted whole: a fraction ("workers
// 0.40") is a reading of them, never their number.
var countDims = map[dimension]bool{dimConnections: true, dimAttempts: true, dimConsumers: true, dimWorkers: true, dimMessages: true}

// ordinalNouns before a number say which one of a series it is ("attempt
// 9", "restart 12"), not how many there are.
var ordinalNouns = map[string]bool{"attempt": true, "retry": true, "try": true, "restart": true, "run": true,
	"delivery": true, "redelivery": true, "boot": true, "respawn": true, "round": true, "pass": true}

// backendWords name a backend a share of the traffic may go to.
var backendWords = map[string]bool{"backend": true, "backends": true, "server": true, "servers": true, "host": true,
	"hosts": true, "instance": true, "instances": true, "node": true, "nodes": true, "replica": true, "replicas": true}
