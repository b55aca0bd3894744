package certify

import (
	"fmt"
	"strings"

	"github.com/srezc/srezc/engine"
)

// checkChanges proves the site's changes harmless (the incident's change
// blocks and the benign draws, every entry of the history that introduced
// no fault): the world with all of them and no fault or distractor must
// show no anomaly, from step 1 through twice the grader's hold window, as
// mitigation reads health. A fault's symptoms are then the fault's alone,
// and writing a changed key back to the docs is a wrong change, never a
// fix.
func checkChanges(inc Incident) []Finding {
	t := inc.Task()
	var changed []string
	for i := range t.Changes {
		c := &t.Changes[i]
		if c.Fault < 0 {
			changed = append(changed, t.Services[c.Service].Name+"."+t.Slots[c.Slot].Name)
		}
	}
	if len(changed) == 0 {
		return nil
	}
	what := strings.Join(changed, ", ")
	w := inc.Worlds(inc.Truth(), []*Spec{{Name: "the site without its faults"}})[0]
	if w == nil {
		return []Finding{{fmt.Sprintf("The site's changes (%s) cannot be checked: the site without its faults does not compile.", what), atIncident, 0}}
	}
	var anomalies []engine.SlotID
	for k := 0; k <= 2*t.Hold; k++ {
		if anomalies = w.Episode.AppendAnomalies(anomalies[:0]); len(anomalies) > 0 {
			sl := &w.Task.Slots[anomalies[0]]
			return []Finding{{fmt.Sprintf("The site's changes (%s) are not harmless: without any fault the site shows %s.%s out of health at step %d.", what, w.Task.Services[sl.Service].Name, sl.Name, k+1), atIncident, 0}}
		}
		w.Episode.Advance()
	}
	return nil
}
