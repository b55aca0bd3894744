package compiler

import (
	"testing"

	"github.com/srezc/srezc/engine"
)

// On the peak site (issue 18 item 1: healthy is a relation a site
// satisfies) every numeric config fault of a shipped incident leaves its
// key inside the documented band, and the documented default is no fix on
// any variant: a policy that resets what is out of band finds nothing to
// reset, and one that writes the docs' value back leaves the fault in
// place. The site's own value, the change history's old value, is a fix.
func TestPeakFaultsHideInBand(t *testing.T) {
	m := shippedModule(t)
	checked := 0
	for _, tk := range shippedTasks(t) {
		if m.Incident(tk.ID).System != "peak" {
			continue
		}
		for k := 0; k < tk.SiteCount(); k++ {
			site := tk.Site(uint64(k))
			ep := engine.NewEpisode(tk)
			ep.Reset(uint64(k))
			row := ep.Row()
			for fi, f := range site.Faults {
				for _, r := range f.Remedies {
					if r.Effect != engine.EffectUpdate || r.Slot == engine.NoSlot || !site.Slots[r.Slot].HasBand {
						continue
					}
					sl := site.Slots[r.Slot]
					name := site.Services[sl.Service].Name + "." + sl.Name
					x := site.ValueOf(sl.Kind, row[r.Slot]).AsFloat()
					if x < sl.Low || x > sl.High {
						t.Errorf("%s variant %d: %s = %g, outside its band [%g, %g]", tk.ID, k, name, x, sl.Low, sl.High)
					}
					if ep.FaultFixedWith(fi, r.Slot, sl.Default) {
						t.Errorf("%s variant %d: the documented default of %s fixes %s", tk.ID, k, name, f.Kind)
					}
					if old, ok := historyOld(site, r.Slot); !ok || !ep.FaultFixedWith(fi, r.Slot, old) {
						t.Errorf("%s variant %d: the site's value of %s (the history's old value) does not fix %s", tk.ID, k, name, f.Kind)
					}
					checked++
				}
			}
		}
	}
	if checked < 50 {
		t.Errorf("checked %d fault keys on peak sites, want the shipped incidents' (at least 50)", checked)
	}
	t.Logf("%d fault keys in band, their documented defaults no fix", checked)
}

// historyOld is the old value of the change-history entry that set slot.
func historyOld(t *engine.Task, slot engine.SlotID) (uint64, bool) {
	for _, c := range t.Changes {
		if c.Slot == slot && c.Fault >= 0 {
			return c.Old, true
		}
	}
	return 0, false
}
