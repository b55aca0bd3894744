package lang

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/value"
)

// The sre_zero profile reproduces the SRE-Zero reference benchmark, whose
// tasks are literal: a fixture world of five services (status, log lines,
// metrics, config) patched per task, and a grading spec (root cause and its
// keywords, evidence keys, the correct fix). Only under this profile may an
// incident use literal fixtures; native incidents derive every observation
// from state. A fixture system holds the baseline; an incident's fixture
// blocks are patches merged into it as the reference merges them: status
// and logs and dependencies replace, metrics and config merge by key.

// Profile names.
const (
	ProfileNative  = "native"
	ProfileSreZero = "sre_zero"
)

// Fixture is one service's literal observations: a whole service in a
// fixture system, a patch in an incident. A nil list or absent field
// leaves the baseline untouched.
type Fixture struct {
	Decl         // Name is the service
	Status       *string
	Logs         []string
	HasLogs      bool
	Metrics      []Field
	HasMetrics   bool
	Config       []Field
	HasConfig    bool
	Dependencies []string
	HasDeps      bool
}

// Field is one metric or config entry with its exact type.
type Field struct {
	Name  string
	Value value.Value
	Range Range
}

// RefSpec is an sre_zero incident's grading spec and fixture patches, in
// the reference task file's terms.
type RefSpec struct {
	Fixtures          []*Fixture
	RootCause         string
	RootCauseKeywords []string
	Evidence          []*RefEvidence
	Fix               *RefFix
	// DistractorServices count distractor failures; Distractors are the
	// reference's free-text notes, kept for export.
	DistractorServices []string
	DistractorRanges   []Range
	Distractors        []string
	// TerminalOnWrongResolution is nil when the file leaves the
	// reference's default (true).
	TerminalOnWrongResolution *bool
	Metadata                  []Field // string values
	// Range is where the first reference attribute or block is, for
	// diagnostics about the spec as a whole.
	Range Range
}

// RefEvidence is one relevant-evidence key and its description.
type RefEvidence struct {
	Decl // Name is the key, "action_type:service[:KEY]"
	// Description is never shown to agents; without one the reference
	// records the key itself as the finding.
	Description    string
	HasDescription bool
}

// RefFix is the incident's correct_fix.
type RefFix struct {
	Decl
	Action       string
	ActionRange  Range
	Service      string
	ServiceRange Range
	Key          string
	HasKey       bool
	// MinNumeric and Exact are null when absent; they keep their literal
	// kind so an export writes them back as they were written.
	MinNumeric  value.Value
	Exact       value.Value
	FixKeywords []string
}

// Suite is a named, ordered selection of incidents in the reference's
// split-manifest terms (task_splits.json): the difficulty view and the
// benchmark view, each list in order.
type Suite struct {
	Decl
	Lists      map[string][]string
	ListRanges map[string]Range
}

// SuiteLists are a suite's lists, in the manifest's order.
var SuiteLists = []string{"easy", "medium", "hard", "train", "dev", "test", "unseen_incident"}

// refActionTypes are the reference's eight actions, in its order.
var refActionTypes = []string{"inspect_logs", "inspect_metrics", "check_status", "inspect_config", "restart_service", "update_config", "resolve_incident", "escalate"}

// refIncidentAttrs are the incident attributes of the profile (the
// schema table, schema.go, lists them with the native ones).
var refIncidentAttrs = []string{"root_cause", "root_cause_keywords", "distractor_services", "distractors", "terminal_on_wrong_resolution"}

