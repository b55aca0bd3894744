package runtime

import (
	"fmt"
	"strings"
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
	return b.String()
}

func (t *Task) serviceName(i int16) string {
	if i >= 0 && int(i) < len(t.Services) {
		return t.Services[i].Name
	}
	return "?"
}
