package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"sync"

	"github.com/srezc/srezc/srezero"
	"github.com/srezc/srezc/value"
)

// The semantic hash is SHA-256 over a binary form of the task: every field
// in declaration order, integers as varints, floats by their 8 bytes of
// bits, strings and slices length first. It replaces hashing the JSON form
// because certification hashes every task twice and encoding/json was a
// third of a cold compile. It is written out by hand for speed (a
// reflection walk cost as much as the JSON); TestHashCoversEveryField, in
// the compiler's tests, changes every field of a compiled task in turn and
// fails if one leaves the hash unchanged, so a field added to Task and
// forgotten here is caught.

var hashBufs = sync.Pool{New: func() any { return &hasher{b: make([]byte, 0, 64<<10)} }}

// ComputeHash returns the semantic hash of a task (Hash itself excluded):
// the hash of its id, its certification results (Evidence, Optimal, Plan,
// Certified, Uncertified) and BodyHash, everything else. The id is outside
// the body so that the body identifies behaviour: two tasks that differ
// only in name have one body. The two levels let the
// compiler hash the body once, use it as the certification cache key, and
// seal the result cheaply.
func ComputeHash(t *Task) string { return SealHash(BodyHash(t), t) }

// BodyHash is the hash of everything in a task but its id, its
// certification results and Hash.
func BodyHash(t *Task) [sha256.Size]byte {
	h := hashBufs.Get().(*hasher)
	defer hashBufs.Put(h)
	h.b = h.b[:0]
	h.body(t)
	return sha256.Sum256(h.b)
}

// SealHash combines a body hash with t's certification results.
func SealHash(body [sha256.Size]byte, t *Task) string { return SealHashSites(body, t, nil) }

// SealHashSites is SealHash given the semantic hashes of t's site
// variants, in order, as ComputeHash returns them (nil: computed here).
// A compiler that sealed each variant when it certified it passes those
// hashes, so that no variant is hashed twice.
func SealHashSites(body [sha256.Size]byte, t *Task, sites []string) string {
	h := hashBufs.Get().(*hasher)
	defer hashBufs.Put(h)
	h.b = append(h.b[:0], body[:]...)
	h.s(t.ID)
	h.n(len(t.Evidence))
	for _, x := range t.Evidence {
		h.i(int64(x.Tool))
		h.i(int64(x.Service))
		h.slot(x.Key)
	}
	h.i(int64(t.Optimal))
	h.ss(t.Plan)
	h.bl(t.Certified)
	h.ss(t.Uncertified)
	h.n(len(t.Sites))
	for i, s := range t.Sites {
		switch {
		case s == nil:
			h.s("")
		case i < len(sites):
			h.s(sites[i])
		default:
			h.s(ComputeHash(s))
		}
	}
	sum := sha256.Sum256(h.b)
	return hex.EncodeToString(sum[:])
}

type hasher struct{ b []byte }

func (h *hasher) u(x uint64)    { h.b = binary.AppendUvarint(h.b, x) }
func (h *hasher) i(x int64)     { h.b = binary.AppendVarint(h.b, x) }
func (h *hasher) f(x float64)   { h.b = binary.LittleEndian.AppendUint64(h.b, math.Float64bits(x)) }
func (h *hasher) n(length int)  { h.u(uint64(length)) }
func (h *hasher) s(x string)    { h.n(len(x)); h.b = append(h.b, x...) }
func (h *hasher) span(x Span)   { h.i(int64(x.Start)); h.i(int64(x.End)) }
func (h *hasher) slot(x SlotID) { h.i(int64(x)) }
func (h *hasher) ss(xs []string) {
	h.n(len(xs))
	for _, x := range xs {
		h.s(x)
	}
}
func (h *hasher) bl(x bool) {
	if x {
		h.u(1)
	} else {
		h.u(0)
	}
}

