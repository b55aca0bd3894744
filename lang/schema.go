package lang

import (
	"sort"
	"strings"
)

// The schema table is every nesting context of the language: each block
// type at the place it may appear, its labels, its attributes (type,
// required or not) and the blocks it nests, with a line of documentation
// for each. The decoder reads its schemas from here (schemaAt), so what it
// accepts and what the table says cannot drift; the language server
// completes and documents from the same table. A context is named by its
// path of block types from the top of a file: "incident/fault",
// "system/fixture/metrics"; "" is a file's top level.

// BlockSchema is one nesting context.
type BlockSchema struct {
	Path   string
	Type   string // the path's last element; "" at the top
	Labels int
	// Label says what the block's label names ("" when it takes none).
	Label string
	Doc   string
	Attrs []AttrSchema
	// Blocks are the nested block types, in the order written here; each
	// is the context Path/type.
	Blocks []string
	// Open blocks take attributes they do not list (a fault's parameters,
	// set_config's keys), which OpenDoc describes; the decoder checks
	// their attributes itself.
	Open    bool
	OpenDoc string
}

// AttrSchema is one attribute of a context.
type AttrSchema struct {
	Name     string
	Type     string
	Required bool
	Doc      string
}

// Attr is the attribute named name, or nil.
func (b *BlockSchema) Attr(name string) *AttrSchema {
	for i := range b.Attrs {
		if b.Attrs[i].Name == name {
			return &b.Attrs[i]
		}
	}
	return nil
}

// SchemaAt is the context at a path of block types ("" or nil for a
// file's top level), or nil when the language has no such place.
func SchemaAt(path ...string) *BlockSchema { return schemaIndex[strings.Join(path, "/")] }

// Schemas lists every context, sorted by path.
func Schemas() []*BlockSchema { return schemaList }

func attr(name, typ, doc string) AttrSchema { return AttrSchema{Name: name, Type: typ, Doc: doc} }
func required(name, typ, doc string) AttrSchema {
	return AttrSchema{Name: name, Type: typ, Required: true, Doc: doc}
}

// Types as hover shows them.
const (
	tString  = "string"
	tStrings = "list of strings"
	tInt     = "int"
	tNumber  = "number"
	tBool    = "bool"
	tType    = `type: "int", "float", "bool" or "string"`
	tExpr    = "expression (a string of expr source)"
	tLiteral = "literal (typed as its slot)"
)

var descriptionAttr = attr("description", tString, "What this declares, shown in hover, in `srezc docs` and (for tools and kinds) to agents where the reference says so.")

