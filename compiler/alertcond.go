package compiler

import (
	"fmt"
	"strconv"

	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/value"
)

// The alert's condition, which mitigation requires gone (DESIGN.md,
// "Mitigation is what the world shows"), is a set of slots of the IR
// (engine.Task.AlertSlots): the alerting service's status, if it was not
// healthy, and each of its banded metrics that was out of its band, at step
// 1 with noise off. That service is the one DeriveAlert words a derived
// alert from (certify.AlertingService); an authored alert is given the same
// condition, since its text is prose the compiler does not read. The
// condition holds while any of the slots is anomalous. Today every such
// symptom is also one the world's health check reads, so the condition
// restates part of it; it is kept in the IR because it is what the agent
// was paged for, and so that an alert on another kind of symptom is graded
// without changing the engine.
func bindAlertCondition(t *engine.Task, alerting int, row []uint64) {
	t.AlertSlots = nil
	if alerting < 0 {
		return
	}
	s := &t.Services[alerting]
	if s.Status != engine.NoSlot && t.SlotAnomalous(s.Status, row) {
		t.AlertSlots = append(t.AlertSlots, s.Status)
	}
	for _, m := range s.Metrics {
		if t.SlotAnomalous(m, row) {
			t.AlertSlots = append(t.AlertSlots, m)
		}
	}
}

// alertWordings are the ways monitoring words a derived alert: a status
// (service, status), then a metric out of its band (service, metric,
// value, unit, low, high). Each names what is observed, never a cause.
var alertWordings = [][2]string{
	{"%s reports status %s.", "%s: %s is %s%s, outside its normal range of %s to %s."},
	{"Health check: %s is %s.", "%s %s at %s%s, normal range %s to %s."},
	{"Monitoring reports %s as %s since the last check.", "Monitoring: %s's %s reads %s%s; it is normally between %s and %s."},
	{"Page: %s status %s.", "Page: %s %s is out of range at %s%s (normal %s to %s)."},
}

// deriveAlert writes the alert of an incident that has none, as monitoring
// would word it: the alerting service's first symptom at step 1 (a status
// that is not healthy, or the first metric out of its band). It names what
// is observed, never a cause; with no symptom the incident is an error.
//
// Every incident, its alert authored or derived, also gets the alert's
// condition (bindAlertCondition), which mitigation requires gone.
func (b *build) deriveAlert() {
	t := b.t
	ep := engine.NewEpisode(t)
	ep.Reset(0)
	ep.Advance()
	si := certify.AlertingService(t, ep.Row())
	bindAlertCondition(t, si, ep.Row())
	if t.Alert != "" {
		if si < 0 && len(t.Faults) > 0 && b.varies() && b.opt.SiteFrom == nil {
			// An authored alert over latent faults: on a drawn site, a
			// fault stated in absolute values may land inside what the
			// site tolerates.
			b.errAt(b.in.DefRange, "No symptom to alert on", "The alert fires, but no service shows a symptom at step 1 (a status other than healthy, or a metric out of its band): on this site the faults are latent.")
		}
		return
	}
	b.alerting = si
	if si < 0 {
		// Nothing to alert on: such a variant is no incident.
		b.errAt(b.in.DefRange, "No symptom to alert on", "No service shows a symptom at step 1 (a status other than healthy, or a metric out of its band), so there is no alert to derive.")
		return
	}
	s := &t.Services[si]
	row := ep.Row()
	// The wording is drawn with the incident's other content, so a
	// held-out variant's alert is worded from its secret too.
	wording := alertWordings[changeRand(drawKey(b.siteIncident()), "alert wording").IntN(len(alertWordings))]
	if s.Status != engine.NoSlot && t.Strings[row[s.Status]] != engine.StatusHealthy {
		t.Alert = fmt.Sprintf(wording[0], s.Name, t.Strings[row[s.Status]])
		return
	}
	for _, m := range s.Metrics {
		sl := &t.Slots[m]
		if !sl.HasBand || sl.Kind != value.Int && sl.Kind != value.Float {
			continue
		}
		v := t.ValueOf(sl.Kind, row[m]).AsFloat()
		if v < sl.Low || v > sl.High {
			digits := max(int(sl.Precision), 0)
			unit := ""
			if sl.Unit != "" {
				unit = " " + sl.Unit
			}
			t.Alert = fmt.Sprintf(wording[1], s.Name, sl.Name,
				strconv.FormatFloat(v, 'f', digits, 64), unit, strconv.FormatFloat(sl.Low, 'f', -1, 64), strconv.FormatFloat(sl.High, 'f', -1, 64))
			return
		}
	}
}
