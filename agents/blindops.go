package agents

import (
	"slices"
	"strconv"
	"strings"
)

// The operations adversary: it has read the published operations
// (renew_certificate, reload_secrets, drop_replication_slot, create_index,
// replace_instance, block_client, delete_queue, reindex) and
// the fault kinds they remedy, and applies every operation whose trigger
// its own reads show, as a careless operator would: renew a certificate
// that expires within the docs' renewal window or has expired, reload the
// secrets of a service whose logs show a refused login, drop a slot the
// database reports inactive, replace an instance that fails requests,
// block the top client when the edge's traffic looks high, delete queues
// that have no consumer, index every column the logged statements filter
// on, on every table they read, reindex every index when lookups scan.
// The tools that want a name get every name of that sort the reads show:
// every slot, queue, instance and index, not only the one at fault. It
// names, for each operation, the
// mechanism the docs remedy with it. blind-operate-rollback also rolls back every change
// of the history first; blind-operate-warnings looks for triggers in
// warning and error lines only.

// renewWithinDays is the docs' renewal window: "a site renews 30 days
// before expiry".
const renewWithinDays = 30.0

// operationReads are the reads that show the operations' triggers: every
// service's logs, then the metrics of every service whose kind can renew
// a certificate or block a client (days to expiry, request rate). Each
// keeps room for one operation after it.
func (b *Blind) operationReads() []move {
	var logs, metrics []move
	for _, s := range b.intro.Services {
		ops := b.operationsOf(s)
		if len(ops) == 0 {
			continue
		}
		logs = append(logs, move{action: "inspect_logs(" + s + ")", reserve: 1})
		if slices.Contains(ops, "renew_certificate") || slices.Contains(ops, "block_client") {
			metrics = append(metrics, move{action: "inspect_metrics(" + s + ")", reserve: 1})
		}
	}
	return append(logs, metrics...)
}

// operationsOf are the operations of s's kind that the intro offers as a
// tool.
func (b *Blind) operationsOf(s string) []string {
	var out []string
	for _, op := range b.k.Operations[b.k.ServiceKinds[s]] {
		for _, t := range b.intro.Tools {
			if t.Name == op {
				out = append(out, op)
				break
			}
		}
	}
	return out
}

// afterOperationReads queues every operation whose trigger the reads
// show, service by service in the intro's order, and blames each cause
// once.
func (b *Blind) afterOperationReads() {
	// A triggered operation that wants names of a sort a listing shows
	// reads that listing first (once), then comes back here.
	var listings []move
	for _, s := range b.intro.Services {
		for _, op := range b.operationsOf(s) {
			l := namedListings[namedOperations[op]]
			if _, ok := b.triggered(op, s); !ok || l == "" || !slices.ContainsFunc(b.intro.Tools, func(t ToolSig) bool { return t.Name == l }) {
				continue
			}
			if read := l + "(" + s + ")"; !b.listed[read] {
				b.listed[read] = true
				listings = append(listings, move{action: read, reserve: 1})
			}
		}
	}
	if len(listings) > 0 {
		b.queue = append(b.queue, listings...)
		b.then = b.afterOperationReads
		return
	}
	blamed := map[string]bool{}
	for _, s := range b.intro.Services {
		for _, op := range b.operationsOf(s) {
			subjects, ok := b.triggered(op, s)
			if !ok {
				continue
			}
			called := b.k.OperationCalled[op]
			if called == "" {
				called = strings.ReplaceAll(op, "_", " ")
			}
			var causes []string
			for _, d := range subjects {
				if c := d + ": " + called; !blamed[c] {
					blamed[c] = true
					causes = append(causes, c)
				}
			}
			if op == "block_client" {
				// The tool wants an address: deny every client address
				// the edge's logs show.
				for _, addr := range logAddresses(b.allLogs[s]) {
					b.queue = append(b.queue, move{action: op + "(" + s + ", " + addr + ")", write: true,
						cause: strings.Join(causes, "; "), change: "blocked " + addr + " on " + s})
					causes = nil
				}
				continue
			}
			if kind, ok := namedOperations[op]; ok {
				// The tool wants a name: apply it to every name of its
				// sort the reads show, as a careless operator would.
				for _, name := range b.seenNames(s, kind) {
					b.queue = append(b.queue, move{action: op + "(" + s + ", " + name + ")", write: true,
						cause: strings.Join(causes, "; "), change: strings.ReplaceAll(op, "_", " ") + " " + name + " on " + s})
					causes = nil
				}
				continue
			}
			if op == "create_index" {
				// The tool wants a table and a column: index every column
				// the logged statements filter on, on every table they
				// read, as a careless operator who reads no plan would.
				for _, tc := range sqlColumns(b.allLogs[s]) {
					b.queue = append(b.queue, move{action: op + "(" + s + ", " + tc[0] + ", " + tc[1] + ")", write: true,
						cause: strings.Join(causes, "; "), change: "created an index on " + tc[0] + "(" + tc[1] + ") on " + s})
					causes = nil
				}
				continue
			}
			b.queue = append(b.queue, move{action: op + "(" + s + ")", write: true,
				cause: strings.Join(causes, "; "), change: strings.ReplaceAll(op, "_", " ") + " on " + s})
		}
	}
}