var schemaTable = []BlockSchema{
	{Path: "", Doc: "A srezc file: top-level declarations.", Blocks: []string{"incident", "service_kind", "system", "fault_kind", "distractor_kind", "noise_pattern", "benign_change", "tool", "rubric", "suite", "mutation", "suite_spec"}},

	{Path: "service_kind", Labels: 1, Label: "service kind", Doc: "A kind of service: its roles (edges to other services), config keys, hidden state, derived quantities and metrics, statuses, logs, restart and trace.",
		Attrs:  []AttrSchema{descriptionAttr},
		Blocks: []string{"role", "config", "state", "derived", "metric", "status", "log", "restart", "rollback", "operation", "trace"}},
	{Path: "service_kind/role", Labels: 1, Label: "role", Doc: "An edge to another service, bound per system; expressions read ROLE.NAME (the previous tick).",
		Attrs: []AttrSchema{required("kind", tString, "The service kind the role's service must be."), attr("caller", tBool, "True for an inbound edge (that service calls this one); default false, a dependency."), descriptionAttr}},
	{Path: "service_kind/config", Labels: 1, Label: "config key", Doc: "An agent-visible, writable config key, read as config.NAME.",
		Attrs: []AttrSchema{required("type", tType, "The key's type."), required("default", tLiteral, "The documented default."),
			attr("low", tNumber, "Bottom of the healthy band (required for int and float keys)."), attr("high", tNumber, "Top of the healthy band (required for int and float keys)."),
			attr("unit", tString, "The unit shown beside values."), descriptionAttr, attr("aka", tStrings, "Other names an engineer gives the setting; a diagnosis may use any.")}},
	{Path: "service_kind/state", Labels: 1, Label: "state", Doc: "Hidden process state, read as state.NAME; each tick it takes its next value.",
		Attrs: []AttrSchema{required("type", tType, "The state's type."), required("initial", tLiteral, "Its value at the start of an episode."),
			attr("next", tExpr, "Its value next tick, over the previous tick; without it the state keeps its value."), attr("unit", tString, "The unit shown beside values."), descriptionAttr,
			attr("audited", tBool, "The site's change history records changes of this string state (a schema, a queue's declaration) by its name, old -> new, as it records config keys and deploys; a fault's change block may introduce an edit of it. No next.")}},
	{Path: "service_kind/derived", Labels: 1, Label: "derived quantity", Doc: "A quantity computed each tick from config, state and other quantities; hidden from agents.",
		Attrs: []AttrSchema{required("type", tType, "The quantity's type."), required("value", tExpr, "How it is computed."), attr("unit", tString, "The unit shown beside values."), descriptionAttr}},
	{Path: "service_kind/metric", Labels: 1, Label: "metric", Doc: "An agent-visible quantity (int or float), shown by inspect_metrics.",
		Attrs: []AttrSchema{required("type", tType, "int or float."), required("value", tExpr, "How it is computed."), attr("unit", tString, "The unit shown beside values."), descriptionAttr,
			attr("precision", tInt, "Decimals shown for a float metric (0 to 9; unset: the shortest exact form)."), attr("low", tNumber, "Bottom of the healthy band, read by the greedy baseline and mitigation."), attr("high", tNumber, "Top of the healthy band."),
			attr("noise", tString, "How noise may move what reads show of it: fast (the default: jitter, and for a latency one-tick blips), slow (a gauge that moves slowly, such as disk or memory use: jitter at a tenth) or none (a value the system knows exactly, such as a count of backends or the days a certificate has left).")}},
	{Path: "service_kind/status", Labels: 1, Label: "status", Doc: "A status the service shows when its condition holds; the first match wins, else healthy.",
		Attrs: []AttrSchema{required("when", tExpr+", bool", "The condition."), descriptionAttr}},
	{Path: "service_kind/log", Labels: 1, Label: "log rule", Doc: "A log line the service writes while its condition holds, in the dialect of the real system; {expr} holes interpolate values, {@pid}, {@port}, {@req}, {@hex}, {@uuid} and {@mainpid} print ids drawn per line.",
		Attrs: []AttrSchema{required("level", tString, "ERROR, WARN or INFO."), required("when", tExpr+", bool", "The condition."), required("text", "template with {expr} holes and {@id} ids", "The line's text."), descriptionAttr,
			attr("listing", tString, "The listing the line is a row of (a catalog view, a list command's output), which a logs tool with the same listing shows as of the current tick instead of the log stream; the line is then never in the stream. Its level is the row's and is not printed.")}},
	{Path: "service_kind/restart", Doc: "What a restart does to state: each attribute sets a state to a constant.", Open: true, OpenDoc: "A state of this kind and the constant a restart gives it."},
	{Path: "service_kind/rollback", Doc: "What a rollback does to state besides restoring the deployed version (the string state \"version\", whose changes are deploys): each attribute sets a state to a constant, as the previous build runs.", Open: true, OpenDoc: "A state of this kind and the constant a rollback gives it."},
	{Path: "service_kind/operation", Labels: 1, Label: "operation", Doc: "A remediation the kind offers besides restart and rollback (renew a certificate, reload secrets, drain an instance): a tool of effect \"operate\" names it, a fault kind's remedy \"operate\" may require it. Applying it sets states, as its set block says; what it leaves changed on a service no fault needs it on is a wrong change, and applying it to a healthy service where it fixes nothing is a needless operation, judged as a restart of a healthy service is.",
		Attrs: []AttrSchema{descriptionAttr, attr("aka", tStrings, "Phrases a fix statement may use to say the operation was done (\"renewed the certificate\")."),
			attr("args", tStrings, "The names of what the operation acts on (a table, a column, a client address, an instance), which its tool takes after the service as identifier or ip_address arguments of these names, in this order; its set block reads them as arg.NAME (strings). The tool acknowledges every call alike: a name the system has not is a call that changes nothing.")}, Blocks: []string{"set"}},
	{Path: "service_kind/operation/set", Doc: "The states the operation sets.", Open: true, OpenDoc: "A state of this kind and an expression for its new value, evaluated when the operation is applied (it reads state, config, derived quantities and roles as next does)."},
	{Path: "service_kind/trace", Doc: "Which quantities inspect_traces shows for this kind, and the spans its traces show beside the service's own.",
		Attrs: []AttrSchema{attr("latency", tString, "The derived quantity or metric shown as latency."), attr("error_rate", tString, "The derived quantity or metric shown as error rate.")}, Blocks: []string{"span"}},
	{Path: "service_kind/trace/span", Labels: 1, Label: "span", Doc: "A span the service's traces show beside its own, as OpenTelemetry instruments it: a client span for a call to something outside the system (an external API; a leaf under the service's span, cut at its end), or the consumer side of the work the service queues (a trace of its own, linked to the service's span: the work runs after the publish returned).",
		Attrs: []AttrSchema{required("kind", tString, `"client" or "consumer" (OpenTelemetry's SpanKind).`), required("name", tString, "The span's name as a tracing UI shows it (\"POST api.paylane.example/v1/authorizations\", \"process jobs\")."),
			required("latency", tString, "The derived quantity or metric shown as the span's duration (ms)."), attr("error_rate", tString, "The derived quantity or metric shown as the span's error share."),
			attr("status", tString, "A string derived quantity shown as the span's status (\"ok\", \"error\", \"timeout\"); default: the service's status."),
			attr("wait", tString, "Consumer spans: the derived quantity or metric shown as the time the work waited in the queue before a consumer took it (ms)."),
			attr("calls", tStrings, "Consumer spans: roles of the kind whose services the consumers call; their spans sit under this span, not under the service's own.")}},

	{Path: "system", Labels: 1, Label: "system", Doc: "A system: named services of kinds with their roles bound (or literal fixtures, for the sre_zero profile).",
		Attrs: []AttrSchema{descriptionAttr, attr("traffic", "[LOW, HIGH]", "The range the site's client request rate is drawn from per site variant, as vary draws keys (default: 300 requests/s); an incident's traffic pins it.")}, Blocks: []string{"service", "fixture"}},
	{Path: "system/service", Labels: 1, Label: "service", Doc: "A service of the system: its kind, its role bindings, and the site's tuning.",
		Attrs:  []AttrSchema{required("kind", tString, "The service kind."), attr("roles", "object { ROLE = \"SERVICE\" }", "Binds each role of the kind to a service of this system."), descriptionAttr},
		Blocks: []string{"set_config", "vary"}},
	{Path: "system/service/set_config", Doc: "The site's own configuration: the healthy baseline every incident starts from.", Open: true, OpenDoc: "A config key of the service's kind and its site value (inside the healthy band)."},
	{Path: "system/service/vary", Doc: "Keys the site draws per episode: each incident on the system compiles several site variants, each drawing every listed key from its range, and an episode's seed picks one. A key not listed (or pinned in set_config) keeps one value.", Open: true, OpenDoc: "A numeric config key or state of the service's kind and its range [LOW, HIGH], a key's inside its healthy band; every value of the range must keep the site healthy."},
	{Path: "system/fixture", Labels: 1, Label: "service", Doc: "A service given by literal observations (sre_zero profile): the baseline incidents patch.",
		Attrs:  []AttrSchema{required("status", tString, "The status check_status shows."), required("logs", tStrings, "The lines inspect_logs shows."), attr("dependencies", tStrings, "The services it depends on.")},
		Blocks: []string{"metrics", "config"}},
	{Path: "system/fixture/metrics", Doc: "The metrics inspect_metrics shows, each a number or a string.", Open: true, OpenDoc: "A metric and its literal value."},
	{Path: "system/fixture/config", Doc: "The config inspect_config shows, each a number, a string or a bool.", Open: true, OpenDoc: "A config key and its literal value."},

	{Path: "fault_kind", Labels: 1, Label: "fault kind", Doc: "A kind of fault: an edit of the initial state of the services it applies to, its mechanism, parameters, the condition that says it is fixed, and its canonical remedies.",
		Attrs: []AttrSchema{descriptionAttr, required("applies_to", tStrings, "The service kinds it may target."), attr("conflicts_with", tStrings, "Fault kinds that cannot share a target with it."),
			required("mechanism", tString, "A mechanism of the rubric vocabulary: what a diagnosis must name."),
			attr("also_mechanisms", tStrings, "Mechanisms a diagnosis may name instead, for what the fault does (a release that leaks memory: memory_leak)."),
			attr("symptom_mechanisms", tStrings, "Mechanisms a diagnosis may assert of the target beside the cause, as what the fault did to it, without diagnosing it: a server that crashed or will not start because its volume is full (process_crashed, crash_loop). Saying only these diagnoses nothing."),
			attr("detail", tString, "The part at fault, often a config key; a diagnosis may name it."),
			attr("link", tString, "A role of the target's kind: the fault is on the network path from the target to the service bound to that role, written target = \"CLIENT -> SERVER\" in an incident. Symptoms show on the client; a diagnosis may name either end."),
			required("fixed_when", tExpr+", bool", "The author's statement of a fix, in the target's scope plus param.NAME; certification cross-checks it.")},
		Blocks: []string{"param", "set_config", "set_state", "remedy"}},
	{Path: "fault_kind/param", Labels: 1, Label: "parameter", Doc: "A parameter of the fault kind, set per fault block and read as param.NAME.",
		Attrs: []AttrSchema{required("type", tType, "The parameter's type."), required("default", tLiteral, "Its value when a fault block does not set it."), attr("domain", "list of literals", "The values mutation may draw; a fault's value must lie within them."), descriptionAttr}},
	{Path: "fault_kind/set_config", Doc: "Config edits the fault makes to its target's initial state.", Open: true, OpenDoc: "A config key of the target's kind and its faulty value (may read param.NAME; config.KEY and state.NAME, the target's values before the fault, the site's where its system tunes or draws them; traffic, the site's request rate; and floor, ceil, min, max)."},
	{Path: "fault_kind/set_state", Doc: "State edits the fault makes to its target's initial state.", Open: true, OpenDoc: "A state of the target's kind and its faulty value (may read what set_config's values read)."},
	{Path: "fault_kind/remedy", Labels: 1, Label: "remedy (restart_service, update_config, rollback, operate or escalate)", Doc: "A canonical fix: restart_service, update_config of a key (to value, else back to the site's value before the fault), rollback of the fault's deploy, operate: an operation the target's kind declares, or escalate (the fault is outside the agent's reach: escalating with the cause succeeds, any write is a wrong change).",
		Attrs: []AttrSchema{attr("key", tString, "The config key to set (update_config only, and required there)."), attr("operation", tString, "The operation of the target's kind to apply (operate only, and required there)."), attr("role", tString, "A role of the target's kind: the operation is applied to the service bound to it rather than to the target, whose kind must declare it (operate only)."), attr("args", tStrings, "The arguments of the operation's tool after the service, one per name in the operation's args: the table, client or instance the fault is about (operate only, and required where the operation takes arguments)."), attr("value", tLiteral, "The value to set; default: the site's value before the fault, what the fault's change replaced (it follows each drawn site).")}},

	{Path: "distractor_kind", Labels: 1, Label: "distractor kind", Doc: "Harmless but suspicious evidence: edits of a service that is not at fault.",
		Attrs: []AttrSchema{descriptionAttr, required("applies_to", tStrings, "The service kinds it may sit on.")}, Blocks: []string{"set_config", "set_state"}},
	{Path: "distractor_kind/set_config", Doc: "Config edits the distractor makes.", Open: true, OpenDoc: "A config key and its value."},
	{Path: "distractor_kind/set_state", Doc: "State edits the distractor makes.", Open: true, OpenDoc: "A state and its value."},

	{Path: "noise_pattern", Labels: 1, Label: "noise pattern", Doc: "Transient effects on what tools show, drawn from the episode seed.",
		Attrs: []AttrSchema{descriptionAttr, required("effect", tString, "spike, jitter, stale, phantom_restart, health_check_flap, retry or warning."), attr("rate", tNumber, "Chance per tick and metric or service, 0 to 1 (spike, phantom_restart, health_check_flap, retry, warning)."),
			attr("magnitude", tNumber, "Largest factor (spike, on latencies only) or relative amplitude (jitter)."), attr("lag", tInt, "Ticks metrics lag (stale), 0 to 6.")}},

	{Path: "benign_change", Labels: 1, Label: "benign change", Doc: "A harmless tuning change a site makes: a config key of some service kinds and values it may take that keep the site healthy. The compiler draws a few per incident, applies them to the site and lists them in the change history beside any fault's change, so a value that differs from the docs is not by itself a fault.",
		Attrs: []AttrSchema{descriptionAttr, required("applies_to", tStrings, "The service kinds whose key it changes."), required("key", tString, "The config key it changes, or \"version\": a deploy of a new version (the kind's string state \"version\")."),
			required("values", "list of literals", "The values it may set, each inside the key's healthy band."), required("actors", tStrings, "Who makes such changes, as the audit trail names them; a fault's change draws its actor from the same pool."),
			attr("conflicts_with", tStrings, "Fault kinds whose symptoms the change would mask or worsen on the same service: never drawn where one of them is.")}},

	{Path: "tool", Labels: 1, Label: "tool", Doc: "A tool agents may call: its effect and its arguments.",
		Attrs: []AttrSchema{descriptionAttr, required("effect", tString, "logs, metrics, config, status, traces, dependencies, changes, restart, update, rollback, operate, escalate or resolve."),
			attr("operation", tString, "The service kinds' operation an operate tool applies to its service (operate only, and required there)."),
			attr("listing", tString, "The listing a logs tool shows instead of the log stream: the rows of that name its service's kind writes as of the current tick (logs only; some kind must write such rows).")}, Blocks: []string{"arg"}},
	{Path: "tool/arg", Labels: 1, Label: "argument", Doc: "An argument of the tool, in call order.",
		Attrs: []AttrSchema{required("type", tString, "service, config_key, value or text."), attr("optional", tBool, "True when the call may leave it out; no required argument may follow."), descriptionAttr}},

	{Path: "rubric", Labels: 1, Label: "rubric", Doc: "How incidents are graded: weights, penalties and the diagnosis vocabulary (components and mechanisms).",
		Attrs: []AttrSchema{descriptionAttr, attr("profile", tString, "native (the default) or sre_zero, the reference benchmark's grading.")}, Blocks: []string{"weights", "penalties", "component", "mechanism"}},
	{Path: "rubric/weights", Doc: "The weight of each reward component."},
	{Path: "rubric/penalties", Doc: "The penalty of each kind of misstep (negative numbers)."},
	{Path: "rubric/component", Labels: 1, Label: "component", Doc: "Words that name a part of the system in a diagnosis.", Attrs: termAttrs},
	{Path: "rubric/mechanism", Labels: 1, Label: "mechanism", Doc: "Words that name a failure mechanism in a diagnosis; fault kinds name one.", Attrs: termAttrs},

	{Path: "incident", Labels: 1, Label: "incident", Doc: "An incident: a system with faults, distractors and noise, the alert the agent gets, its budget and timing, and the expert plan certification checks.",
		Attrs: []AttrSchema{
			attr("title", tString, "A short title."),
			required("alert", tString, "What the agent is told when the episode starts. It must not give the cause away (the leak lint checks)."),
			required("difficulty", tString, "easy, medium or hard: the author's label, which the greedy baseline's measured success must agree with."),
			required("split", tString, "train, dev or test."),
			attr("tags", tStrings, "Free labels."),
			required("budget", tInt, "The step budget: actions the agent may take before the episode ends."),
			required("system", tString, "The system the incident runs on: a system block of the module or the stdlib."),
			attr("rubric", tString, "The rubric that grades the incident: native (the default) or sre_zero."),
			attr("traffic", tNumber, "Client requests per second arriving at the system, pinned (default: drawn from the system's traffic range per site variant, else 300; above 0, at most 1e6)."),
			attr("draw_key", tString, "What the incident's drawn content (site values and traffic, benign changes, drawn deploys and change times) is keyed by (default: the incident's name). Generated variants write it: variants that differ only in axes that change nothing draw the same site, and held-out variants draw from their secret."),
			attr("warmup", tInt, "Ticks the faults run before the agent arrives, so cascades are in motion at step 0 (default 8)."),
			attr("hold", tInt, "Ticks the grader lets the world settle, and then requires it to stay mitigated for, at resolution (default 3)."),
			attr("resolved_when", tExpr+", bool", "Conditions the incident adds to being mitigated, which is what the world shows (every service healthy, every metric in its band, the alert's condition gone); optional."),
			attr("expert", "list of text actions", "The hand-written expert plan: text actions certification plays and checks against the informed optimum."),
			descriptionAttr,
			attr("root_cause", tString, "sre_zero: the reference's root cause."),
			attr("root_cause_keywords", tStrings, "sre_zero: words a diagnosis must contain."),
			attr("distractor_services", tStrings, "sre_zero: services whose failures are distractors."),
			attr("distractors", tStrings, "sre_zero: the reference's free-text distractor notes, kept for export."),
			attr("terminal_on_wrong_resolution", tBool, "sre_zero: whether a wrong resolution ends the episode (default true)."),
		},
		Blocks: []string{"fault", "change", "distractor", "noise", "fixture", "evidence", "correct_fix", "metadata"}},
	{Path: "incident/fault", Labels: 1, Label: "fault kind", Doc: "A fault of the incident: a fault kind applied to a target, with its parameters.",
		Attrs: []AttrSchema{required("target", tString, "The service the fault applies to.")}, Open: true, OpenDoc: "A parameter of the fault kind and its value (within its domain).",
		Blocks: []string{"change"}},
	{Path: "incident/fault/change", Doc: "Marks the fault as introduced by a config change or a deploy (a fault that sets the state \"version\"), listed in the change history: the key, its value before (the site's) and after (the fault's) come from the fault itself. Faults without it come from no change (a crash, a leak, traffic).",
		Attrs: []AttrSchema{attr("at", tString, changeAtDoc), attr("actor", tString, "Who made the change; default: drawn from the benign changes' actors."),
			attr("key", tString, "The config key the change set, when the fault edits several.")}},
	{Path: "incident/change", Doc: "A further change of the site's recent history: a config key of a service set to a new, healthy value before the incident. It is applied to the site and listed in the change history; certification proves it harmless.",
		Attrs: []AttrSchema{required("service", tString, "The service changed."), required("key", tString, "The config key changed."), required("value", tLiteral, "Its new value (the old one is the site's)."),
			attr("at", tString, changeAtDoc), attr("actor", tString, "Who made the change; default: drawn from the benign changes' actors.")}},
	{Path: "incident/distractor", Labels: 1, Label: "distractor kind", Doc: "Harmless but suspicious evidence on a service that is not at fault; acting on it is measured.",
		Attrs: []AttrSchema{required("target", tString, "The service the distractor sits on.")}},
	{Path: "incident/noise", Labels: 1, Label: "noise pattern", Doc: "A noise pattern: transient effects on what tools show, drawn from the episode seed.",
		Attrs: []AttrSchema{attr("target", tString, "The service it applies to; default every service."), attr("rate", tNumber, "Overrides the pattern's rate."), attr("magnitude", tNumber, "Overrides the pattern's magnitude."), attr("lag", tInt, "Overrides the pattern's lag.")}},
	{Path: "incident/fixture", Labels: 1, Label: "service", Doc: "sre_zero: a patch of a fixture service for this incident (status, logs and dependencies replace; metrics and config merge by key).",
		Attrs:  []AttrSchema{attr("status", tString, "The status check_status shows."), attr("logs", tStrings, "The lines inspect_logs shows."), attr("dependencies", tStrings, "The services it depends on.")},
		Blocks: []string{"metrics", "config"}},
	{Path: "incident/fixture/metrics", Doc: "Metrics merged into the fixture's, by key.", Open: true, OpenDoc: "A metric and its literal value."},
	{Path: "incident/fixture/config", Doc: "Config merged into the fixture's, by key.", Open: true, OpenDoc: "A config key and its literal value."},
	{Path: "incident/evidence", Labels: 1, Label: "evidence key (action_type:service[:KEY])", Doc: "sre_zero: a piece of relevant evidence the reference rewards finding.",
		Attrs: []AttrSchema{attr("description", tString, "The finding, never shown to agents; without one the key itself is recorded.")}},
	{Path: "incident/correct_fix", Doc: "sre_zero: the reference's correct fix.",
		Attrs: []AttrSchema{required("action", tString, "The action type of the fix."), required("service", tString, "The service it acts on."), attr("key", tString, "The config key it sets."),
			attr("min_numeric_value", tNumber, "The least value that fixes."), attr("exact_value", "number, string or bool", "The one value that fixes."), attr("fix_keywords", tStrings, "Words the fix's explanation must contain.")}},
	{Path: "incident/metadata", Doc: "sre_zero: the reference task's metadata, kept for export.", Open: true, OpenDoc: "A metadata entry and its string value."},

	{Path: "suite", Labels: 1, Label: "suite", Doc: "A named, ordered selection of incidents in the reference's split-manifest terms.",
		Attrs: append([]AttrSchema{descriptionAttr}, suiteListAttrs()...)},

	{Path: "mutation", Labels: 1, Label: "mutation", Doc: "Expands an incident along fault × target × parameter × distractor × noise axes (srezc mutate), with a second fault (second_faults) for pairs and cascade for faults upstream of the alert.",
		Attrs: []AttrSchema{descriptionAttr, required("from", tString, "The base incident."), attr("faults", tStrings, "The fault kinds of the axis (default: every kind that applies to a service of the system)."),
			attr("targets", tStrings, "The services of the axis (default: every service a fault applies to)."), attr("parameters", tString, `"domain" (every value of each parameter's domain, the default) or "default".`),
			attr("distractors", tStrings, `Distractor kinds of the axis; "none" for the empty choice.`), attr("noise", tStrings, `Noise patterns of the axis; "none" for the empty choice.`),
			attr("where", "expression over the axes, bool", "Keeps only the variants it holds for: it reads fault, target, kind, param.NAME, distractor, distractor_target, noise, and for a pair fault2, target2, kind2, param2.NAME (\"\" and empty for a single fault), and cascade."), attr("split", tString, "The variants' split."),
			attr("second_faults", tStrings, "A second fault axis: each variant carries two faults, one of faults and one of these (a pair and its reverse are one variant; kinds that cannot share a service, by conflicts_with either way, the same kind or an edit of the same key, are never paired on one)."),
			attr("second_targets", tStrings, "The second fault's services (default: every service it applies to)."),
			attr("pairs", tString, `Where the second fault sits: "distinct" (another service than the first, the default), "same_service" or "any".`),
			attr("cascade", tBool, "Keep only cascades: the fault sits on a service another depends on, and a variant whose alert names a faulty service is rejected, so the alert names a victim downstream of the fault.")},
		Blocks: []string{"param"}},
	{Path: "mutation/param", Labels: 1, Label: "parameter", Doc: "Narrows a parameter's values for every fault kind of the axis that has it.",
		Attrs: []AttrSchema{required("values", "list of literals", "The values; each must be in the parameter's domain.")}},

	{Path: "suite_spec", Labels: 1, Label: "suite spec", Doc: "Describes a generated suite: mutations, task count, seed, split and difficulty shares (srezc suite build).",
		Attrs: []AttrSchema{descriptionAttr, required("mutations", tStrings, "The mutations variants are drawn from."), required("tasks", tInt, "How many tasks the suite holds."),
			attr("seed", tInt, "The draw's seed (default 1)."), attr("splits", "object { train, dev, test = share }", "The split shares (default 0.5, 0.25, 0.25)."),
			attr("mix", "object { easy, medium, hard = share }", "The difficulty shares."), attr("reserve", tString, "A held-out reserve."), attr("secret_hash", tString, "The hash of a secret test split."),
			attr("near_duplicates", tInt, "At most this many tasks per band of near-duplicates: the same mutation, faults, targets, distractors, noise and evidence, numeric parameters within 10% of the band's first task (default 1).")}},
}

