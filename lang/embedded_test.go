package lang_test

import (
	"strings"
	"testing"

	"github.com/srezc/srezc/lang"
)

// TestEmbeddedBases: a module's mutation names an embedded incident as
// its base and its suite spec an embedded mutation; a local declaration
// of the same name shadows the embedded one for the module's own
// mutations, while an embedded mutation keeps its embedded base (and a
// suite spec naming it is warned); unknown names are located errors that
// suggest from both; a module analysed against another stdlib sees no
// embedded default.
func TestEmbeddedBases(t *testing.T) {
	user := &lang.File{Name: "u/m.srez.hcl", Src: []byte(`mutation "mine" {
  from   = "mq_backlog"
  faults = ["mq_consumer_concurrency_low"]
}

suite_spec "s" {
  mutations = ["mine", "queue_consumers"]
  tasks     = 4
}
`)}
	m, diags := lang.Analyze([]*lang.File{user})
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if len(m.Incidents) != 0 || len(m.Mutations) != 1 {
		t.Fatalf("the module holds %d incidents and %d mutations; want 0 and 1 (embedded ones are not the module's)", len(m.Incidents), len(m.Mutations))
	}
	base := m.MutationBase(m.Mutations[0])
	if base == nil || base.DefRange.Filename != lang.ScenarioPrefix+"mq_backlog.srez.hcl" {
		t.Fatalf("base of mine = %s; want the embedded mq_backlog", where(base))
	}
	emb := m.Mutation("queue_consumers")
	if emb == nil || !m.IsEmbedded(&emb.Decl) || m.IsEmbedded(&m.Mutations[0].Decl) {
		t.Fatalf("queue_consumers = %v; want the embedded mutation, and mine the module's", emb)
	}
	viable := 0
	m.Space(m.Mutations[0], func(*lang.Variant) bool { viable++; return true })
	if viable == 0 {
		t.Error("the mutation over the embedded base has no viable variant")
	}

	// A local mq_backlog shadows the embedded one for the module's
	// mutation, not for the embedded mutation.
	var mq *lang.File
	for _, f := range lang.ScenarioFiles() {
		if f.Name == lang.ScenarioPrefix+"mq_backlog.srez.hcl" {
			mq = &lang.File{Name: "u/mq_backlog.srez.hcl", Src: f.Src}
		}
	}
	m, diags = lang.Analyze([]*lang.File{user, mq})
	if got := m.MutationBase(m.Mutation("mine")); got == nil || got.DefRange.Filename != "u/mq_backlog.srez.hcl" {
		t.Errorf("with a local mq_backlog, mine's base is %s; want the local one", where(got))
	}
	if got := m.MutationBase(m.Mutation("queue_consumers")); got == nil || got.DefRange.Filename != lang.ScenarioPrefix+"mq_backlog.srez.hcl" {
		t.Errorf("with a local mq_backlog, queue_consumers' base is %s; want the embedded one", where(got))
	}
	if len(diags) != 1 || diags[0].Severity != lang.Warning || diags[0].Summary != "Embedded mutation over a shadowed base" || diags[0].Subject.String() != "u/m.srez.hcl:7:24" {
		t.Errorf("diagnostics with a local mq_backlog: %v; want one located warning on queue_consumers", diags)
	}

	bad := &lang.File{Name: "u/bad.srez.hcl", Src: []byte(`mutation "typo" {
  from = "mq_backlogg"
}

suite_spec "s" {
  mutations = ["queue_consumerz"]
  tasks     = 4
}
`)}
	_, diags = lang.Analyze([]*lang.File{bad})
	var got []string
	for _, d := range diags {
		got = append(got, d.Subject.String()+" "+d.Summary+": "+d.Detail)
	}
	want := []string{
		`u/bad.srez.hcl:2:10 Unknown incident: There is no incident named "mq_backlogg" in the module or the embedded default (srezc export scenarios writes the embedded incidents). Did you mean "mq_backlog"?`,
		`u/bad.srez.hcl:6:16 Unknown mutation: There is no mutation named "queue_consumerz". Did you mean "queue_consumers"?`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Against another stdlib there is no embedded default.
	m, diags = lang.AnalyzeWith(lang.StdlibFiles(), []*lang.File{user})
	if !diags.HasErrors() || m.Mutation("queue_consumers") != nil {
		t.Errorf("AnalyzeWith resolved embedded names: %v", diags)
	}
}

func where(in *lang.Incident) string {
	if in == nil {
		return "none"
	}
	return in.DefRange.String()
}