// triggered says whether the reads show op's trigger on s, and which
// services to blame for it: s itself, or for a refused login the server
// that refuses it.
func (b *Blind) triggered(op, s string) ([]string, bool) {
	lines := b.allLogs[s]
	if b.policy == OperateWarnings {
		lines = b.logs[s]
	}
	has := func(words ...string) bool {
		return slices.ContainsFunc(lines, func(l string) bool {
			l = strings.ToLower(l)
			for _, w := range words {
				if strings.Contains(l, w) {
					return true
				}
			}
			return false
		})
	}
	switch op {
	case "renew_certificate":
		v, ok := b.metricNewest(s, "cert_days_to_expiry")
		return []string{s}, ok && v < renewWithinDays
	case "reload_secrets":
		if !slices.ContainsFunc(b.logs[s], refusedLogin) {
			return nil, false
		}
		return b.refusingServers(s), true
	case "drop_replication_slot":
		// An inactive slot, checkpoints that recycle no WAL, or a full
		// volume: the docs say dropping the inactive slots lets the next
		// checkpoint recycle the WAL they retained.
		return []string{s}, slices.ContainsFunc(lines, func(l string) bool {
			l = strings.ToLower(l)
			return strings.Contains(l, "replication slot") && (strings.Contains(l, "active=false") || strings.Contains(l, "inactive"))
		}) || has("0 removed, 0 recycled", "no space left on device")
	case "replace_instance":
		return []string{s}, slices.ContainsFunc(b.logs[s], func(l string) bool {
			return strings.HasPrefix(l, "ERROR ") && instanceTag(l)
		})
	case "block_client":
		if has("top client") {
			return []string{s}, true
		}
		band, ok := b.k.Metrics[b.k.ServiceKinds[s]]["request_rate"]
		v, seen := b.metricNewest(s, "request_rate")
		return []string{s}, ok && seen && v > band.High
	case "delete_queue":
		return []string{s}, has("0 consumers", "no consumers", "disk resource alarm")
	case "reindex":
		return []string{s}, has("seq scan", "invalid")
	case "create_index":
		return []string{s}, has("seq scan", "duration:", "statement timeout")
	}
	return nil, false
}

// refusingServers are the services a refused login of s is blamed on:
// of the services whose logs show refused logins, those that the most
// such services depend on; s itself when none is a dependency of one.
func (b *Blind) refusingServers(s string) []string {
	var refusing []string
	for _, d := range b.intro.Services {
		if slices.ContainsFunc(b.logs[d], refusedLogin) {
			refusing = append(refusing, d)
		}
	}
	best, out := 0, []string{s}
	for _, d := range refusing {
		n := 0
		for _, c := range refusing {
			if slices.Contains(b.k.DependsOn[c], d) {
				n++
			}
		}
		switch {
		case n > best:
			best, out = n, []string{d}
		case n == best && n > 0:
			out = append(out, d)
		}
	}
	return out
}

// refusedLogin says whether a warning or error line reports credentials
// refused (PostgreSQL, Redis, RabbitMQ and client libraries word it
// differently; these are the words they share).
func refusedLogin(line string) bool {
	l := strings.ToLower(line)
	for _, w := range []string{"password", "wrongpass", "credential", "auth", "login refused"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// instanceTag says whether a line names one instance of a service, as
// "[web-2]".
func instanceTag(line string) bool {
	for _, f := range strings.Fields(line) {
		if !strings.HasPrefix(f, "[") || !strings.HasSuffix(f, "]") {
			continue
		}
		name, n, ok := strings.Cut(strings.Trim(f, "[]"), "-")
		if _, err := strconv.Atoi(n); ok && err == nil && name != "" {
			return true
		}
	}
	return false
}

// metricNewest is the newest value of metric name in s's last metrics
// read.
func (b *Blind) metricNewest(s, name string) (float64, bool) {
	for _, line := range strings.Split(b.metrics[s], "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != name {
			continue
		}
		for i := len(f) - 1; i > 0; i-- {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				return v, true
			}
		}
	}
	return 0, false
}