// fixture decodes a fixture block; whole says every field is required
// (a system's baseline) rather than optional (an incident's patch).
func (d *decoder) fixture(b *hclsyntax.Block, whole bool) *Fixture {
	path := "incident/fixture"
	if whole {
		path = "system/fixture"
	}
	c := d.content(b.Body, b.DefRange(), schemaAt(path))
	f := &Fixture{Decl: d.decl(b)}
	if c.has("status") {
		st := d.str(c, "status")
		f.Status = &st
	}
	f.HasLogs, f.Logs = c.has("logs"), d.strList(c, "logs")
	f.HasDeps, f.Dependencies = c.has("dependencies"), d.strList(c, "dependencies")
	for _, blk := range c.blocks {
		fields := d.fields(path, blk, blk.Type == "config")
		if blk.Type == "metrics" {
			f.Metrics, f.HasMetrics = fields, true
		} else {
			f.Config, f.HasConfig = fields, true
		}
	}
	if whole {
		f.HasMetrics, f.HasConfig, f.HasDeps = true, true, true
	}
	return f
}

// fields decodes a block of literal entries in source order, each keeping
// its type: 0 is an int and 0.0 a float. Metrics are numbers or strings;
// config values may also be bools.
func (d *decoder) fields(parent string, b *hclsyntax.Block, config bool) []Field {
	d.content(b.Body, b.DefRange(), schemaAt(parent+"/"+b.Type))
	var out []Field
	for _, a := range sortedAttrs(b.Body) {
		v, ok := d.eval(a, nil)
		if !ok {
			continue
		}
		if v.IsNull() || !(v.Type() == cty.Number || v.Type() == cty.String || config && v.Type() == cty.Bool) {
			want := "a number or a string"
			if config {
				want = "a number, a string or a bool"
			}
			d.errAt(a.Expr.Range(), "Incorrect attribute value type", fmt.Sprintf("The entry %q must be %s.", a.Name, want))
			continue
		}
		out = append(out, Field{Name: a.Name, Value: ctyLiteral(v, d.writtenAsFloat(a.Expr)), Range: fromHCL(a.SrcRange)})
	}
	return out
}

// refIncident decodes the sre_zero parts of an incident body, if any.
func (d *decoder) refIncident(c content) *RefSpec {
	var r RefSpec
	found := false
	first := Range{}
	note := func(rng Range) {
		if !found || rng.Start.Byte < first.Start.Byte {
			first = rng
		}
		found = true
	}
	for _, name := range refIncidentAttrs {
		if a, ok := c.attrs[name]; ok {
			note(fromHCL(a.SrcRange))
		}
	}
	r.RootCause = d.str(c, "root_cause")
	r.RootCauseKeywords = d.strList(c, "root_cause_keywords")
	r.DistractorServices = d.strList(c, "distractor_services")
	r.DistractorRanges = elemRanges(c, "distractor_services", len(r.DistractorServices))
	r.Distractors = d.strList(c, "distractors")
	if c.has("terminal_on_wrong_resolution") {
		b := d.boolean(c, "terminal_on_wrong_resolution")
		r.TerminalOnWrongResolution = &b
	}
	for _, b := range c.blocks {
		switch b.Type {
		case "fixture":
			note(fromHCL(b.DefRange()))
			r.Fixtures = append(r.Fixtures, d.fixture(b, false))
		case "evidence":
			note(fromHCL(b.DefRange()))
			ec := d.content(b.Body, b.DefRange(), schemaAt("incident/evidence"))
			// An evidence key is not a name ("inspect_config:cache:TTL"):
			// the checker reads its form.
			dc := Decl{Name: b.Labels[0], NameRange: fromHCL(b.LabelRanges[0]), DefRange: fromHCL(b.DefRange()), Stdlib: d.file.Stdlib}
			r.Evidence = append(r.Evidence, &RefEvidence{Decl: dc, Description: d.str(ec, "description"), HasDescription: ec.has("description")})
		case "correct_fix":
			note(fromHCL(b.DefRange()))
			if r.Fix != nil {
				d.errAt(b.DefRange(), "Duplicate correct_fix", "An incident has one correct_fix block.")
				continue
			}
			r.Fix = d.refFix(b)
		case "metadata":
			note(fromHCL(b.DefRange()))
			for _, f := range d.fields("incident", b, false) {
				if f.Value.K != value.String {
					d.errRange(f.Range, "Incorrect attribute value type", fmt.Sprintf("The metadata entry %q must be a string.", f.Name))
					continue
				}
				r.Metadata = append(r.Metadata, f)
			}
		}
	}
	if !found {
		return nil
	}
	r.Range = first
	return &r
}

