package engine

import (
	"math"

	"github.com/srezc/srezc/srezero"
	"github.com/srezc/srezc/value"
)

// ServiceSnapshot is what a native service shows at the episode's current
// tick, noise off: its status, the log lines that fire (without their tick
// prefix), its metrics rounded as shown, and its config. Exporting a native
// incident to the reference's literal fixtures reads it.
type ServiceSnapshot struct {
	Name         string
	Status       string
	Logs         []string // "LEVEL text"
	Metrics      []srezero.Field
	Config       []srezero.Field
	Dependencies []string
}

// Snapshot returns every native service's snapshot at the current tick.
func (e *Episode) Snapshot() []ServiceSnapshot {
	t := e.t
	row := e.Row()
	out := make([]ServiceSnapshot, len(t.Services))
	for si := range t.Services {
		s := &t.Services[si]
		snap := ServiceSnapshot{Name: s.Name, Status: StatusHealthy}
		if s.Status != NoSlot {
			snap.Status = e.String(StrID(row[s.Status]))
		}
		for _, li := range s.Logs {
			lr := &t.Logs[li]
			if row[lr.Active] == 0 || lr.Listing != "" {
				continue
			}
			b := e.appendLogText(append([]byte(lr.Level), ' '), li, e.tick, row)
			snap.Logs = append(snap.Logs, string(b))
		}
		for _, m := range s.Metrics {
			sl := &t.Slots[m]
			v := t.ValueOf(sl.Kind, row[m])
			if v.K == value.Float && sl.Precision >= 0 {
				p := math.Pow(10, float64(sl.Precision))
				v.F = math.Round(v.F*p) / p
			}
			snap.Metrics = append(snap.Metrics, srezero.Field{Name: sl.Name, Value: v})
		}
		for _, c := range s.Config {
			sl := &t.Slots[c]
			snap.Config = append(snap.Config, srezero.Field{Name: sl.Name, Value: t.ValueOf(sl.Kind, row[c])})
		}
		for _, d := range s.Deps {
			snap.Dependencies = append(snap.Dependencies, t.Services[d].Name)
		}
		out[si] = snap
	}
	return out
}
