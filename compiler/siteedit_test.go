package compiler

import (
	"testing"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// A fault kind's edit may read the target's configuration before the
// fault (config.KEY): the site's value where the system tunes the key, the
// kind's default where it does not, so a fault can be stated against the
// site it lands on.
func TestEditReadsSiteConfig(t *testing.T) {
	src := `
fault_kind "work_mem_doubled_limit_under_pool" {
  description = "Test: the limit set just under this site's pool, work memory doubled."
  applies_to  = ["database"]
  mechanism   = "connection_limit_exceeded"
  detail      = "max_connections"
  fixed_when  = "config.max_connections >= config.pool_size"
  param "gap" {
    type    = "int"
    default = 10
  }
  set_config {
    max_connections = config.pool_size - param.gap
    work_mem_mb     = config.work_mem_mb * 2
  }
  remedy "update_config" { key = "max_connections" }
}

incident "site_relative" {
  title      = "t"
  alert      = "Database refusing clients."
  difficulty = "easy"
  split      = "train"
  budget     = 10
  system     = "standard"
  fault "work_mem_doubled_limit_under_pool" {
    target = "database"
    gap    = 15
    change {
      key = "work_mem_mb"
    }
  }
  expert = ["inspect_config(database)"]
}
`
	m, diags := lang.Analyze([]*lang.File{{Name: "t.srez.hcl", Src: []byte(src)}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tk, diags := CompileIncident(m, m.Incident("site_relative"), Options{SkipCertify: true})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	db := -1
	for i, s := range tk.Services {
		if s.Name == "database" {
			db = i
		}
	}
	ep := engine.NewEpisode(tk)
	ep.Reset(1)
	row := ep.Row()
	// The site's work memory is drawn per variant: the fault's change
	// entry's old value is the value before the fault.
	site := tk.Site(1)
	var siteWorkMem int64
	for _, c := range site.Changes {
		if c.Fault >= 0 && site.Slots[c.Slot].Name == "work_mem_mb" {
			siteWorkMem = int64(c.Old)
		}
	}
	get := func(key string) value.Value {
		s := tk.ConfigSlot(db, key)
		return tk.ValueOf(tk.Slots[s].Kind, row[s])
	}
	// pool_size is the kind's default (50): the standard system does not
	// tune it; work_mem_mb is the site's drawn value, not the kind's default.
	if got := get("max_connections"); got != value.OfInt(35) {
		t.Errorf("max_connections = %v, want 50 - 15 = 35", got)
	}
	if siteWorkMem == 0 {
		t.Fatal("no change entry of the fault's work_mem_mb")
	}
	if got := get("work_mem_mb"); got != value.OfInt(2*siteWorkMem) {
		t.Errorf("work_mem_mb = %v, want the site's %d doubled", got, siteWorkMem)
	}
	// The claim's direction is measured from the same value: 35 is below
	// the remedy (the default), so the diagnosis must say "low".
	found := false
	for _, c := range tk.Claims {
		if c.Kind == "work_mem_doubled_limit_under_pool" && c.HasBand {
			found = true
			if c.States != engine.StateLow {
				t.Errorf("claim states %v, want low", c.States)
			}
		}
	}
	if !found {
		t.Error("no claim of the fault's detail key")
	}
}