func (d *decoder) refFix(b *hclsyntax.Block) *RefFix {
	c := d.content(b.Body, b.DefRange(), schemaAt("incident/correct_fix"))
	f := &RefFix{Decl: Decl{DefRange: fromHCL(b.DefRange()), NameRange: fromHCL(b.DefRange())}}
	f.Action, f.ActionRange = d.str(c, "action"), attrRange(c, "action", f.DefRange)
	f.Service, f.ServiceRange = d.str(c, "service"), attrRange(c, "service", f.DefRange)
	f.HasKey, f.Key = c.has("key"), d.str(c, "key")
	f.FixKeywords = d.strList(c, "fix_keywords")
	if a, ok := c.attrs["min_numeric_value"]; ok {
		if v, ok := d.eval(a, nil); ok {
			if v.Type() != cty.Number {
				d.errAt(a.Expr.Range(), "Incorrect attribute value type", `The argument "min_numeric_value" must be a number.`)
			} else {
				f.MinNumeric = ctyLiteral(v, d.writtenAsFloat(a.Expr))
			}
		}
	}
	if a, ok := c.attrs["exact_value"]; ok {
		if v, ok := d.eval(a, nil); ok {
			if v.IsNull() || !(v.Type() == cty.Number || v.Type() == cty.String || v.Type() == cty.Bool) {
				d.errAt(a.Expr.Range(), "Incorrect attribute value type", `The argument "exact_value" must be a number, a string or a bool.`)
			} else {
				f.Exact = ctyLiteral(v, d.writtenAsFloat(a.Expr))
			}
		}
	}
	return f
}

func (d *decoder) suite(blk *hclsyntax.Block) *Suite {
	s := &Suite{Decl: d.decl(blk), Lists: map[string][]string{}, ListRanges: map[string]Range{}}
	d.broken = &s.Decl
	defer func() { d.broken = nil }()
	c := d.content(blk.Body, blk.DefRange(), schemaAt("suite"))
	s.Description = d.str(c, "description")
	for _, name := range SuiteLists {
		if c.has(name) {
			s.Lists[name] = d.strList(c, name)
			s.ListRanges[name] = attrRange(c, name, s.DefRange)
		}
	}
	return s
}

// Profile is the profile of the rubric an incident names, or "" when the
// rubric is unknown.
func (m *Module) Profile(in *Incident) string {
	r := m.Rubric(in.Rubric)
	if r == nil {
		return ""
	}
	return r.Profile
}

