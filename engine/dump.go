package engine

import (
	"fmt"
	"math"
	"strings"

	"github.com/srezc/srezc/value"
)

// Dump prints a task as text for authors and golden tests: slots, the
// per-tick program and the faults. Its format is for reading, not parsing.
func Dump(t *Task) string {
	var b strings.Builder
	fmt.Fprintf(&b, "task %s budget=%d hold=%d history=%d init_tick=%d\n", t.ID, t.Budget, t.Hold, t.History, t.InitTick)
	for i, s := range t.Services {
		fmt.Fprintf(&b, "service %d %s (%s) deps=%v\n", i, s.Name, s.Kind, s.DepRoles)
	}
	for i, s := range t.Slots {
		fmt.Fprintf(&b, "slot %d %s.%s.%s %s\n", i, t.serviceName(s.Service), s.Class, s.Name, s.Kind)
	}
	for _, u := range t.Updates {
		fmt.Fprintf(&b, "update slot %d:", u.Slot)
		for _, op := range t.Code[u.Code.Start:u.Code.End] {
			fmt.Fprintf(&b, " %s", op.Code)
			if op.Code == OpLoad || op.Code == OpLoadPrev {
				fmt.Fprintf(&b, "(%d)", op.A)
			}
			if op.Code == OpConst {
				fmt.Fprintf(&b, "(%#x)", op.K)
			}
		}
		b.WriteByte('\n')
	}
	for _, f := range t.Faults {
		fmt.Fprintf(&b, "fault %s on %s mechanism=%d remedies=%d\n", f.Kind, t.serviceName(f.Service), f.Mechanism, len(f.Remedies))
	}
	for _, c := range t.Changes {
		// Strings may be provisional ids before FinaliseStrings: words only.
		fmt.Fprintf(&b, "change %d min before the alert by %s on %s slot %d: %#x -> %#x fault=%d\n", t.Age(&c), c.Actor, t.serviceName(c.Service), c.Slot, c.Old, c.New, c.Fault)
	}
	for _, d := range t.Distractors {
		fmt.Fprintf(&b, "distractor on %s\n", t.serviceName(d))
	}
	for _, n := range t.Noise {
		fmt.Fprintf(&b, "noise effect=%d service=%s rate=%g magnitude=%g lag=%d\n", n.Effect, t.serviceName(n.Service), n.Rate, n.Magnitude, n.Lag)
	}
	for _, tl := range t.Tools {
		args := make([]string, len(tl.Args))
		for i, a := range tl.Args {
			args[i] = a.Name
		}
		fmt.Fprintf(&b, "tool %s(%s) effect=%s\n", tl.Name, strings.Join(args, ", "), tl.Effect)
	}
	if n := len(t.Slots); len(t.Init) >= n && n > 0 {
		row := t.Init[len(t.Init)-n:]
		for i, s := range t.Slots {
			if s.Class == ClassConfig || s.Class == ClassState {
				fmt.Fprintf(&b, "init %s.%s = %s\n", t.serviceName(s.Service), s.Name, t.wordText(&s, row[i]))
			}
		}
	}
	for _, a := range t.Expert {
		fmt.Fprintf(&b, "expert %s\n", a)
	}
	for _, r := range t.Evidence {
		fmt.Fprintf(&b, "evidence tool=%d service=%s key=%d\n", r.Tool, t.serviceName(r.Service), r.Key)
	}
	if t.Optimal > 0 {
		fmt.Fprintf(&b, "optimal %d\n", t.Optimal)
	}
	if t.Certified || len(t.Uncertified) > 0 {
		fmt.Fprintf(&b, "certified %v\n", t.Certified)
		for _, u := range t.Uncertified {
			fmt.Fprintf(&b, "uncertified %s\n", u)
		}
	}
	return b.String()
}

// wordText shows a slot word for a dump.
func (t *Task) wordText(s *Slot, w uint64) string {
	switch s.Kind {
	case value.Int:
		return fmt.Sprint(int64(w))
	case value.Float:
		return fmt.Sprint(math.Float64frombits(w))
	case value.Bool:
		return fmt.Sprint(w != 0)
	case value.String:
		if int(w) < len(t.Strings) {
			return fmt.Sprintf("%q", t.Strings[w])
		}
	}
	return fmt.Sprintf("%#x", w)
}

func (t *Task) serviceName(i int16) string {
	if i >= 0 && int(i) < len(t.Services) {
		return t.Services[i].Name
	}
	return "?"
}