func (h *hasher) body(t *Task) {
	h.i(int64(t.Format))
	h.s(t.Title)
	h.s(t.Alert)
	h.s(t.Difficulty)
	h.s(t.Split)
	h.ss(t.Tags)
	h.i(int64(t.Budget))
	h.i(int64(t.Hold))
	h.ss(t.Strings)
	h.n(len(t.Slots))
	for _, x := range t.Slots {
		h.i(int64(x.Service))
		h.u(uint64(x.Class))
		h.s(x.Name)
		h.u(uint64(x.Kind))
		h.s(x.Unit)
		h.i(int64(x.Precision))
		h.u(x.Default)
		h.bl(x.HasBand)
		h.f(x.Low)
		h.f(x.High)
		h.u(uint64(x.Noise))
	}
	h.n(len(t.Services))
	for _, x := range t.Services {
		h.s(x.Name)
		h.s(x.Kind)
		h.n(len(x.Deps))
		for _, d := range x.Deps {
			h.i(int64(d))
		}
		h.ss(x.DepRoles)
		h.slots(x.Config)
		h.slots(x.Metrics)
		h.slot(x.Status)
		h.n(len(x.Logs))
		for _, l := range x.Logs {
			h.i(int64(l))
		}
		h.slot(x.Latency)
		h.slot(x.ErrorRate)
		if len(x.Spans) > 0 {
			// Tasks without declared spans keep their hashes.
			h.n(len(x.Spans))
			for _, sp := range x.Spans {
				h.u(uint64(sp.Kind))
				h.s(sp.Name)
				h.slots([]SlotID{sp.Latency, sp.ErrorRate, sp.Status, sp.Wait})
				h.n(len(sp.Calls))
				for _, c := range sp.Calls {
					h.i(int64(c))
				}
			}
		}
		h.assigns(x.Restart)
		if len(x.Rollback) > 0 {
			h.assigns(x.Rollback)
		}
		h.n(len(x.Operations))
		for _, op := range x.Operations {
			h.i(int64(op.Op))
			h.assigns(op.Assigns)
		}
	}
	h.n(len(t.Operations))
	for _, op := range t.Operations {
		h.s(op.Name)
		h.ss(op.Aka)
	}
	h.n(len(t.Code))
	for _, x := range t.Code {
		h.u(uint64(x.Code))
		h.i(int64(x.A))
		h.u(x.K)
	}
	h.assigns(t.Updates)
	h.n(len(t.Logs))
	for _, x := range t.Logs {
		h.i(int64(x.Service))
		h.s(x.Level)
		h.slot(x.Active)
		h.n(len(x.Parts))
		for _, p := range x.Parts {
			h.s(p.Lit)
			h.slot(p.Hole)
			h.u(uint64(p.ID))
		}
		if x.Listing != "" {
			h.s(x.Listing)
		}
	}
	h.n(len(t.Tools))
	for _, x := range t.Tools {
		h.s(x.Name)
		h.u(uint64(x.Effect))
		h.n(len(x.Args))
		for _, a := range x.Args {
			h.s(a.Name)
			h.u(uint64(a.Type))
			h.bl(a.Optional)
			h.s(a.Doc)
		}
		h.s(x.Doc)
		h.i(int64(x.Operation))
		if x.Listing != "" {
			h.s(x.Listing)
		}
	}
	h.span(t.Resolved)
	h.slots(t.AlertSlots)
	h.n(len(t.Faults))
	for _, x := range t.Faults {
		h.s(x.Kind)
		h.i(int64(x.Service))
		h.i(int64(x.Mechanism))
		h.n(len(x.Also))
		for _, m := range x.Also {
			h.i(int64(m))
		}
		// Hashed only when present, so faults without them keep their hash.
		if len(x.Shows) > 0 {
			h.s("shows")
			h.n(len(x.Shows))
			for _, m := range x.Shows {
				h.i(int64(m))
			}
		}
		h.n(len(x.Link))
		for _, s := range x.Link {
			h.i(int64(s))
		}
		h.s(x.Detail)
		h.span(x.Fixed)
		h.n(len(x.Remedies))
		for _, r := range x.Remedies {
			h.u(uint64(r.Effect))
			h.i(int64(r.Service))
			h.slot(r.Slot)
			h.u(r.Value)
			h.i(int64(r.Operation))
			// Hashed only when present, so remedies without them keep
			// their hash.
			if len(r.Args) > 0 {
				h.s("args")
				h.n(len(r.Args))
				for _, a := range r.Args {
					h.s(a)
				}
			}
		}
	}
	h.i(int64(t.AlertMinute))
	h.n(len(t.Changes))
	for _, x := range t.Changes {
		h.i(int64(x.Minute))
		h.s(x.Actor)
		h.i(int64(x.Service))
		h.slot(x.Slot)
		h.u(x.Old)
		h.u(x.New)
		h.i(int64(x.Fault))
	}
	h.n(len(t.Distractors))
	for _, x := range t.Distractors {
		h.i(int64(x))
	}
	h.n(len(t.Noise))
	for _, x := range t.Noise {
		h.u(uint64(x.Effect))
		h.i(int64(x.Service))
		h.f(x.Rate)
		h.f(x.Magnitude)
		h.i(int64(x.Lag))
	}
	h.terms(t.Components)
	h.terms(t.Mechanisms)
	h.n(len(t.Claims))
	for _, c := range t.Claims {
		h.i(int64(c.Service))
		h.s(c.Kind)
		h.i(int64(c.Mechanism))
		h.ss(c.Topics)
		h.u(uint64(c.States))
		h.u(uint64(c.Against))
		h.bl(c.HasBand)
		h.f(c.Low)
		h.f(c.High)
		h.s(c.Unit)
		h.ss(c.Gloss)
	}
	r := &t.Rubric
	h.s(r.Name)
	for _, w := range [...]float64{r.Evidence, r.Diagnosis, r.Mitigation, r.Resolution, r.Efficiency,
		r.InvalidAction, r.RepeatedInvalidAction, r.RepeatedUselessAction, r.WrongChange,
		r.RestartHealthy, r.DistractorAction, r.PrematureResolution} {
		h.f(w)
	}
	h.ss(t.Expert)
	h.s(t.Profile)
	h.ref(t.Ref)
	h.i(int64(t.History))
	h.i(int64(t.InitTick))
	h.n(len(t.Init))
	for _, w := range t.Init {
		h.u(w)
	}
	h.n(len(t.Baseline))
	for _, w := range t.Baseline {
		h.u(w)
	}
}