const changeAtDoc = `When the change was made: "HH:MM" on the alert's day, or "DAY HH:MM" (DAY one of Mon … Sun) within the week before the alert; default: drawn from the incident.`

var termAttrs = []AttrSchema{required("phrases", tStrings, "Phrases that name it: whole words, case-insensitive."), descriptionAttr,
	attr("about", tStrings, "Mechanisms: the parts of a service a diagnosis naming it asserts about."), attr("states", tStrings, "Mechanisms: the states those parts are in.")}

func suiteListAttrs() []AttrSchema {
	out := make([]AttrSchema, len(SuiteLists))
	for i, n := range SuiteLists {
		out[i] = attr(n, tStrings, "Incidents of the "+strings.ReplaceAll(n, "_", " ")+" list, in order.")
	}
	return out
}

var (
	schemaIndex map[string]*BlockSchema
	schemaList  []*BlockSchema
	// decoderSchemas are the table's contexts as the decoder checks them.
	decoderSchemas map[string]schema
)

func init() {
	weights := []AttrSchema{}
	for _, n := range weightNames {
		weights = append(weights, attr(n, tNumber, "The weight of the "+n+" component."))
	}
	penalties := []AttrSchema{}
	for _, n := range penaltyNames {
		penalties = append(penalties, attr(n, tNumber, "The penalty for "+strings.ReplaceAll(n, "_", " ")+"."))
	}
	schemaIndex = map[string]*BlockSchema{}
	decoderSchemas = map[string]schema{}
	for i := range schemaTable {
		b := &schemaTable[i]
		if i := strings.LastIndexByte(b.Path, '/'); i >= 0 {
			b.Type = b.Path[i+1:]
		} else {
			b.Type = b.Path
		}
		switch b.Path {
		case "rubric/weights":
			b.Attrs = weights
		case "rubric/penalties":
			b.Attrs = penalties
		}
		schemaIndex[b.Path] = b
		schemaList = append(schemaList, b)
	}
	sort.Slice(schemaList, func(i, j int) bool { return schemaList[i].Path < schemaList[j].Path })
	for _, b := range schemaList {
		s := schema{what: "a srezc file", openAttrs: b.Open}
		if b.Path != "" {
			s.what = article(b.Type) + " block"
		}
		// An open block's attributes are its decoder's to check.
		if !b.Open {
			for _, a := range b.Attrs {
				s.attrs = append(s.attrs, a.Name)
				if a.Required {
					s.required = append(s.required, a.Name)
				}
			}
		}
		if len(b.Blocks) > 0 {
			s.blocks = map[string]int{}
			for _, t := range b.Blocks {
				child := schemaIndex[join(b.Path, t)]
				if child == nil {
					panic("lang: schema table: no context " + join(b.Path, t))
				}
				s.blocks[t] = child.Labels
			}
		}
		decoderSchemas[b.Path] = s
	}
}

func join(path, t string) string {
	if path == "" {
		return t
	}
	return path + "/" + t
}

// schemaAt is the decoder's schema of a context of the table.
func schemaAt(path string) schema {
	s, ok := decoderSchemas[path]
	if !ok {
		panic("lang: no schema context " + path) // a decoder bug, not an input's
	}
	return s
}
