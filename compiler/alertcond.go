package compiler

import "github.com/srezc/srezc/engine"

// The alert's condition, which mitigation requires gone (DESIGN.md,
// "Mitigation is what the world shows"), is a set of slots of the IR
// (engine.Task.AlertSlots): the alerting service's status, if it was not
// healthy, and each of its banded metrics that was out of its band, at step
// 1 with noise off. That service is the one DeriveAlert words a derived
// alert from (alertingService); an authored alert is given the same
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