func (h *hasher) slots(xs []SlotID) {
	h.n(len(xs))
	for _, x := range xs {
		h.slot(x)
	}
}

func (h *hasher) assigns(xs []Assign) {
	h.n(len(xs))
	for _, x := range xs {
		h.slot(x.Slot)
		h.span(x.Code)
	}
}

func (h *hasher) terms(xs []Term) {
	h.n(len(xs))
	for _, x := range xs {
		h.s(x.Name)
		h.ss(x.Phrases)
	}
}

func (h *hasher) val(v value.Value) {
	h.u(uint64(v.K))
	h.i(v.I)
	h.f(v.F)
	h.bl(v.B)
	h.s(v.S)
}

func (h *hasher) fields(xs []srezero.Field) {
	h.n(len(xs))
	for _, x := range xs {
		h.s(x.Name)
		h.val(x.Value)
	}
}

func (h *hasher) ref(r *srezero.Task) {
	if r == nil {
		h.u(0)
		return
	}
	h.u(1)
	h.n(len(r.Services))
	for _, s := range r.Services {
		h.s(s.Name)
		h.s(s.Status)
		h.ss(s.Logs)
		h.fields(s.Metrics)
		h.fields(s.Config)
		h.ss(s.Dependencies)
	}
	h.s(r.RootCause)
	h.ss(r.RootCauseKeywords)
	h.n(len(r.Evidence))
	for _, e := range r.Evidence {
		h.s(e.Key)
		h.s(e.Description)
	}
	f := &r.Fix
	h.s(f.ActionType)
	h.s(f.Service)
	h.s(f.Key)
	h.bl(f.HasKey)
	h.f(f.MinNumeric)
	h.bl(f.HasMin)
	h.val(f.Exact)
	h.ss(f.FixKeywords)
	h.ss(r.DistractorServices)
	h.ss(r.Distractors)
	h.bl(r.TerminalOnWrongResolution)
	h.n(len(r.Metadata))
	for _, p := range r.Metadata {
		h.s(p.Key)
		h.s(p.Value)
	}
}