// checkRefIncident checks an incident under the sre_zero profile, or that a
// native one uses none of the profile's parts.
func (c *checker) checkRefIncident(in *Incident, sys *System, profile string) {
	if profile != ProfileSreZero {
		if in.Ref != nil {
			c.errRange(in.Ref.Range, "Reference fixture outside sre_zero", fmt.Sprintf("Literal fixtures and the reference's grading spec need a rubric with profile %q; %q is %s. Native incidents derive every observation from state.", ProfileSreZero, in.Rubric, article(profile)))
		}
		if sys != nil && len(sys.Fixtures) > 0 {
			c.errRange(in.SystemRange, "Fixture system outside sre_zero", fmt.Sprintf("The system %q is a fixture system, for incidents whose rubric has profile %q.", in.System, ProfileSreZero))
		}
		return
	}
	if len(in.Faults)+len(in.Distractors)+len(in.Noise)+len(in.Changes) > 0 || in.Resolved != nil {
		c.errRange(in.DefRange, "Native parts under sre_zero", "An sre_zero incident is its fixtures and grading spec; it takes no fault, distractor, noise, change or resolved_when.")
	}
	if sys != nil && len(sys.Fixtures) == 0 {
		c.errRange(in.SystemRange, "Not a fixture system", fmt.Sprintf("An sre_zero incident runs on a fixture system; %q has services of native kinds.", in.System))
		sys = nil
	}
	r := in.Ref
	if r == nil {
		c.errRange(in.DefRange, "Missing grading spec", "An sre_zero incident needs root_cause, root_cause_keywords, evidence and a correct_fix block.")
		return
	}
	if r.RootCause == "" {
		c.errRange(r.Range, "Missing root_cause", "An sre_zero incident needs a root_cause: the text a resolution is matched against.")
	}
	if r.Fix == nil {
		c.errRange(r.Range, "Missing correct_fix", "An sre_zero incident needs a correct_fix block.")
	} else {
		if r.Fix.Action != "" && !contains(refActionTypes, r.Fix.Action) {
			c.unknown(r.Fix.ActionRange, "action type", r.Fix.Action, refActionTypes)
		}
		if sys != nil && r.Fix.Service != "" && sys.Fixture(r.Fix.Service) == nil {
			c.unknown(r.Fix.ServiceRange, "service", r.Fix.Service, names(sys.Fixtures))
		}
	}
	dupes(c, "evidence key", r.Evidence)
	for _, e := range r.Evidence {
		parts := strings.Split(e.Name, ":")
		if len(parts) < 2 || len(parts) > 3 || !contains(refActionTypes, parts[0]) {
			c.errRange(e.NameRange, "Invalid evidence key", fmt.Sprintf("%q is not an evidence key of the form action_type:service or inspect_config:service:KEY.", e.Name))
			continue
		}
		if sys != nil && sys.Fixture(parts[1]) == nil {
			c.unknown(e.NameRange, "service", parts[1], names(sys.Fixtures))
		}
	}
	if sys == nil {
		return
	}
	dupes(c, "fixture", r.Fixtures)
	for _, f := range r.Fixtures {
		if sys.Fixture(f.Name) == nil {
			c.unknown(f.NameRange, "service", f.Name, names(sys.Fixtures))
		}
	}
	for i, s := range r.DistractorServices {
		if sys.Fixture(s) == nil {
			rng := r.Range
			if i < len(r.DistractorRanges) {
				rng = r.DistractorRanges[i]
			}
			c.unknown(rng, "service", s, names(sys.Fixtures))
		}
	}
	for i, act := range in.Expert {
		if a := action.ParseRef(act); a.Err != "" {
			c.errRange(in.ExpertRange[i], "Invalid expert action", a.Err)
		}
	}
}

// Fixture finds a fixture system's service.
func (s *System) Fixture(name string) *Fixture { return findDecl(s.Fixtures, name) }

// checkSuite requires every listed incident to exist, each list to hold an
// id once, and the lists to agree with the incidents' own difficulty and
// split.
func (c *checker) checkSuite(s *Suite) {
	for _, name := range SuiteLists {
		seen := map[string]bool{}
		for _, id := range s.Lists[name] {
			in := c.m.Incident(id)
			rng := s.ListRanges[name]
			switch {
			case in == nil:
				c.unknown(rng, "incident", id, names(c.m.Incidents))
			case seen[id]:
				c.errRange(rng, "Duplicate in suite list", fmt.Sprintf("%q appears twice in %s.", id, name))
			case contains([]string{"easy", "medium", "hard"}, name) && in.Difficulty != name:
				c.errRange(rng, "Difficulty disagrees", fmt.Sprintf("%q is listed as %s but declares difficulty %q.", id, name, in.Difficulty))
			case contains([]string{"train", "dev", "test"}, name) && in.Split != name:
				c.errRange(rng, "Split disagrees", fmt.Sprintf("%q is listed in %s but declares split %q.", id, name, in.Split))
			case name == "unseen_incident" && in.Split != "test":
				c.errRange(rng, "Unseen incident outside test", fmt.Sprintf("%q is in unseen_incident, which is part of test, but declares split %q.", id, in.Split))
			}
			seen[id] = true
		}
	}
}
