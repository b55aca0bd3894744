package certify

import (
	"slices"

	"github.com/srezc/srezc/engine"
)

// Distinction shows an author how the incident differs from one of its
// diagnosability alternatives: the read that tells them apart (the first
// of the informed optimum's reads that does, else the first of any), and
// what that read shows at step 1 in each world, at the certification seed.
type Distinction struct {
	Alternative string `json:"alternative"`
	Read        string `json:"read"` // empty: no read tells them apart
	Incident    string `json:"incident"`
	Other       string `json:"other"`
}

// Explain returns an incident's distinguishing observations.
func Explain(inc Incident) []Distinction {
	d := deriveEvidence(inc)
	var out []Distinction
	for _, alt := range d.alts {
		x := Distinction{Alternative: alt.name}
		pick := -1
		for _, c := range d.chosen {
			if slices.Contains(alt.hits, c) {
				pick = c
				break
			}
		}
		if pick < 0 && len(alt.hits) > 0 {
			pick = alt.hits[0]
		}
		if pick >= 0 && alt.w != nil && d.truth != nil {
			r := d.reads[pick]
			x.Read = ReadText(inc.Task(), r)
			x.Incident = renderRead(d.truth, r)
			x.Other = renderRead(alt.w, r)
		}
		out = append(out, x)
	}
	return out
}

// renderRead renders what a read shows in a world at step 1, without
// stepping it.
func renderRead(w *World, r engine.Read) string {
	o := engine.Observation{Step: 1, Tick: int32(w.Episode.Tick()), Tool: r.Tool, Service: r.Service, Key: r.Key}
	return string(w.Episode.AppendText(nil, &o))
}
