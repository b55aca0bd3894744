package lang

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/srezc/srezc/value"
)

// The SRE-Zero task format (spec §2) is JSON whose object key order and
// number literals matter: metrics and config merge in key order, and 0.0
// is a float where 0 is an int. So it is read into an ordered tree that
// keeps each number's literal, and written back from one.

// jnode is a JSON value with its object keys in order and its numbers as
// written.
type jnode struct {
	kind    byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null
	str     string
	num     string
	b       bool
	keys    []string
	keyOffs []int64
	vals    []*jnode
	offset  int64 // where the value starts, for errors
}

func (n *jnode) get(k string) *jnode {
	for i, x := range n.keys {
		if x == k {
			return n.vals[i]
		}
	}
	return nil
}

// parseJSON reads one JSON document into a jnode tree.
func parseJSON(data []byte) (*jnode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseNode(data, dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: data after the JSON document", jsonPos(data, dec.InputOffset()))
	}
	return n, nil
}

// tokenStart is where the token after off starts: the decoder's offset is
// the end of the previous token, before separators and white space.
func tokenStart(data []byte, off int64) int64 {
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
		off++
	}
	return off
}

// parseNode reads one value at nesting depth depth. A task file nests
// four levels; past MaxNestingDepth it is refused rather than followed
// down (80,000 levels used to overflow the stack).
func parseNode(data []byte, dec *json.Decoder, depth int) (*jnode, error) {
	off := tokenStart(data, dec.InputOffset())
	if depth > MaxNestingDepth {
		return nil, fmt.Errorf("%s: JSON nested more than %d levels deep (MaxNestingDepth)", jsonPos(data, off), MaxNestingDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	n := &jnode{offset: off}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n.kind = 'o'
			for dec.More() {
				koff := tokenStart(data, dec.InputOffset())
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := parseNode(data, dec, depth+1)
				if err != nil {
					return nil, err
				}
				n.keys, n.vals, n.keyOffs = append(n.keys, kt.(string)), append(n.vals, v), append(n.keyOffs, koff)
			}
		case '[':
			n.kind = 'a'
			for dec.More() {
				v, err := parseNode(data, dec, depth+1)
				if err != nil {
					return nil, err
				}
				n.vals = append(n.vals, v)
			}
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
	case string:
		n.kind, n.str = 's', t
	case json.Number:
		n.kind, n.num = 'n', string(t)
	case bool:
		n.kind, n.b = 'b', t
	case nil:
		n.kind = 'z'
	}
	return n, nil
}

// jsonPos turns a byte offset into LINE:COL.
func jsonPos(data []byte, off int64) string {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	col := int(off) - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Sprintf("%d:%d", line, col)
}

// refTaskFields are the task file's keys (spec §2); every object level
// forbids others.
var (
	refTaskFields   = []string{"task_id", "difficulty", "alert", "root_cause", "root_cause_keywords", "relevant_evidence", "evidence_descriptions", "correct_fix", "service_patches", "expected_action_pattern", "distractors", "distractor_services", "max_steps", "terminal_on_wrong_resolution", "metadata"}
	refFixFields    = []string{"action_type", "service", "key", "min_numeric_value", "exact_value", "fix_keywords"}
	refPatchFields  = []string{"status", "logs", "metrics", "config", "dependencies"}
	refServiceNames = []string{"web_server", "database", "cache", "message_queue", "load_balancer"}
)

// importer converts one reference task file, reporting the first problem
// with its position in the file.
type importer struct {
	name string
	data []byte
	err  error
}

func (im *importer) fail(n *jnode, format string, args ...any) {
	if im.err == nil {
		im.err = fmt.Errorf("%s:%s: %s", im.name, jsonPos(im.data, n.offset), fmt.Sprintf(format, args...))
	}
}

func (im *importer) object(n *jnode, what string, allowed []string) bool {
	if n.kind != 'o' {
		im.fail(n, "%s must be an object", what)
		return false
	}
	for i, k := range n.keys {
		if !contains(allowed, k) {
			im.fail(&jnode{offset: n.keyOffs[i]}, "unknown field %q in %s%s", k, what, didYouMean(k, allowed))
			return false
		}
	}
	return true
}

func (im *importer) str(n *jnode, what string) string {
	if n == nil || n.kind != 's' {
		if n != nil {
			im.fail(n, "%s must be a string", what)
		}
		return ""
	}
	return n.str
}

func (im *importer) strs(n *jnode, what string) []string {
	if n == nil {
		return nil
	}
	if n.kind != 'a' {
		im.fail(n, "%s must be a list of strings", what)
		return nil
	}
	out := []string{}
	for _, v := range n.vals {
		out = append(out, im.str(v, what+" entries"))
	}
	return out
}

// literal tokens for a JSON scalar, keeping int and float apart.
func (im *importer) scalar(n *jnode, what string, bools bool) hclwrite.Tokens {
	switch n.kind {
	case 's':
		return hclwrite.TokensForValue(cty.StringVal(n.str))
	case 'b':
		if bools {
			return hclwrite.TokensForValue(cty.BoolVal(n.b))
		}
	case 'n':
		lit := n.num
		var toks hclwrite.Tokens
		if strings.HasPrefix(lit, "-") {
			toks = append(toks, &hclwrite.Token{Type: hclsyntax.TokenMinus, Bytes: []byte("-")})
			lit = lit[1:]
		}
		return append(toks, &hclwrite.Token{Type: hclsyntax.TokenNumberLit, Bytes: []byte(lit)})
	}
	im.fail(n, "%s must be a number or a string", what)
	return nil
}

// setLines sets a list of strings written one per line: log lines and
// expert plans read better that way.
func setLines(b *hclwrite.Body, name string, xs []string) {
	if len(xs) == 0 {
		b.SetAttributeValue(name, strList(xs))
		return
	}
	toks := hclwrite.Tokens{{Type: hclsyntax.TokenOBrack, Bytes: []byte("[")}, {Type: hclsyntax.TokenNewline, Bytes: []byte("\n")}}
	for _, x := range xs {
		toks = append(toks, hclwrite.TokensForValue(cty.StringVal(x))...)
		toks = append(toks, &hclwrite.Token{Type: hclsyntax.TokenComma, Bytes: []byte(",")}, &hclwrite.Token{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")})
	}
	toks = append(toks, &hclwrite.Token{Type: hclsyntax.TokenCBrack, Bytes: []byte("]")})
	b.SetAttributeRaw(name, toks)
}

func strList(xs []string) cty.Value {
	if len(xs) == 0 {
		return cty.ListValEmpty(cty.String)
	}
	vals := make([]cty.Value, len(xs))
	for i, x := range xs {
		vals[i] = cty.StringVal(x)
	}
	return cty.TupleVal(vals)
}

// ImportSreZeroTask converts one reference task file into an incident
// under the sre_zero profile, formatted. split is the task's benchmark
// split ("train", "dev" or "test"); unseen marks the unseen_incident
// subset. name is the file's name, for errors.
func ImportSreZeroTask(name string, data []byte, split string, unseen bool) (id string, src []byte, err error) {
	if len(data) > MaxFileBytes {
		return "", nil, fmt.Errorf("%s: the file holds more than %d bytes (MaxFileBytes), the most srezc reads", name, MaxFileBytes)
	}
	im := &importer{name: name, data: data}
	root, err := parseJSON(data)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %v", name, err)
	}
	if !im.object(root, "the task", refTaskFields) {
		return "", nil, im.err
	}
	for _, req := range []string{"task_id", "difficulty", "alert", "root_cause", "root_cause_keywords", "relevant_evidence", "evidence_descriptions", "correct_fix", "service_patches"} {
		if root.get(req) == nil {
			im.fail(root, "missing required field %q", req)
		}
	}
	if im.err != nil {
		return "", nil, im.err
	}
	id = im.str(root.get("task_id"), "task_id")
	if !validName(id) {
		im.fail(root.get("task_id"), "task_id %q is not a name srezc can use (letters, digits, _ and -)", id)
	}

	f := hclwrite.NewEmptyFile()
	body := f.Body()
	body.AppendUnstructuredTokens(hclwrite.Tokens{{Type: hclsyntax.TokenComment, Bytes: []byte("# Imported from the SRE-Zero reference task " + id + " by srezc import sre-zero.\n")}})
	body.AppendNewline()
	blk := body.AppendNewBlock("incident", []string{id}).Body()
	blk.SetAttributeValue("alert", cty.StringVal(im.str(root.get("alert"), "alert")))
	blk.SetAttributeValue("difficulty", cty.StringVal(im.str(root.get("difficulty"), "difficulty")))
	blk.SetAttributeValue("split", cty.StringVal(split))
	tags := []string{"sre_zero"}
	if unseen {
		tags = append(tags, "unseen_incident")
	}
	blk.SetAttributeValue("tags", strList(tags))
	budget := "8"
	if ms := root.get("max_steps"); ms != nil {
		if ms.kind != 'n' || strings.ContainsAny(ms.num, ".eE") {
			im.fail(ms, "max_steps must be an int")
		}
		budget = ms.num
	}
	blk.SetAttributeRaw("budget", hclwrite.Tokens{{Type: hclsyntax.TokenNumberLit, Bytes: []byte(budget)}})
	blk.SetAttributeValue("system", cty.StringVal(ProfileSreZero))
	blk.SetAttributeValue("rubric", cty.StringVal(ProfileSreZero))
	blk.AppendNewline()
	blk.SetAttributeValue("root_cause", cty.StringVal(im.str(root.get("root_cause"), "root_cause")))
	blk.SetAttributeValue("root_cause_keywords", strList(im.strs(root.get("root_cause_keywords"), "root_cause_keywords")))
	if n := root.get("distractor_services"); n != nil {
		blk.SetAttributeValue("distractor_services", strList(im.strs(n, "distractor_services")))
	}
	if n := root.get("distractors"); n != nil {
		setLines(blk, "distractors", im.strs(n, "distractors"))
	}
	if n := root.get("terminal_on_wrong_resolution"); n != nil {
		if n.kind != 'b' {
			im.fail(n, "terminal_on_wrong_resolution must be a bool")
		}
		blk.SetAttributeValue("terminal_on_wrong_resolution", cty.BoolVal(n.b))
	}

	patches := root.get("service_patches")
	if im.object(patches, "service_patches", refServiceNames) {
		for i, svc := range patches.keys {
			p := patches.vals[i]
			if !im.object(p, "the patch of "+svc, refPatchFields) {
				break
			}
			blk.AppendNewline()
			fb := blk.AppendNewBlock("fixture", []string{svc}).Body()
			for j, field := range p.keys {
				v := p.vals[j]
				if v.kind == 'z' {
					continue // null leaves the baseline as it is
				}
				switch field {
				case "status":
					fb.SetAttributeValue("status", cty.StringVal(im.str(v, svc+" status")))
				case "logs":
					setLines(fb, field, im.strs(v, svc+" "+field))
				case "dependencies":
					fb.SetAttributeValue(field, strList(im.strs(v, svc+" "+field)))
				case "metrics", "config":
					if v.kind != 'o' {
						im.fail(v, "%s %s must be an object", svc, field)
						continue
					}
					mb := fb.AppendNewBlock(field, nil).Body()
					for k, key := range v.keys {
						if !hclsyntax.ValidIdentifier(key) {
							im.fail(v.vals[k], "the %s key %q is not an identifier srezc can write", field, key)
							continue
						}
						mb.SetAttributeRaw(key, im.scalar(v.vals[k], svc+" "+field+" "+key, field == "config"))
					}
				}
			}
		}
	}

	descs := root.get("evidence_descriptions")
	im.object(descs, "evidence_descriptions", descs.keys)
	for _, key := range im.strs(root.get("relevant_evidence"), "relevant_evidence") {
		blk.AppendNewline()
		eb := blk.AppendNewBlock("evidence", []string{key}).Body()
		if d := descs.get(key); d != nil {
			eb.SetAttributeValue("description", cty.StringVal(im.str(d, "the description of "+key)))
		}
	}

	fix := root.get("correct_fix")
	if im.object(fix, "correct_fix", refFixFields) {
		blk.AppendNewline()
		fb := blk.AppendNewBlock("correct_fix", nil).Body()
		fb.SetAttributeValue("action", cty.StringVal(im.str(fix.get("action_type"), "correct_fix.action_type")))
		fb.SetAttributeValue("service", cty.StringVal(im.str(fix.get("service"), "correct_fix.service")))
		if k := fix.get("key"); k != nil && k.kind != 'z' {
			fb.SetAttributeValue("key", cty.StringVal(im.str(k, "correct_fix.key")))
		}
		if v := fix.get("min_numeric_value"); v != nil && v.kind != 'z' {
			if v.kind != 'n' {
				im.fail(v, "correct_fix.min_numeric_value must be a number")
			}
			fb.SetAttributeRaw("min_numeric_value", im.scalar(v, "correct_fix.min_numeric_value", false))
		}
		if v := fix.get("exact_value"); v != nil && v.kind != 'z' {
			fb.SetAttributeRaw("exact_value", im.scalar(v, "correct_fix.exact_value", true))
		}
		fb.SetAttributeValue("fix_keywords", strList(im.strs(fix.get("fix_keywords"), "correct_fix.fix_keywords")))
	}

	if md := root.get("metadata"); md != nil {
		if im.object(md, "metadata", md.keys) && len(md.keys) > 0 {
			blk.AppendNewline()
			mb := blk.AppendNewBlock("metadata", nil).Body()
			for i, k := range md.keys {
				if !hclsyntax.ValidIdentifier(k) {
					im.fail(md.vals[i], "the metadata key %q is not an identifier srezc can write", k)
					continue
				}
				mb.SetAttributeValue(k, cty.StringVal(im.str(md.vals[i], "metadata "+k)))
			}
		}
	}
	if n := root.get("expected_action_pattern"); n != nil {
		blk.AppendNewline()
		setLines(blk, "expert", im.strs(n, "expected_action_pattern"))
	}
	if im.err != nil {
		return "", nil, im.err
	}
	out := f.Bytes()
	if over := checkLimits(id+Ext, out); over.HasErrors() {
		// A string or name the front end would refuse: say so now rather
		// than write a file that does not load.
		return "", nil, fmt.Errorf("%s: the task does not fit srezc's limits: %s", name, over[0].Summary+"; "+over[0].Detail)
	}
	return id, formatGenerated(name+Ext, out), nil
}

// SreZeroSplits is the reference's split manifest (task_splits.json): the
// seven lists, each in file order.
type SreZeroSplits map[string][]string

// ParseSreZeroSplits reads task_splits.json.
func ParseSreZeroSplits(name string, data []byte) (SreZeroSplits, error) {
	im := &importer{name: name, data: data}
	root, err := parseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	out := SreZeroSplits{}
	if im.object(root, "the split manifest", SuiteLists) {
		for i, k := range root.keys {
			out[k] = im.strs(root.vals[i], k)
		}
	}
	return out, im.err
}

// Split is the benchmark split of a task, or "" when none lists it.
func (s SreZeroSplits) Split(id string) string {
	for _, name := range []string{"train", "dev", "test"} {
		if contains(s[name], id) {
			return name
		}
	}
	return ""
}

// SuiteSource writes the manifest as a suite block.
func (s SreZeroSplits) SuiteSource(name string) ([]byte, error) {
	return SuiteSource(name, "The SRE-Zero reference's split manifest, imported by srezc import sre-zero.", s), nil
}

// SuiteSource writes a suite block holding lists (by SuiteLists name),
// under a comment.
func SuiteSource(name, comment string, lists map[string][]string) []byte {
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	body.AppendUnstructuredTokens(hclwrite.Tokens{{Type: hclsyntax.TokenComment, Bytes: []byte("# " + comment + "\n")}})
	body.AppendNewline()
	sb := body.AppendNewBlock("suite", []string{name}).Body()
	for _, list := range SuiteLists {
		if ids, ok := lists[list]; ok {
			setLines(sb, list, ids)
		}
	}
	return formatGenerated(name+Ext, f.Bytes())
}

// formatGenerated lays out generated source canonically. The generator
// writes only valid syntax, so Format cannot fail on it; if it ever did,
// the unformatted source is still valid.
func formatGenerated(name string, src []byte) []byte {
	out, diags := Format(name, src)
	if diags.HasErrors() {
		return src
	}
	return out
}

// ExportSreZeroTask writes an sre_zero incident as a reference task file,
// with the reference's key order and each value's type as written.
func ExportSreZeroTask(m *Module, in *Incident) ([]byte, error) {
	r := in.Ref
	if m.Profile(in) != ProfileSreZero || r == nil || r.Fix == nil {
		return nil, fmt.Errorf("%s:%d:%d: incident %q is not an sre_zero incident", in.DefRange.Filename, in.DefRange.Start.Line, in.DefRange.Start.Column, in.Name)
	}
	w := &jsonWriter{}
	w.open('{')
	w.key("task_id").string(in.Name)
	w.key("difficulty").string(in.Difficulty)
	w.key("alert").string(in.Alert)
	w.key("root_cause").string(r.RootCause)
	w.key("root_cause_keywords").strings(r.RootCauseKeywords)
	var keys []string
	for _, e := range r.Evidence {
		keys = append(keys, e.Name)
	}
	w.key("relevant_evidence").strings(keys)
	w.key("evidence_descriptions").open('{')
	for _, e := range r.Evidence {
		if e.HasDescription {
			w.key(e.Name).string(e.Description)
		}
	}
	w.close('}')
	w.key("correct_fix").open('{')
	w.key("action_type").string(r.Fix.Action)
	w.key("service").string(r.Fix.Service)
	if r.Fix.HasKey {
		w.key("key").string(r.Fix.Key)
	}
	if r.Fix.MinNumeric.K != value.Null {
		w.key("min_numeric_value").value(r.Fix.MinNumeric)
	}
	if r.Fix.Exact.K != value.Null {
		w.key("exact_value").value(r.Fix.Exact)
	}
	w.key("fix_keywords").strings(r.Fix.FixKeywords)
	w.close('}')
	w.key("service_patches").open('{')
	for _, p := range r.Fixtures {
		w.key(p.Name).open('{')
		if p.Status != nil {
			w.key("status").string(*p.Status)
		}
		if p.HasLogs {
			w.key("logs").strings(p.Logs)
		}
		for _, sect := range []struct {
			name   string
			has    bool
			fields []Field
		}{{"metrics", p.HasMetrics, p.Metrics}, {"config", p.HasConfig, p.Config}} {
			if !sect.has {
				continue
			}
			w.key(sect.name).open('{')
			for _, f := range sect.fields {
				w.key(f.Name).value(f.Value)
			}
			w.close('}')
		}
		if p.HasDeps {
			w.key("dependencies").strings(p.Dependencies)
		}
		w.close('}')
	}
	w.close('}')
	w.key("expected_action_pattern").strings(in.Expert)
	w.key("distractors").strings(r.Distractors)
	if r.DistractorServices != nil {
		w.key("distractor_services").strings(r.DistractorServices)
	}
	w.key("max_steps").int(in.Budget)
	if r.TerminalOnWrongResolution != nil {
		w.key("terminal_on_wrong_resolution").bool(*r.TerminalOnWrongResolution)
	}
	w.key("metadata").open('{')
	for _, f := range r.Metadata {
		w.key(f.Name).string(f.Value.S)
	}
	w.close('}')
	w.close('}')
	w.buf.WriteByte('\n')
	return w.buf.Bytes(), nil
}

// ExportSreZeroSplits writes the split manifest for the sre_zero
// incidents of a module: a suite's lists when the module has a suite
// naming them all, else lists derived from each incident's difficulty,
// split and unseen_incident tag, in source order.
func ExportSreZeroSplits(m *Module, ids []string) []byte {
	lists := map[string][]string{}
	var suite *Suite
	for _, s := range m.Suites {
		covered := true
		for _, id := range ids {
			in := m.Incident(id)
			covered = covered && in != nil && contains(s.Lists[in.Difficulty], id)
		}
		if covered {
			suite = s
			break
		}
	}
	for _, id := range ids {
		in := m.Incident(id)
		if suite != nil {
			break
		}
		lists[in.Difficulty] = append(lists[in.Difficulty], id)
		lists[in.Split] = append(lists[in.Split], id)
		if contains(in.Tags, "unseen_incident") {
			lists["unseen_incident"] = append(lists["unseen_incident"], id)
		}
	}
	if suite != nil {
		for _, name := range SuiteLists {
			for _, id := range suite.Lists[name] {
				if contains(ids, id) {
					lists[name] = append(lists[name], id)
				}
			}
		}
	}
	w := &jsonWriter{}
	w.open('{')
	for _, name := range SuiteLists {
		w.key(name).strings(lists[name])
	}
	w.close('}')
	w.buf.WriteByte('\n')
	return w.buf.Bytes()
}

// jsonWriter writes indented JSON in the order it is told, the layout of
// the reference's task files (two spaces, one entry per line).
type jsonWriter struct {
	buf      bytes.Buffer
	depth    int
	first    []bool // per open container: no entry written yet
	afterKey bool
}

func (w *jsonWriter) indent() {
	w.buf.WriteByte('\n')
	w.buf.WriteString(strings.Repeat("  ", w.depth))
}

// entry starts a new entry of the innermost container.
func (w *jsonWriter) entry() {
	if n := len(w.first); n > 0 {
		if !w.first[n-1] {
			w.buf.WriteByte(',')
		}
		w.first[n-1] = false
		w.indent()
	}
}

// valueStart begins a value: after a key it continues the entry, else it
// is an entry of its own (an array element).
func (w *jsonWriter) valueStart() {
	if w.afterKey {
		w.afterKey = false
		return
	}
	w.entry()
}

func (w *jsonWriter) open(c byte) *jsonWriter {
	w.valueStart()
	w.buf.WriteByte(c)
	w.depth++
	w.first = append(w.first, true)
	return w
}

func (w *jsonWriter) close(c byte) *jsonWriter {
	empty := w.first[len(w.first)-1]
	w.first = w.first[:len(w.first)-1]
	w.depth--
	if !empty {
		w.indent()
	}
	w.buf.WriteByte(c)
	return w
}

func (w *jsonWriter) key(k string) *jsonWriter {
	w.entry()
	w.buf.Write(value.AppendJSONString(nil, k))
	w.buf.WriteString(": ")
	w.afterKey = true
	return w
}

func (w *jsonWriter) string(s string) *jsonWriter { return w.value(value.OfString(s)) }
func (w *jsonWriter) int(i int) *jsonWriter       { return w.value(value.OfInt(int64(i))) }
func (w *jsonWriter) bool(b bool) *jsonWriter     { return w.value(value.OfBool(b)) }

func (w *jsonWriter) strings(xs []string) *jsonWriter {
	w.open('[')
	for _, x := range xs {
		w.string(x)
	}
	return w.close(']')
}

// value writes a scalar; floats in Python's repr, so 0.0 stays 0.0.
func (w *jsonWriter) value(v value.Value) *jsonWriter {
	w.valueStart()
	switch v.K {
	case value.Float:
		w.buf.Write(value.AppendPyFloat(nil, v.F))
	case value.String:
		w.buf.Write(value.AppendJSONString(nil, v.S))
	default:
		w.buf.WriteString(v.String())
	}
	return w
}