// sqlColumns pairs every table the logged statements read with every
// column they filter, group or sort on, in the order the lines show them.
func sqlColumns(lines []string) [][2]string {
	var tables, columns []string
	add := func(list *[]string, w string) {
		w = strings.Trim(w, "(),;")
		if i := strings.LastIndexByte(w, '.'); i >= 0 {
			w = w[i+1:]
		}
		if w != "" && !slices.Contains(*list, w) && strings.IndexFunc(w, func(r rune) bool {
			return !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
		}) < 0 {
			*list = append(*list, w)
		}
	}
	for _, l := range lines {
		f := strings.Fields(l)
		for i := 0; i+1 < len(f); i++ {
			switch {
			case f[i] == "FROM" || f[i] == "JOIN" || f[i] == "UPDATE" || (f[i] == "on" && i > 0 && f[i-1] == "Scan"):
				add(&tables, f[i+1])
			case f[i] == "WHERE" || f[i] == "Filter:" || f[i] == "AND" || (f[i] == "BY" && i > 0 && (f[i-1] == "GROUP" || f[i-1] == "ORDER")):
				add(&columns, f[i+1])
			}
		}
	}
	var out [][2]string
	for _, t := range tables {
		for _, c := range columns {
			out = append(out, [2]string{t, c})
		}
	}
	return out
}

// logAddresses are the IPv4 client addresses the lines show, each once,
// in the order they first appear (a "ADDR:PORT" or a bare "ADDR").
func logAddresses(lines []string) []string {
	var out []string
	for _, l := range lines {
		for _, f := range strings.Fields(l) {
			f = strings.Trim(f, "(),;[]")
			if host, _, ok := strings.Cut(f, ":"); ok {
				f = host
			}
			parts := strings.Split(f, ".")
			if len(parts) != 4 || slices.Contains(out, f) || strings.HasPrefix(f, "10.") {
				continue
			}
			ok := true
			for _, p := range parts {
				n, err := strconv.Atoi(p)
				ok = ok && err == nil && n >= 0 && n <= 255
			}
			if ok {
				out = append(out, f)
			}
		}
	}
	return out
}

// namedOperations are the operations whose tool wants a name, and the
// sort of name: what seenNames looks for.
var namedOperations = map[string]string{
	"drop_replication_slot": "slot",
	"delete_queue":          "queue",
	"replace_instance":      "instance",
	"reindex":               "index",
}

// namedListings are the listing tools that show each sort of name.
var namedListings = map[string]string{"slot": "list_replication_slots", "queue": "list_queues", "index": "list_indexes"}

// seenNames are the names of one sort that s's reads show, each once, in
// the order they first appear: instances as log tags ("[web-2]"), and
// slots, queues and indexes quoted after their word ("queue 'jobs'",
// slot "x") or in the first column of a listing of them.
func (b *Blind) seenNames(s, kind string) []string {
	var out []string
	add := func(w string) {
		w = strings.Trim(w, "[]'\"(),;:")
		if w != "" && !slices.Contains(out, w) && validName(w) {
			out = append(out, w)
		}
	}
	lines := append(append([]string(nil), b.allLogs[s]...), b.listings[s]...)
	for _, l := range lines {
		f := strings.Fields(l)
		for i, w := range f {
			switch kind {
			case "instance":
				if strings.HasPrefix(w, "[") && strings.HasSuffix(w, "]") && instanceTag(w) {
					add(w)
				}
			default:
				if (strings.EqualFold(strings.Trim(w, ":"), kind) || strings.EqualFold(w, kind+"s")) && i+1 < len(f) {
					if n := f[i+1]; strings.HasPrefix(n, "'") || strings.HasPrefix(n, "\"") {
						add(n)
					}
				}
			}
		}
		if name, ok := listingName(l, kind); ok {
			add(name)
		}
	}
	return out
}

// validName is what a tool takes as an identifier.
func validName(w string) bool {
	for i, r := range w {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_'
		if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '.' || r == '-')) {
			return false
		}
	}
	return len(w) > 0 && len(w) <= 63
}

// listingName is the name in the first column of a listing's row ("
// analytics_cdc | logical | f ..." or "jobs.audit-export\t120\t0"),
// where the row is one of kind's listing; header rows do not count.
func listingName(line, kind string) (string, bool) {
	sep := "|"
	if strings.Contains(line, "\t") {
		sep = "\t"
	}
	first, rest, ok := strings.Cut(line, sep)
	if !ok {
		return "", false
	}
	first = strings.TrimSpace(first)
	if i := strings.LastIndex(first, " "); i >= 0 {
		first = first[i+1:] // after a read's stamp or a CLI banner
	}
	header := first == "name" || strings.HasSuffix(first, "_name") || first == "index"
	switch kind {
	case "slot":
		return first, !header && (strings.Contains(rest, "physical") || strings.Contains(rest, "logical"))
	case "index":
		return first, !header && strings.Contains(rest, "btree")
	case "queue":
		return first, !header && sep == "\t"
	}
	return "", false
}
